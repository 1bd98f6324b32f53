package demo

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quire-sh/quire/config"
	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/sandbox"
)

func TestMain(m *testing.M) {
	sandbox.MaybeLaunch()
	os.Exit(m.Run())
}

// The demo is a real session in a copy of the sample project: approving
// its edit fixes the file, and nothing is stored.
func TestDemoFixesTheSampleProject(t *testing.T) {
	t.Setenv("QUIRE_HOME", t.TempDir())
	cfg := &config.Config{Model: "ignored", Approval: "ask", Sandbox: "off", ContextWindow: 128000, RetentionDays: 30}
	d, err := Open(Options{Config: cfg, Pace: time.Microsecond})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	opt := d.AppOptions()
	if opt.Prompt != Prompt || !opt.Status.Demo || opt.Cwd == "" {
		t.Fatalf("app options %+v", opt)
	}
	d.Session.Submit(opt.Prompt)
	deadline := time.After(20 * time.Second)
	for {
		select {
		case e := <-d.Session.Events():
			switch {
			case e.Kind == event.ApprovalRequested && e.Approval.Tool == "edit_file":
				d.Session.Answer(e.Approval.CallID, event.Approve, "")
			case e.Kind == event.ApprovalRequested:
				d.Session.Answer(e.Approval.CallID, event.Deny, "not in a test")
			case e.Kind == event.TurnEnded:
				b, err := os.ReadFile(filepath.Join(opt.Cwd, "greet.go"))
				if err != nil || !strings.Contains(string(b), `"Hello, %s!", name)`) {
					t.Fatalf("greet.go after the demo: %q, %v", b, err)
				}
				d.Close()
				if _, err := os.Stat(opt.Cwd); err == nil {
					t.Fatal("the demo project was left behind")
				}
				if entries, _ := os.ReadDir(filepath.Join(os.Getenv("QUIRE_HOME"), "sessions")); len(entries) != 0 {
					t.Fatalf("the demo stored sessions: %v", entries)
				}
				return
			}
		case <-deadline:
			t.Fatal("the demo's turn never ended")
		}
	}
}
