package scrollback

import (
	"strings"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/event"
)

// subagentScript is a parent turn whose task call runs a child: started,
// two tool calls, an approval asked through the parent, then done. Times
// advance a second per event, as a live run's would.
func subagentScript(report string, end event.SubagentState) *script {
	s := (&script{}).prompt("look into the config")
	s.call("t1", "task", "other", "Find the config loader")
	up := func(u event.Subagent) {
		u.Agent, u.Description, u.Session = "explorer", "Find the config loader", "20261201-100000-abcdef"
		s.add(event.Event{Kind: event.SubagentUpdate, CallID: "t1", Subagent: &u})
	}
	up(event.Subagent{State: event.SubagentStarted})
	up(event.Subagent{State: event.SubagentRunning, Tool: "grep", Target: "LoadConfig", Calls: 1})
	up(event.Subagent{State: event.SubagentRunning, Tool: "read_file", Target: "config/load.go", Calls: 2})
	if end != "" {
		up(event.Subagent{State: end, Calls: 2, Usage: &event.Usage{TotalTokens: 3210}})
		status := event.ToolOK
		if end != event.SubagentCompleted {
			status = event.ToolError
		}
		s.result("t1", status, report, 12_500)
	}
	for i := range s.evs {
		s.evs[i].Time = time.Date(2026, 12, 1, 10, 0, i, 0, time.UTC)
	}
	return s
}

func TestSubagentBlockShowsProgressThenItsReport(t *testing.T) {
	s := subagentScript("", "")
	tr := newTranscript(70, 12, s.evs...)
	if got := blockKinds(tr); strings.Join(got, " ") != "prompt subagent" {
		t.Fatalf("blocks %v", got)
	}
	requireScreen(t, tr.Frame(),
		"",
		"› look into the config",
		"",
		"● explorer Find the config loader  running · 2 calls · 2s",
		"  │ → read_file config/load.go",
		"", "", "", "", "", "", "")
	// An approval the child waits for shows in its block, not as a block
	// of its own.
	s.add(event.Event{Kind: event.ApprovalRequested, CallID: "t1/w1", Time: s.evs[len(s.evs)-1].Time,
		Approval: &event.Approval{CallID: "t1/w1", Tool: "write_file", Target: "notes.txt", Subagent: "t1", Agent: "explorer"}})
	tr.Apply(s.evs[len(s.evs)-1])
	if got := screen(tr.Frame()); got[3] != "? explorer Find the config loader  awaiting approval · 2 calls · 2s" || got[4] != "  │ asks to run write_file notes.txt" {
		t.Fatalf("asking:\n%s", dump(tr.Frame()))
	}
	s.add(event.Event{Kind: event.ApprovalAnswered, CallID: "t1/w1", Approval: &event.Approval{CallID: "t1/w1", Decision: event.Approve, Subagent: "t1"}})
	tr.Apply(s.evs[len(s.evs)-1])
	if got := screen(tr.Frame()); got[4] != "  │ → read_file config/load.go" || tr.Len() != 2 {
		t.Fatalf("after the answer:\n%s", dump(tr.Frame()))
	}

	done := subagentScript("The loader is **config/load.go**, line 42.\n", event.SubagentCompleted)
	tr = newTranscript(70, 12, done.evs...)
	requireScreen(t, tr.Frame(),
		"",
		"› look into the config",
		"",
		"✓ explorer Find the config loader  2 calls · 12.5s · 3.2k tokens",
		"  │ The loader is **config/load.go**, line 42.",
		"", "", "", "", "", "", "")
	if text, _ := tr.CopyBlock(tr.At(1).ID()); text != "The loader is **config/load.go**, line 42.\n" {
		t.Fatalf("copy gives %q, want the report", text)
	}
}

// A long report folds like a tool's output: o cycles folded → open →
// collapsed, and O and E collapse and open every block.
func TestSubagentReportFolds(t *testing.T) {
	var report strings.Builder
	for i := 1; i <= 20; i++ {
		report.WriteString("finding\n\n")
	}
	s := subagentScript(report.String(), event.SubagentCompleted)
	tr := New(Options{Width: 90, Height: 60, FoldLines: 5})
	for _, e := range s.evs {
		tr.Apply(e)
	}
	got := screen(tr.Frame())
	if got[8] != "  │ finding" || !strings.HasPrefix(got[9], "  … ") {
		t.Fatalf("folded report:\n%s", dump(tr.Frame()))
	}
	tr.Focus(tr.At(1).ID())
	tr.ToggleCollapse()
	if strings.Contains(strings.Join(screen(tr.Frame()), "\n"), "more lines") {
		t.Fatalf("open report still folded:\n%s", dump(tr.Frame()))
	}
	tr.ToggleCollapse()
	if got := screen(tr.Frame()); !strings.HasPrefix(got[3], "✓ explorer Find the config loader") || !strings.Contains(got[3], "▸") || got[4] != "" {
		t.Fatalf("collapsed:\n%s", dump(tr.Frame()))
	}
	tr.Do(ActExpandAll, 0)
	if strings.Contains(strings.Join(screen(tr.Frame()), "\n"), "more lines") {
		t.Fatalf("E left the report folded:\n%s", dump(tr.Frame()))
	}
	tr.Do(ActCollapseAll, 0)
	if got := screen(tr.Frame()); got[4] != "" {
		t.Fatalf("O left the report open:\n%s", dump(tr.Frame()))
	}
}

func TestSubagentFailedAndCancelled(t *testing.T) {
	s := subagentScript("error: the subagent failed: the model refused", event.SubagentFailed)
	tr := newTranscript(80, 8, s.evs...)
	if got := screen(tr.Frame()); got[3] != "✗ explorer Find the config loader  failed · 2 calls · 12.5s · 3.2k tokens" || got[4] != "  │ error: the subagent failed: the model refused" {
		t.Fatalf("failed:\n%s", dump(tr.Frame()))
	}
	// A turn cancelled while the child ran ends its block cancelled.
	s = subagentScript("", "")
	s.end(event.TurnCancelled)
	tr = newTranscript(80, 8, s.evs...)
	if got := screen(tr.Frame()); !strings.HasPrefix(got[3], "⊘ explorer Find the config loader  cancelled · 2 calls") {
		t.Fatalf("cancelled:\n%s", dump(tr.Frame()))
	}
}

// The block is a pure function of the events: a replay at another width
// is a re-layout, and the same events give the same screen.
func TestSubagentBlockReplays(t *testing.T) {
	s := subagentScript("Report.\n", event.SubagentCompleted)
	a := newTranscript(50, 10, s.evs...)
	b := newTranscript(90, 10, s.evs...)
	b.Resize(50, 10)
	if strings.Join(screen(a.Frame()), "\n") != strings.Join(screen(b.Frame()), "\n") {
		t.Fatalf("replays differ:\n%s\n%s", dump(a.Frame()), dump(b.Frame()))
	}
	// The filter finds it by its agent.
	a.SetFilter("explorer")
	if got := screen(a.Frame()); !strings.Contains(strings.Join(got, "\n"), "explorer") {
		t.Fatalf("filter by agent hid the block:\n%s", dump(a.Frame()))
	}
}

// Progress changes the block in place: each update lays out that block
// again, never the transcript.
func TestSubagentProgressIsCheap(t *testing.T) {
	s := longTranscript(300)
	s.prompt("now the task")
	s.call("t1", "task", "other", "Look")
	tr := newTranscript(80, 20, s.evs...)
	tr.Frame()
	before := tr.LayoutStats()
	for i := 1; i <= 100; i++ {
		tr.Apply(event.Event{Kind: event.SubagentUpdate, CallID: "t1", Subagent: &event.Subagent{State: event.SubagentRunning, Tool: "grep", Calls: i}})
		tr.Frame()
	}
	after := tr.LayoutStats()
	if after.Rebuilds != before.Rebuilds || after.Measures-before.Measures > 2*100+20 {
		t.Fatalf("100 updates cost %d rebuilds and %d measures", after.Rebuilds-before.Rebuilds, after.Measures-before.Measures)
	}
}

// A live session's clock moves a running subagent's time; only a change
// of the whole seconds shown lays the block out again, and a finished
// block keeps its call's duration.
func TestSubagentRunningTimeTicks(t *testing.T) {
	s := subagentScript("", "")
	tr := newTranscript(70, 12, s.evs...)
	start := s.evs[3].Time // the first update
	tr.Frame()
	if !tr.SetNow(start.Add(75 * time.Second)) {
		t.Fatal("SetNow did not report the running time it changed")
	}
	if got := screen(tr.Frame())[3]; got != "● explorer Find the config loader  running · 2 calls · 1m15s" {
		t.Fatalf("after 75 s: %q", got)
	}
	before := tr.LayoutStats().Measures
	if tr.SetNow(start.Add(75*time.Second + 300*time.Millisecond)) {
		t.Fatal("SetNow reported a change within the same second")
	}
	tr.Frame()
	if n := tr.LayoutStats().Measures - before; n != 0 {
		t.Fatalf("a tick within the same second laid out %d blocks", n)
	}
	tr.SetNow(start.Add(time.Hour)) // the clock of a later moment
	s.add(event.Event{Kind: event.ToolFinished, Result: &event.ToolResult{CallID: "t1", Status: event.ToolOK, Output: "ok", DurationMS: 9000}})
	tr.Apply(s.evs[len(s.evs)-1])
	if got := screen(tr.Frame())[3]; got != "✓ explorer Find the config loader  2 calls · 9.0s" {
		t.Fatalf("finished: %q", got)
	}
}
