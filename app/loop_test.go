package app

import (
	"bytes"
	"context"
	"errors"
	"io"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/render"
	"github.com/quire-sh/quire/render/rendertest"
	"github.com/quire-sh/quire/scrollback"
	"github.com/quire-sh/quire/term"
)

// fakeTerm records every frame the loop writes.
type fakeTerm struct {
	events chan term.Event
	w, h   int
	mu     sync.Mutex
	frames [][]byte
	copied []string
}

func newFakeTerm(w, h int) *fakeTerm {
	return &fakeTerm{events: make(chan term.Event, 64), w: w, h: h}
}

func (f *fakeTerm) Events() <-chan term.Event { return f.events }
func (f *fakeTerm) Size() (int, int)          { return f.w, f.h }
func (f *fakeTerm) Writer() io.Writer         { return f }
func (f *fakeTerm) Pending() int              { return 0 }
func (f *fakeTerm) LastWrite() time.Duration  { return 50 * time.Microsecond }
func (f *fakeTerm) Caps() term.Caps           { return term.Caps{Colors: render.Color256, Hyperlinks: true} }
func (f *fakeTerm) SetAltScreen(bool) error   { return nil }
func (f *fakeTerm) SetMouse(bool) error       { return nil }
func (f *fakeTerm) HandOff(fn func() error) error {
	return fn()
}
func (f *fakeTerm) Suspend() error { return nil }
func (f *fakeTerm) Copy(s string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.copied = append(f.copied, s)
	return nil
}
func (f *fakeTerm) CursorPosition(time.Duration) (int, int, error) { return 0, 0, nil }

func (f *fakeTerm) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.frames = append(f.frames, append([]byte(nil), p...))
	return len(p), nil
}

func (f *fakeTerm) frameCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.frames)
}

func (f *fakeTerm) all() []byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	return bytes.Join(f.frames, nil)
}

// fakeSession is a session whose events the test sends.
type fakeSession struct {
	events    chan event.Event
	mu        sync.Mutex
	submitted []string
}

func (s *fakeSession) Events() <-chan event.Event { return s.events }
func (s *fakeSession) Submit(text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.submitted = append(s.submitted, text)
}
func (s *fakeSession) SubmitCommand(command, text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.submitted = append(s.submitted, command+" => "+text)
}
func (s *fakeSession) Cancel()                               {}
func (s *fakeSession) Answer(string, event.Decision, string) {}
func (s *fakeSession) Compact(string)                        {}
func (s *fakeSession) SwitchModel(context.Context, string) (Switched, error) {
	return Switched{}, errors.New("no switching here")
}
func (s *fakeSession) Clear(context.Context) (Switched, error) { return Switched{}, errors.New("no") }
func (s *fakeSession) Rewind(context.Context, int, string) (Switched, error) {
	return Switched{}, errors.New("no")
}
func (s *fakeSession) Sessions(context.Context) ([]SessionSummary, error) { return nil, nil }
func (s *fakeSession) Export(context.Context, string) (string, error)     { return "", errors.New("no") }

func runTestLoop(t *testing.T, minimal bool) (*fakeTerm, *fakeSession, *Model, func()) {
	t.Helper()
	ft := newFakeTerm(60, 16)
	fs := &fakeSession{events: make(chan event.Event, 64)}
	tr := scrollback.New(scrollback.Options{Width: 60, Height: 16})
	m := NewModel(tr, nil, Status{Model: "m", Sandbox: "workspace", Approval: "ask"}, minimal)
	loop := NewLoop(m, ft, fs, LoopOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- loop.Run(ctx) }()
	return ft, fs, m, func() {
		cancel()
		if err := <-done; err != nil && err != context.Canceled {
			t.Errorf("loop: %v", err)
		}
	}
}

func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// watchStalls notes how long this process goes without being scheduled
// until the test ends; the func it returns skips the test when that was
// ever more than limit, for a timing assertion about to fail.
func watchStalls(t *testing.T, limit time.Duration) func() {
	t.Helper()
	var worst atomic.Int64
	done := make(chan struct{})
	go func() {
		last := time.Now()
		for {
			select {
			case <-done:
				return
			case <-time.After(5 * time.Millisecond):
			}
			now := time.Now()
			if gap := now.Sub(last) - 5*time.Millisecond; gap > time.Duration(worst.Load()) {
				worst.Store(int64(gap))
			}
			last = now
		}
	}()
	t.Cleanup(func() { close(done) })
	return func() {
		t.Helper()
		if g := time.Duration(worst.Load()); g > limit {
			t.Skipf("the process was not scheduled for %v: too busy a machine to judge the timing", g)
		}
	}
}

func TestIdleLoopWritesNothing(t *testing.T) {
	ft, _, _, stop := runTestLoop(t, false)
	defer stop()
	waitUntil(t, "the first frame", func() bool { return ft.frameCount() > 0 })
	time.Sleep(30 * time.Millisecond) // let any deferred draw land
	n := ft.frameCount()
	time.Sleep(300 * time.Millisecond)
	if got := ft.frameCount(); got != n {
		t.Fatalf("an idle quire wrote %d frames in 300 ms", got-n)
	}
}

func TestTypedKeysReachTheScreen(t *testing.T) {
	ft, fs, _, stop := runTestLoop(t, false)
	defer stop()
	waitUntil(t, "the first frame", func() bool { return ft.frameCount() > 0 })
	for _, r := range "hello" {
		ft.events <- term.KeyEvent{Key: term.KeyRune, Rune: r}
	}
	ft.events <- term.KeyEvent{Key: term.KeyEnter}
	waitUntil(t, "the submit", func() bool {
		fs.mu.Lock()
		defer fs.mu.Unlock()
		return len(fs.submitted) == 1
	})
	if fs.submitted[0] != "hello" {
		t.Fatalf("submitted %q", fs.submitted)
	}
	fs.events <- event.Event{Kind: event.UserMessage, Turn: 1, Text: "hello"}
	fs.events <- event.Event{Kind: event.TurnStarted, Turn: 1}
	fs.events <- event.Event{Kind: event.AssistantDelta, Turn: 1, Text: "world, streamed"}
	fs.events <- event.Event{Kind: event.TurnEnded, Turn: 1, End: &event.TurnEnd{State: event.TurnCompleted}}
	waitUntil(t, "the answer on screen", func() bool {
		oracle := rendertest.NewOracle(60, 16)
		oracle.Write(ft.all())
		return strings.Contains(strings.Join(oracle.ScreenText(), "\n"), "world, streamed")
	})
	if err := rendertest.CheckSync(ft.all()); err != nil {
		t.Fatal(err)
	}
}

// /perf shows what the frames cost on this terminal, measured by the
// loop as it flushes them, and showing it does not make an idle quire
// draw.
func TestPerfRowShowsFrameCosts(t *testing.T) {
	ft, _, _, stop := runTestLoop(t, false)
	defer stop()
	waitUntil(t, "the first frame", func() bool { return ft.frameCount() > 0 })
	for _, r := range "/perf" {
		ft.events <- term.KeyEvent{Key: term.KeyRune, Rune: r}
	}
	ft.events <- term.KeyEvent{Key: term.KeyEnter}
	// Typed a key at a time (keys that arrive together draw once), so
	// that frames after /perf have something to show.
	for _, r := range "typing" {
		n := ft.frameCount()
		ft.events <- term.KeyEvent{Key: term.KeyRune, Rune: r}
		waitUntil(t, "the key's frame", func() bool { return ft.frameCount() > n })
	}
	// 60 columns hold all but the tty time and the queue.
	perfRow := regexp.MustCompile(`perf · [1-9][0-9]* B/frame · [1-9][0-9]* frames/s · [0-9.]+ k?B/s · draw [0-9.]+ ms\s*$`)
	waitUntil(t, "the perf row", func() bool {
		oracle := rendertest.NewOracle(60, 16)
		oracle.Write(ft.all())
		for _, row := range oracle.ScreenText() {
			if perfRow.MatchString(row) {
				return true
			}
		}
		return false
	})
	time.Sleep(30 * time.Millisecond)
	n := ft.frameCount()
	time.Sleep(300 * time.Millisecond)
	if got := ft.frameCount(); got != n {
		t.Fatalf("with /perf on, an idle quire wrote %d frames in 300 ms", got-n)
	}
}

// An approval that arrives while the window is unfocused rings the bell
// in the next frame, inside its synchronized update.
func TestBellRingsInAFrame(t *testing.T) {
	for _, minimal := range []bool{false, true} {
		ft := newFakeTerm(60, 16)
		fs := &fakeSession{events: make(chan event.Event, 64)}
		tr := scrollback.New(scrollback.Options{Width: 60, Height: 16})
		m := NewModel(tr, nil, Status{Model: "m", Sandbox: "workspace", Approval: "ask", Bell: true}, minimal)
		loop := NewLoop(m, ft, fs, LoopOptions{})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- loop.Run(ctx) }()
		waitUntil(t, "the first frame", func() bool { return ft.frameCount() > 0 })
		ft.events <- term.FocusEvent{Focused: false}
		fs.events <- event.Event{Kind: event.UserMessage, Turn: 1, Text: "hi"}
		fs.events <- event.Event{Kind: event.TurnStarted, Turn: 1}
		fs.events <- event.Event{Kind: event.ApprovalRequested, Turn: 1, Approval: &event.Approval{CallID: "c1", Tool: "shell", Target: "ls", Preview: "ls"}}
		waitUntil(t, "the bell", func() bool { return bytes.Contains(ft.all(), []byte("\a")) })
		if err := rendertest.CheckSync(ft.all()); err != nil {
			t.Errorf("minimal=%v: %v", minimal, err)
		}
		if n := bytes.Count(ft.all(), []byte("\a")); n != 1 {
			t.Errorf("minimal=%v: the bell rang %d times", minimal, n)
		}
		cancel()
		<-done
	}
}

// pacedLoop runs an inline loop at 60×16 drawing engine frames at most
// once an interval, until the test ends, once its first frame is out. It
// returns the session whose events the loop reduces and a condition that
// the screen shows a text.
func pacedLoop(t *testing.T, interval time.Duration) (*fakeSession, func(string) func() bool) {
	t.Helper()
	ft := newFakeTerm(60, 16)
	fs := &fakeSession{events: make(chan event.Event)}
	tr := scrollback.New(scrollback.Options{Width: 60, Height: 16})
	m := NewModel(tr, nil, Status{Model: "m", Sandbox: "workspace", Approval: "ask"}, true)
	loop := NewLoop(m, ft, fs, LoopOptions{DrawInterval: interval})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- loop.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	waitUntil(t, "the first frame", func() bool { return ft.frameCount() > 0 })
	shows := func(s string) func() bool {
		return func() bool {
			oracle := rendertest.NewOracle(60, 16)
			oracle.Write(ft.all())
			return strings.Contains(strings.Join(oracle.ScreenText(), "\n"), s)
		}
	}
	return fs, shows
}

// TestStreamDrawsOnItsOwnEvents: a change that comes before the draw
// interval has passed is drawn with the first event after it, not on a
// timer of its own at the interval, and at the latest half an interval
// later when no event comes. (No turn runs, so no spinner wakes the loop.)
func TestStreamDrawsOnItsOwnEvents(t *testing.T) {
	const interval = time.Second
	fs, shows := pacedLoop(t, interval)
	// The assertions below are about timing: when the machine stalls
	// this process for a good part of the interval (a race-detector
	// build of another package hogging both cores), they cannot judge it.
	stalled := watchStalls(t, interval/4)
	waitUntil := func(t *testing.T, what string, cond func() bool) {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); !cond(); time.Sleep(2 * time.Millisecond) {
			if time.Now().After(deadline) {
				stalled()
				t.Fatalf("timed out waiting for %s", what)
			}
		}
	}
	time.Sleep(interval + interval/10)
	fs.events <- event.Event{Kind: event.UserMessage, Turn: 1, Text: "the question"}
	waitUntil(t, "the question", shows("the question")) // after the interval: at once
	start := time.Now()
	send := func(text string) {
		fs.events <- event.Event{Kind: event.AssistantDelta, Turn: 1, Text: text}
	}
	send("alpha ") // too soon: waits
	time.Sleep(interval / 4)
	if shows("alpha")() {
		stalled()
		t.Fatal("drawn before the interval passed")
	}
	time.Sleep(time.Until(start.Add(interval + interval/10)))
	send("beta ") // after the interval, before the timer: drawn with it
	waitUntil(t, "beta", shows("beta"))
	if d := time.Since(start); d >= interval+interval/2 {
		stalled()
		t.Fatalf("the frame after the interval came %v after the last one, with the timer, not with the event", d)
	}
	start = time.Now()
	send("gamma ") // nothing follows: the timer draws it
	waitUntil(t, "gamma", shows("gamma"))
	if d := time.Since(start); d < interval {
		stalled()
		t.Fatalf("drawn %v after the last frame, within the interval", d)
	}
	// The end of the turn is drawn at once, and the text before it with
	// it, however soon after the last frame it comes.
	start = time.Now()
	send("delta ")
	fs.events <- event.Event{Kind: event.TurnEnded, Turn: 1}
	waitUntil(t, "delta", shows("delta"))
	if d := time.Since(start); d >= interval/2 {
		stalled()
		t.Fatalf("the end of the turn was drawn %v after it came, not at once", d)
	}
}

// Keys that arrive together (a paste without bracketed paste, key repeat)
// are drawn together: one frame after the burst, not one a key, and the
// screen shows every key.
func TestKeysArrivingTogetherDrawOnce(t *testing.T) {
	ft, _, _, stop := runTestLoop(t, false)
	defer stop()
	waitUntil(t, "the first frame", func() bool { return ft.frameCount() > 0 })
	time.Sleep(30 * time.Millisecond) // let any deferred draw land
	before := ft.frameCount()
	const typed = "a burst of forty keys typed in one go!!"
	for _, r := range typed {
		ft.events <- term.KeyEvent{Key: term.KeyRune, Rune: r}
	}
	waitUntil(t, "the keys on screen", func() bool {
		oracle := rendertest.NewOracle(60, 16)
		oracle.Write(ft.all())
		return strings.Contains(strings.Join(oracle.ScreenText(), "\n"), typed)
	})
	time.Sleep(30 * time.Millisecond)
	if n := ft.frameCount() - before; n > 5 {
		t.Fatalf("%d keys that arrived together took %d frames", len(typed), n)
	}
}

// TestEventsThatDrawAtOnce: an approval that waits and an error are drawn
// at once, with the text before them, however soon after the last frame
// they come (the end of a turn: TestStreamDrawsOnItsOwnEvents); a delta
// alone in that time waits for the interval, and shows with the first.
func TestEventsThatDrawAtOnce(t *testing.T) {
	const interval = time.Second
	fs, shows := pacedLoop(t, interval)
	stalled := watchStalls(t, interval/4)
	time.Sleep(interval + interval/10)
	fs.events <- event.Event{Kind: event.UserMessage, Turn: 1, Text: "the question"}
	waitUntil(t, "the question", shows("the question"))
	fs.events <- event.Event{Kind: event.AssistantDelta, Turn: 1, Text: "waiting "}
	time.Sleep(interval / 4)
	if shows("waiting")() {
		stalled()
		t.Fatal("a delta alone was drawn within the interval")
	}
	for _, tc := range []struct {
		shown string // what the frame shows once the event is drawn
		e     event.Event
	}{
		{"waiting", event.Event{Kind: event.ApprovalRequested, Turn: 1, CallID: "c1",
			Approval: &event.Approval{CallID: "c1", Tool: "shell", Target: "ls", Preview: "ls"}}},
		{"server went away", event.Event{Kind: event.Error, Turn: 1, Text: "the model's server went away"}},
	} {
		start := time.Now()
		fs.events <- tc.e
		waitUntil(t, tc.shown, shows(tc.shown))
		if d := time.Since(start); d >= interval/2 {
			stalled()
			t.Fatalf("%s: drawn %v after it came, not at once", tc.e.Kind, d)
		}
	}
}
