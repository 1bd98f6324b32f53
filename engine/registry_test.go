package engine

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/testserver"
	"github.com/quire-sh/quire/tools"
)

func sentTools(r testserver.Request) []string {
	var out []string
	for _, t := range r.Tools {
		out = append(out, t.Function.Name)
	}
	return out
}

// A tool that joins the registry between two requests is offered on the
// next one, and one that leaves is not; the system prompt, which lists
// only the tools every session has, does not change.
func TestToolListChangesBetweenRequests(t *testing.T) {
	var reg *tools.Registry
	h := newHarness(t, testserver.Script{Responses: []testserver.Response{
		testserver.Text("one"), testserver.Text("two"), testserver.Text("three"),
	}}, func(c *Config) { reg = c.Tools })
	h.s.Submit("first")
	h.turnEnd(1)
	reg.SetGroup("srv", []tools.Tool{&fakeTool{name: "mcp__srv__look", kind: tools.KindOther, writes: true}})
	h.s.Submit("second")
	h.turnEnd(2)
	reg.SetGroup("srv", nil)
	h.s.Submit("third")
	h.turnEnd(3)
	reqs := h.srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	want := [][]string{{"read", "write"}, {"mcp__srv__look", "read", "write"}, {"read", "write"}}
	for i, r := range reqs {
		if got := sentTools(r); !slices.Equal(got, want[i]) {
			t.Errorf("request %d offered %v, want %v", i+1, got, want[i])
		}
	}
	if reqs[0].Messages[0].Content != reqs[1].Messages[0].Content || strings.Contains(reqs[1].Messages[0].Content, "- mcp__srv__look") {
		t.Error("the system prompt changed with the tool list")
	}
}

// A request waits for tools still starting, so the first prompt of a
// session whose servers connect in the background sees their tools.
func TestRequestWaitsForStartingTools(t *testing.T) {
	var reg *tools.Registry
	h := newHarness(t, testserver.Script{Responses: []testserver.Response{testserver.Text("ok")}}, func(c *Config) {
		reg = c.Tools
		reg.Starting("srv")
	})
	h.s.Submit("go")
	time.Sleep(50 * time.Millisecond)
	if n := len(h.srv.Requests()); n != 0 {
		t.Fatalf("%d requests sent while a source was starting", n)
	}
	reg.SetGroup("srv", []tools.Tool{&fakeTool{name: "mcp__srv__late", kind: tools.KindOther}})
	h.turnEnd(1)
	if got := sentTools(h.srv.Requests()[0]); !slices.Contains(got, "mcp__srv__late") {
		t.Fatalf("offered %v", got)
	}
}

// Esc ends the wait for starting tools.
func TestCancelEndsTheWaitForTools(t *testing.T) {
	h := newHarness(t, testserver.Script{Responses: []testserver.Response{testserver.Text("ok")}}, func(c *Config) {
		c.Tools.Starting("srv")
	})
	h.s.Submit("go")
	h.waitFor("turn start", func(e event.Event) bool { return e.Kind == event.TurnStarted })
	h.s.Cancel()
	if end := h.turnEnd(1); end.State != event.TurnCancelled {
		t.Fatalf("end %+v", end)
	}
}

// Notify puts a notice into the transcript and the log.
func TestNotify(t *testing.T) {
	h := newHarness(t, testserver.Script{}, nil)
	h.s.Notify("warn", "mcp server x stopped")
	e := h.waitFor("the notice", func(e event.Event) bool { return e.Kind == event.Notice })
	if e.Level != "warn" || e.Text != "mcp server x stopped" {
		t.Fatalf("notice %+v", e)
	}
	time.Sleep(10 * time.Millisecond)
	if got := ofKind(h.rec.snapshot(), event.Notice); len(got) != 1 {
		t.Fatalf("recorded %d notices", len(got))
	}
}

// A session that may start subagents offers the task tool beside the
// registry's tools of the moment, and its system prompt lists task with
// the built-ins but none of the tools that come and go.
func TestTaskToolBesideChangingTools(t *testing.T) {
	var reg *tools.Registry
	h := newHarness(t, testserver.Script{Responses: []testserver.Response{
		testserver.Text("one"), testserver.Text("two"),
	}}, func(c *Config) { reg = c.Tools; c.Subagents = &fakeSpawner{} })
	h.s.Submit("first")
	h.turnEnd(1)
	reg.SetGroup("srv", []tools.Tool{&fakeTool{name: "mcp__srv__look", kind: tools.KindOther, writes: true}})
	h.s.Submit("second")
	h.turnEnd(2)
	reqs := h.srv.Requests()
	want := [][]string{{"read", TaskTool, "write"}, {"mcp__srv__look", "read", TaskTool, "write"}}
	for i, r := range reqs {
		if got := sentTools(r); !slices.Equal(got, want[i]) {
			t.Errorf("request %d offered %v, want %v", i+1, got, want[i])
		}
	}
	system := reqs[1].Messages[0].Content
	if !strings.Contains(system, "- "+TaskTool+":") || strings.Contains(system, "- mcp__srv__look") {
		t.Errorf("the system prompt's tools:\n%s", system)
	}
}

// A child's tools are narrowed from the parent's registry as it is when
// the call is planned: a server's tools while it offers them, none once
// it took them away.
func TestNarrowToolsFollowsTheRegistry(t *testing.T) {
	parent := tools.NewRegistry(&fakeTool{name: "read_file"})
	names := func() []string {
		reg, warns := narrowTools(parent, []string{"read_file", "mcp__srv__*"})
		if len(warns) != 0 {
			t.Errorf("warnings %q", warns)
		}
		var out []string
		for _, sp := range reg.Specs() {
			out = append(out, sp.Name)
		}
		return out
	}
	parent.SetGroup("mcp:srv", []tools.Tool{&fakeTool{name: "mcp__srv__look", writes: true}})
	if got := names(); !slices.Equal(got, []string{"mcp__srv__look", "read_file"}) {
		t.Errorf("while the server offers its tools: %v", got)
	}
	parent.SetGroup("mcp:srv", nil)
	if got := names(); !slices.Equal(got, []string{"read_file"}) {
		t.Errorf("after it took them away: %v", got)
	}
}
