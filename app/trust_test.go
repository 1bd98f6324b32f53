package app

import (
	"context"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quire-sh/quire/app/apptest"
	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/term"
)

// trustSession is an opSession with a question about the project's
// files; its answers are recorded, and block until the test lets them
// go when gate is set.
type trustSession struct {
	*opSession
	q       *TrustQuestion
	mu      sync.Mutex
	answers []TrustAnswer
}

func (s *trustSession) TrustQuestion() *TrustQuestion { return s.q }
func (s *trustSession) AnswerTrust(ctx context.Context, a TrustAnswer) (Switched, error) {
	if err := s.wait(ctx); err != nil {
		return Switched{}, err
	}
	s.mu.Lock()
	s.answers = append(s.answers, a)
	s.mu.Unlock()
	return Switched{Notice: "answered"}, nil
}
func (s *trustSession) answered() []TrustAnswer {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]TrustAnswer(nil), s.answers...)
}

func question() *TrustQuestion {
	long := make([]string, 30)
	for i := range long {
		long[i] = "PostToolUse: ./log.sh " + strings.Repeat("x", i)
	}
	return &TrustQuestion{Project: "/src/p", Applies: "Yes applies them at once.", Files: []TrustFile{
		{Name: ".quire/hooks.json", What: "hooks", Summary: append([]string{"PreToolUse [shell]: ./guard.sh"}, long...), Content: "{\"hooks\": {}}\n", Before: "trusted"},
		{Name: ".quire/config.toml", What: "settings", Summary: []string{`theme = "light"`}, Content: "theme = \"light\"\n"},
	}}
}

// The question about the project's files takes the keys until it is
// answered, scrolls, shows the files with v, and holds the prompt given
// on the command line back until the answer has been applied.
func TestTrustQuestionTakesTheKeysAndHoldsThePrompt(t *testing.T) {
	s := &trustSession{opSession: newOpSession(), q: question()}
	s.gate = make(chan struct{})
	tt := apptest.NewTerminal(80, 24)
	startLoopOn(t, tt, s, Options{Prompt: "do the thing"})
	waitScreen(t, tt, "This project has 2 files")
	waitScreen(t, tt, "(changed since you trusted it)")
	waitScreen(t, tt, "↓")
	tt.Type("jjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjj")
	waitScreen(t, tt, `theme = "light"`)
	tt.Type("v")
	waitScreen(t, tt, `{"hooks": {}}`)
	tt.Type("typed at the question")
	tt.Type("y")
	waitScreen(t, tt, "applying the project's files…")
	if got := s.sent(); len(got) != 0 {
		t.Fatalf("prompts went out before the answer was applied: %q", got)
	}
	close(s.gate)
	waitScreen(t, tt, "answered")
	deadline := time.Now().Add(5 * time.Second)
	for len(s.sent()) == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if got := s.sent(); !reflect.DeepEqual(got, []string{"do the thing"}) {
		t.Errorf("sent %q, want the held prompt once", got)
	}
	if got := s.answered(); !reflect.DeepEqual(got, []TrustAnswer{TrustYes}) {
		t.Errorf("answers %v", got)
	}
	if strings.Contains(tt.Screen(), "typed at the question") {
		t.Errorf("keys typed at the question reached the editor:\n%s", tt.Screen())
	}
	tt.Type("now it types")
	waitScreen(t, tt, "now it types")
}

// n declines, Esc leaves the files out this time; the status line then
// follows the session as it starts.
func TestTrustQuestionNoAndNotNow(t *testing.T) {
	for _, tc := range []struct {
		key  term.KeyEvent
		want TrustAnswer
	}{
		{term.KeyEvent{Key: term.KeyRune, Rune: 'n'}, TrustNo},
		{term.KeyEvent{Key: term.KeyEscape}, TrustLater},
	} {
		s := &trustSession{opSession: newOpSession(), q: question()}
		tt := startLoop(t, s, Options{Status: Status{Model: "m", Sandbox: "workspace", Approval: "yolo"}})
		waitScreen(t, tt, "[Esc] not now")
		tt.Send(tc.key)
		waitScreen(t, tt, "answered")
		if got := s.answered(); !reflect.DeepEqual(got, []TrustAnswer{tc.want}) {
			t.Errorf("answers %v, want %v", got, tc.want)
		}
		s.send(event.Event{Kind: event.SessionStarted, Session: &event.SessionInfo{ID: "s", Model: "m", Sandbox: "strict", Approval: "ask"}})
		waitScreen(t, tt, "sandbox:strict · approval:ask")
	}
}
