package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quire-sh/quire/app/apptest"
	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/term"
)

// opSession is a session whose operations the test scripts: each may
// block until the test lets it go, and Clear replaces the event channel
// as a real switch does.
type opSession struct {
	mu        sync.Mutex
	events    chan event.Event
	submitted []string
	gate      chan struct{} // operations wait on it when set

	switchModel func(model string) (Switched, error)
	rewind      func() (Switched, error)
	export      func(path string) (string, error)
	sessions    []SessionSummary
}

func newOpSession() *opSession { return &opSession{events: make(chan event.Event, 64)} }

func (s *opSession) wait(ctx context.Context) error {
	s.mu.Lock()
	g := s.gate
	s.mu.Unlock()
	if g == nil {
		return nil
	}
	select {
	case <-g:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *opSession) Events() <-chan event.Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.events
}
func (s *opSession) send(e event.Event) {
	s.mu.Lock()
	ch := s.events
	s.mu.Unlock()
	ch <- e
}
func (s *opSession) Submit(text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.submitted = append(s.submitted, text)
}
func (s *opSession) SubmitCommand(command, text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.submitted = append(s.submitted, command+" => "+text)
}
func (s *opSession) sent() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.submitted...)
}
func (s *opSession) Cancel()                               {}
func (s *opSession) Answer(string, event.Decision, string) {}
func (s *opSession) Compact(string)                        {}
func (s *opSession) SwitchModel(ctx context.Context, model string) (Switched, error) {
	if err := s.wait(ctx); err != nil {
		return Switched{}, err
	}
	return s.switchModel(model)
}
func (s *opSession) Clear(ctx context.Context) (Switched, error) {
	if err := s.wait(ctx); err != nil {
		return Switched{}, err
	}
	// The old session stops: its last event, then its channel closes.
	s.mu.Lock()
	old := s.events
	s.events = make(chan event.Event, 64)
	s.mu.Unlock()
	old <- event.Event{Kind: event.Notice, Text: "the old session's last word"}
	close(old)
	return Switched{Notice: "new session s2", Rebuild: true}, nil
}
func (s *opSession) Rewind(context.Context, int, string) (Switched, error) {
	if s.rewind == nil {
		return Switched{}, errors.New("nothing to rewind")
	}
	s.mu.Lock()
	old := s.events
	s.events = make(chan event.Event, 64)
	s.mu.Unlock()
	close(old)
	return s.rewind()
}
func (s *opSession) Sessions(ctx context.Context) ([]SessionSummary, error) {
	if err := s.wait(ctx); err != nil {
		return nil, err
	}
	return s.sessions, nil
}
func (s *opSession) Export(ctx context.Context, path string) (string, error) {
	if err := s.wait(ctx); err != nil {
		return "", err
	}
	return s.export(path)
}

// startLoop runs Run on a test terminal until the test ends.
func startLoop(t *testing.T, s Session, opt Options) *apptest.Terminal {
	t.Helper()
	return startLoopOn(t, apptest.NewTerminal(80, 20), s, opt)
}

func startLoopOn(t *testing.T, tt *apptest.Terminal, s Session, opt Options) *apptest.Terminal {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Run(ctx, tt, s, opt) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	if !tt.WaitFor("Ask anything", 5*time.Second) {
		t.Fatalf("no first frame:\n%s", tt.Screen())
	}
	return tt
}

func waitScreen(t *testing.T, tt *apptest.Terminal, want string) {
	t.Helper()
	if !tt.WaitFor(want, 5*time.Second) {
		t.Fatalf("the screen does not show %q:\n%s", want, tt.Screen())
	}
}

// /clear's result arrives like any completion: the old session's last
// events are drained, the transcript is rebuilt, and the new session's
// events are read from then on.
func TestClearSwapsTheSession(t *testing.T) {
	s := newOpSession()
	tt := startLoop(t, s, Options{})
	s.send(event.Event{Kind: event.UserMessage, Turn: 1, Text: "from the first session"})
	waitScreen(t, tt, "from the first session")
	tt.Type("/clear", term.KeyEnter)
	waitScreen(t, tt, "new session s2")
	s.send(event.Event{Kind: event.UserMessage, Turn: 1, Text: "from the second session"})
	waitScreen(t, tt, "from the second session")
	if strings.Contains(tt.Screen(), "from the first session") {
		t.Fatalf("the rebuilt transcript still shows the old session:\n%s", tt.Screen())
	}
}

// Operations that block (a stuck store) never stop the loop: frames keep
// coming, typing shows, and the results are shown when they arrive.
func TestBlockedOperationsNeverStopTheLoop(t *testing.T) {
	s := newOpSession()
	gate := make(chan struct{})
	s.gate = gate
	s.switchModel = func(model string) (Switched, error) { return Switched{Notice: "model: " + model}, nil }
	s.export = func(path string) (string, error) { return "exported to " + path, nil }
	s.sessions = []SessionSummary{{ID: "20261130-abcdef", LastActive: t0, Turns: 3, Title: "listed session"}}
	tt := startLoop(t, s, Options{})
	for _, cmd := range []string{"/model other", "/export out.jsonl", "/sessions"} {
		tt.Type(cmd, term.KeyEnter)
	}
	waitScreen(t, tt, "switching to other…")
	tt.Type("typing goes on")
	waitScreen(t, tt, "typing goes on")
	tt.Type("", term.KeyEnter)
	waitScreen(t, tt, "the session is being switched")
	if got := s.sent(); len(got) != 0 {
		t.Fatalf("a prompt went out during the switch: %q", got)
	}
	close(gate)
	waitScreen(t, tt, "listed session")
	tt.Send(term.KeyEvent{Key: term.KeyEscape})
	tt.Type("", term.KeyEnter)
	deadline := time.Now().Add(5 * time.Second)
	for len(s.sent()) == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if got := s.sent(); !reflect.DeepEqual(got, []string{"typing goes on"}) {
		t.Fatalf("after the switch the prompt went out as %q", got)
	}
}

// An operation's error is shown, never dropped, and a failed switch
// leaves the prompt usable.
func TestOperationErrorsAreShown(t *testing.T) {
	s := newOpSession()
	s.switchModel = func(string) (Switched, error) { return Switched{}, errors.New("switching to nope: no such model") }
	s.export = func(string) (string, error) { return "", errors.New("disk full") }
	tt := startLoop(t, s, Options{})
	tt.Type("/model nope", term.KeyEnter)
	waitScreen(t, tt, "no such model")
	tt.Type("/export x", term.KeyEnter)
	waitScreen(t, tt, "export failed: disk full")
	tt.Type("/rewind", term.KeyEnter)
	waitScreen(t, tt, "nothing to rewind")
	tt.Type("hello", term.KeyEnter)
	deadline := time.Now().Add(5 * time.Second)
	for len(s.sent()) == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if got := s.sent(); !reflect.DeepEqual(got, []string{"hello"}) {
		t.Fatalf("after the failed switch: %q", got)
	}
}

// The history file is read and appended to by the loop's jobs: entries
// from the file come back with Up, prompts sent are in the file when the
// loop ends, in order.
func TestHistoryFileIsReadAndWrittenByJobs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "history.jsonl")
	if err := AppendHistory(path, []string{"from an earlier run"}); err != nil {
		t.Fatal(err)
	}
	s := newOpSession()
	tt := apptest.NewTerminal(80, 20)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Run(ctx, tt, s, Options{HistoryFile: path, Prompt: "the first prompt"}) }()
	waitScreen(t, tt, "Ask anything")
	for _, p := range []string{"two", "three"} {
		tt.Type(p, term.KeyEnter)
	}
	deadline := time.Now().Add(5 * time.Second)
	for len(s.sent()) < 3 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	tt.Send(term.KeyEvent{Key: term.KeyUp})
	tt.Send(term.KeyEvent{Key: term.KeyUp})
	tt.Send(term.KeyEvent{Key: term.KeyUp})
	tt.Send(term.KeyEvent{Key: term.KeyUp})
	waitScreen(t, tt, "› from an earlier run")
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	got, err := ReadHistory(path)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"from an earlier run", "the first prompt", "two", "three"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("history file %q, want %q", got, want)
	}
	if sent := s.sent(); !reflect.DeepEqual(sent, want[1:]) {
		t.Fatalf("sent %q", sent)
	}
}

// A history file that cannot be written is reported in the status line.
func TestHistoryWriteErrorIsShown(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "not-a-dir")
	os.WriteFile(blocker, nil, 0o600)
	s := newOpSession()
	tt := startLoop(t, s, Options{HistoryFile: filepath.Join(blocker, "history.jsonl")})
	tt.Type("remember me", term.KeyEnter)
	waitScreen(t, tt, "saving prompt history")
}

// Tab completes an @path against the session's directory, listed off the
// loop.
func TestPathCompletionListsTheSessionDir(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "notes.txt"), nil, 0o600)
	os.Mkdir(filepath.Join(dir, "src"), 0o700)
	os.WriteFile(filepath.Join(dir, "src", "main.go"), nil, 0o600)
	tt := startLoop(t, newOpSession(), Options{Cwd: dir})
	tt.Type("look at @no", term.KeyTab)
	waitScreen(t, tt, "look at @notes.txt")
	tt.Type(" and @sr", term.KeyTab)
	waitScreen(t, tt, "and @src/")
	tt.Type("", term.KeyTab)
	waitScreen(t, tt, "@src/main.go")
}

// Inline, a rebuilt transcript is not printed again: what the terminal's
// scrollback holds stays, once.
func TestInlineRewindDoesNotReprint(t *testing.T) {
	s := newOpSession()
	prior := []event.Event{
		{Kind: event.UserMessage, Turn: 1, Text: "the kept prompt"},
		{Kind: event.TurnStarted, Turn: 1},
		{Kind: event.AssistantMessage, Turn: 1, Text: "the kept answer"},
		{Kind: event.TurnEnded, Turn: 1, End: &event.TurnEnd{State: event.TurnCompleted}},
	}
	s.rewind = func() (Switched, error) {
		return Switched{Rebuild: true, Prior: prior, Prompt: "the rewound prompt", Notice: "went back"}, nil
	}
	tt := startLoopOn(t, apptest.NewTerminal(60, 12), s, Options{Minimal: true})
	for _, e := range prior {
		s.send(e)
	}
	for _, e := range []event.Event{
		{Kind: event.UserMessage, Turn: 2, Text: "the rewound prompt"},
		{Kind: event.TurnStarted, Turn: 2},
		{Kind: event.AssistantMessage, Turn: 2, Text: "the dropped answer"},
		{Kind: event.TurnEnded, Turn: 2, End: &event.TurnEnd{State: event.TurnCompleted}},
	} {
		s.send(e)
	}
	waitScreen(t, tt, "the dropped answer")
	tt.Type("/rewind", term.KeyEnter)
	waitScreen(t, tt, "went back")
	if n := strings.Count(tt.History(), "the kept answer"); n != 1 {
		t.Fatalf("the kept answer is in the terminal %d times:\n%s", n, tt.History())
	}
}

// Prompts still waiting for the history file when the loop ends are
// written then; when that fails, Run returns the error, so it is said
// after the terminal is restored instead of being lost.
func TestHistoryFlushedAtExitReportsItsError(t *testing.T) {
	blocker := filepath.Join(t.TempDir(), "not-a-dir")
	os.WriteFile(blocker, nil, 0o600)
	l := &Loop{history: historyWriter{path: filepath.Join(blocker, "history.jsonl"), pending: []string{"last words"}}}
	if err := l.flushHistory(); err == nil || !strings.Contains(err.Error(), "saving prompt history") {
		t.Fatalf("flushHistory = %v, want the write's error", err)
	}
	if len(l.history.pending) != 0 {
		t.Fatalf("pending %q after the flush", l.history.pending)
	}
	good := filepath.Join(t.TempDir(), "history.jsonl")
	l = &Loop{history: historyWriter{path: good, pending: []string{"last words"}}}
	if err := l.flushHistory(); err != nil {
		t.Fatal(err)
	}
	if got, _ := ReadHistory(good); !reflect.DeepEqual(got, []string{"last words"}) {
		t.Fatalf("history file %q", got)
	}
}
