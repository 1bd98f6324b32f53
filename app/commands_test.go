package app

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/quire-sh/quire/app/apptest"
	"github.com/quire-sh/quire/term"
)

// expandWith is an Expand that puts the arguments into a template.
func expandWith(template string) func(context.Context, string) (string, error) {
	return func(_ context.Context, args string) (string, error) {
		return strings.ReplaceAll(template, "$ARGUMENTS", args), nil
	}
}

// waitFor polls cond until it holds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func testCommands() []Command {
	return []Command{
		{Name: "review", Args: "FILE", Summary: "Review a file", Source: "project", Origin: ".quire/commands/review.md", Expand: expandWith("Review $ARGUMENTS carefully.")},
		{Name: "review-pr", Summary: "Review the open PR", Source: "user", Origin: "~/.config/quire/commands/review-pr.md", Expand: expandWith("Review the PR.")},
		{Name: "help", Summary: "my help", Source: "project", Origin: ".quire/commands/help.md", Expand: expandWith("x")},
	}
}

func TestCheckCommands(t *testing.T) {
	cmds := append(testCommands(),
		Command{Name: "review", Origin: "~/.config/quire/commands/review.md", Expand: expandWith("the user's")},
		Command{Name: "two words", Origin: "mcp x", Expand: expandWith("x")},
		Command{Name: "noexpand", Origin: "mcp y"},
	)
	kept, notices := CheckCommands(cmds)
	var names []string
	for _, c := range kept {
		names = append(names, c.Name)
	}
	if !reflect.DeepEqual(names, []string{"review", "review-pr"}) {
		t.Fatalf("kept %v", names)
	}
	want := []string{
		".quire/commands/help.md: /help is quire's own command, which wins; rename it to use it",
		"~/.config/quire/commands/review.md: /review is taken by .quire/commands/review.md, which wins; rename it to use it",
		`mcp x: "two words" cannot be a /command; it is skipped`,
		`mcp y: "noexpand" cannot be a /command; it is skipped`,
	}
	if !reflect.DeepEqual(notices, want) {
		t.Fatalf("notices\n%q\nwant\n%q", notices, want)
	}
}

func TestParseSlashExternal(t *testing.T) {
	cmds, _ := CheckCommands(testCommands())
	for _, tc := range []struct {
		in       string
		ok       bool
		name     string
		rest     string
		external bool
		err      string
	}{
		{in: "/review main.go  twice ", ok: true, name: "review", rest: "main.go  twice", external: true},
		{in: "/review", ok: true, name: "review", rest: "", external: true},
		{in: "/review\nline two\nline three", ok: true, name: "review", rest: "line two\nline three", external: true},
		{in: "/review-pr", ok: true, name: "review-pr", external: true},
		{in: "/help", ok: true, name: "help"},
		{in: "/help\nmore", ok: false},
		{in: "/revew x", ok: true, err: "did you mean /review?"},
		{in: "/nothing\nat all", ok: false},
		{in: "/src/main.go is broken", ok: false},
	} {
		inv, ok, err := ParseSlash(tc.in, cmds...)
		if ok != tc.ok {
			t.Errorf("%q: ok %v", tc.in, ok)
			continue
		}
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if !ok {
			continue
		}
		if err != nil || inv.Name != tc.name || inv.Rest != tc.rest || (inv.External != nil) != tc.external {
			t.Errorf("%q: %+v, %v", tc.in, inv, err)
		}
	}
}

func TestCompleteSlashLineExternal(t *testing.T) {
	cmds, _ := CheckCommands(testCommands())
	for _, tc := range []struct {
		in, out string
		cands   []string
	}{
		{"/rev", "/review", nil}, // the names' common prefix first
		{"/review", "/review", []string{"review", "review-pr"}},
		{"/review-", "/review-pr ", nil},
		{"/s", "/s", []string{"sessions", "skills"}},
		{"/sk", "/skills ", nil},
	} {
		out, cands := CompleteSlashLine(tc.in, cmds...)
		if out != tc.out || !reflect.DeepEqual(cands, tc.cands) {
			t.Errorf("%q: %q %v, want %q %v", tc.in, out, cands, tc.out, tc.cands)
		}
	}
}

// Custom commands are in /help with their source, Tab completes them,
// and Enter sends the expansion with the line typed; a command that
// clashes with quire's own is not there.
func TestCustomCommandsThroughTheLoop(t *testing.T) {
	s := newOpSession()
	tt := startLoopOn(t, apptest.NewTerminal(120, 40), s, Options{Commands: testCommands()})
	tt.Type("/help", term.KeyEnter)
	waitScreen(t, tt, "Custom commands")
	screen := tt.Screen()
	for _, want := range []string{"/review     FILE", "Review a file (project)", "/review-pr", "Review the open PR (user)"} {
		if !strings.Contains(screen, want) {
			t.Errorf("/help lacks %q:\n%s", want, screen)
		}
	}
	if strings.Contains(screen, "my help") {
		t.Errorf("the clashing /help is listed:\n%s", screen)
	}
	tt.Type("x") // closes the overlay
	tt.Type("/rev", term.KeyTab)
	waitScreen(t, tt, "› /review")
	tt.Send(term.KeyEvent{Key: term.KeyTab})
	waitScreen(t, tt, "/review  /review-pr")
	tt.Type(" main.go", term.KeyEnter)
	waitFor(t, "the command's prompt", func() bool { return len(s.sent()) == 1 })
	if got := s.sent(); got[0] != "/review main.go => Review main.go carefully." {
		t.Fatalf("sent %q", got)
	}
	// The line typed is what the history brings back.
	tt.Send(term.KeyEvent{Key: term.KeyUp})
	waitScreen(t, tt, "› /review main.go")
}

// Prompts typed after a command that is still expanding wait for it, so
// the session gets them in the order typed; a failed expansion is shown
// and sends nothing.
func TestCommandExpansionKeepsOrder(t *testing.T) {
	gate := make(chan struct{})
	cmds := []Command{
		{Name: "slow", Expand: func(ctx context.Context, args string) (string, error) {
			select {
			case <-gate:
				return "slow " + args, nil
			case <-ctx.Done():
				return "", ctx.Err()
			}
		}},
		{Name: "gone", Expand: func(context.Context, string) (string, error) { return "", errors.New("the server went away") }},
		{Name: "broken", Expand: func(context.Context, string) (string, error) {
			return "", errors.New("/broken: .quire/commands/broken.md: no such file")
		}},
	}
	s := newOpSession()
	tt := startLoop(t, s, Options{Commands: cmds})
	tt.Type("/slow one", term.KeyEnter)
	tt.Type("then this", term.KeyEnter)
	tt.Type("/broken", term.KeyEnter)
	tt.Type("and this", term.KeyEnter)
	time.Sleep(50 * time.Millisecond)
	if got := s.sent(); len(got) != 0 {
		t.Fatalf("sent before the expansion: %q", got)
	}
	close(gate)
	waitFor(t, "the prompts", func() bool { return len(s.sent()) == 3 })
	if got, want := s.sent(), []string{"/slow one => slow one", "then this", "and this"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("sent %q, want %q", got, want)
	}
	waitScreen(t, tt, "no such file (↑ brings the command back)")
	tt.Type("/gone", term.KeyEnter)
	waitScreen(t, tt, "/gone: the server went away (↑ brings the command back)")
}

func TestSkillsOverlay(t *testing.T) {
	s := newOpSession()
	skills := []SkillInfo{
		{Name: "pdf", Description: "Extract text from PDFs.", Source: "project", Path: ".quire/skills/pdf/SKILL.md", Shadows: []string{"user ~/.config/quire/skills/pdf/SKILL.md"}},
		{Name: "quire-extensions", Description: "How to write skills.", Source: "built-in", Path: "built into quire"},
	}
	tt := startLoopOn(t, apptest.NewTerminal(120, 30), s, Options{Skills: skills})
	tt.Type("/skills", term.KeyEnter)
	waitScreen(t, tt, "Skills (the model loads")
	screen := tt.Screen()
	for _, want := range []string{
		"pdf                      project    .quire/skills/pdf/SKILL.md",
		"  Extract text from PDFs.",
		"  shadows user ~/.config/quire/skills/pdf/SKILL.md",
		"quire-extensions         built-in   built into quire",
	} {
		if !strings.Contains(screen, want) {
			t.Errorf("/skills lacks %q:\n%s", want, screen)
		}
	}
	tt.Type("x")
	tt2 := startLoop(t, newOpSession(), Options{})
	tt2.Type("/skills", term.KeyEnter)
	waitScreen(t, tt2, "No skills.")
}

// A replay sends nothing, custom commands included.
func TestReplayRefusesCustomCommands(t *testing.T) {
	tr := NewTranscript("dark", "", 80, 20)
	m := NewModel(tr, nil, Status{Replay: true}, true)
	m.SetExtensions(testCommands(), nil)
	m.focus = focusPrompt
	m.editor.SetText("/review x")
	effects := m.submit(t0)
	for _, e := range effects {
		if _, ok := e.(CommandEffect); ok {
			t.Fatalf("a replay ran a command: %+v", effects)
		}
	}
	if !strings.Contains(m.notice, "this is a replay") {
		t.Fatalf("notice %q", m.notice)
	}
}

// updatingSession sends new command lists while it runs, as a session
// whose MCP server connects late would.
type updatingSession struct {
	*opSession
	updates chan []Command
}

func (s updatingSession) CommandUpdates() <-chan []Command { return s.updates }

func TestCommandListsArriveWhileRunning(t *testing.T) {
	s := updatingSession{newOpSession(), make(chan []Command, 1)}
	tt := startLoop(t, s, Options{Commands: testCommands()[:1]})
	s.updates <- append(testCommands()[:1], Command{Name: "late", Summary: "arrived late", Source: "mcp srv", Expand: expandWith("late $ARGUMENTS")})
	waitFor(t, "the update", func() bool { return len(s.updates) == 0 })
	tt.Type("/la", term.KeyTab)
	waitScreen(t, tt, "› /late")
	tt.Type("x", term.KeyEnter)
	waitFor(t, "the late command's prompt", func() bool { return len(s.sent()) == 1 })
	if got := s.sent()[0]; got != "/late x => late x" {
		t.Fatalf("sent %q", got)
	}
	close(s.updates)
	tt.Type("/review a", term.KeyEnter)
	waitFor(t, "the first command's prompt", func() bool { return len(s.sent()) == 2 })
}
