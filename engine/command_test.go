package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/testserver"
)

// A prompt from a custom /command: the model receives the expansion, the
// log keeps what was typed beside it, and a resumed history is the
// expansion again.
func TestCommandPromptKeepsWhatWasTyped(t *testing.T) {
	h := newHarness(t, testserver.Script{Responses: []testserver.Response{testserver.Text("1"), testserver.Text("2")}}, nil)
	h.s.SubmitCommand("/review a.go", "Review a.go carefully.")
	h.s.Submit("plain")
	h.turnEnd(2)
	reqs := h.srv.Requests()
	if got := reqs[0].LastMessage().Content; got != "Review a.go carefully." {
		t.Fatalf("the model received %q", got)
	}
	users := ofKind(h.rec.snapshot(), event.UserMessage)
	if len(users) != 2 || users[0].Command != "/review a.go" || users[0].Text != "Review a.go carefully." || users[1].Command != "" || users[1].Text != "plain" {
		t.Fatalf("recorded %+v", users)
	}
	cfg := baseConfig(t, h.srv.URL())
	s, err := Resume(cfg, h.rec.snapshot())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	go func() {
		for range s.Events() {
		}
	}()
	hist := s.History()
	if len(hist) == 0 || hist[0].Content != "Review a.go carefully." {
		t.Fatalf("resumed history %+v", hist)
	}
}

// Instructions go into the system prompt after the environment and
// before AGENTS.md; notices are warnings right after SessionStarted.
func TestInstructionsAndNotices(t *testing.T) {
	var dir string
	h := newHarness(t, testserver.Script{Responses: []testserver.Response{testserver.Text("ok")}}, func(c *Config) {
		c.Instructions = []string{"# Skills\n\n- pdf: Read PDFs.\n", "  "}
		c.Notices = []Notice{{Level: "warn", Text: "x/SKILL.md: broken; the skill is skipped"}}
		dir = c.Env.Dir
		os.WriteFile(filepath.Join(dir, "AGENTS.md"), []byte("be terse"), 0o644)
	})
	h.s.Submit("hi")
	h.turnEnd(1)
	evs := h.all()
	if evs[0].Kind != event.SessionStarted || evs[1].Kind != event.Notice || evs[1].Level != "warn" || evs[1].Text != "x/SKILL.md: broken; the skill is skipped" {
		t.Fatalf("first events %s", dump(evs[:2]))
	}
	sys := h.srv.Requests()[0].Messages[0]
	env, skills, agents := strings.Index(sys.Content, "# Environment"), strings.Index(sys.Content, "# Skills\n\n- pdf: Read PDFs.\n"), strings.Index(sys.Content, "be terse")
	if sys.Role != "system" || env < 0 || skills < env || agents < skills {
		t.Fatalf("system prompt order: environment %d, skills %d, AGENTS.md %d\n%s", env, skills, agents, sys.Content)
	}
}
