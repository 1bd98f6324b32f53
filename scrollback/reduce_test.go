package scrollback

import (
	"slices"
	"strings"
	"testing"

	"github.com/quire-sh/quire/engine/event"
)

func TestReduceToolCallWithApprovalAndStreamedOutput(t *testing.T) {
	s := (&script{}).prompt("list the files")
	s.add(event.Event{Kind: event.ReasoningDelta, Text: "The user wants "})
	s.add(event.Event{Kind: event.ReasoningDelta, Text: "a listing."})
	s.add(event.Event{Kind: event.AssistantDelta, Text: "Let me "})
	s.add(event.Event{Kind: event.AssistantDelta, Text: "look."})
	s.add(event.Event{Kind: event.AssistantMessage, Text: "Let me look.", Calls: []event.ToolCall{{ID: "c1", Name: "shell"}}})
	s.call("c1", "shell", "execute", "ls -1")
	s.add(event.Event{Kind: event.ApprovalRequested, Approval: &event.Approval{CallID: "c1", Tool: "shell", Target: "ls -1", Preview: "ls -1"}})

	tr := newTranscript(40, 14, s.evs...)
	tool, _ := tr.Block(tr.At(3).ID()).Tool()
	if tool.State != ToolAwaiting {
		t.Fatalf("tool state %d, want awaiting approval", tool.State)
	}
	s.evs = s.evs[:0]
	s.add(event.Event{Kind: event.ApprovalAnswered, Approval: &event.Approval{CallID: "c1", Decision: event.Approve}})
	s.output("c1", "a.go\nb.g")
	s.output("c1", "o\n\x1b[31mc.go\x1b[0m\n")
	code := 0
	s.add(event.Event{Kind: event.ToolFinished, Result: &event.ToolResult{CallID: "c1", Status: event.ToolOK, Output: "a.go\nb.go\nc.go\n", ExitCode: &code, DurationMS: 1500}})
	s.say("Three files.")
	s.end(event.TurnCompleted)
	for _, e := range s.evs {
		tr.Apply(e)
	}

	if got, want := blockKinds(tr), []string{"prompt", "reasoning", "assistant", "tool", "assistant"}; !slices.Equal(got, want) {
		t.Fatalf("blocks %v, want %v", got, want)
	}
	for i := 0; i < tr.Len(); i++ {
		if !tr.At(i).Finished() {
			t.Fatalf("block %d (%s) not finished after the turn ended", i, tr.At(i).Kind())
		}
	}
	if !tr.At(1).Collapsed() {
		t.Fatal("reasoning should be collapsed by default")
	}
	requireScreen(t, tr.Frame(),
		"",
		"› list the files",
		"",
		"▸ Thinking · 1 line",
		"",
		"Let me look.",
		"",
		"✓ shell ls -1  1.5s",
		"  │ a.go",
		"  │ b.go",
		"  │ c.go",
		"",
		"Three files.",
		"",
	)
	if tr.Streaming() {
		t.Fatal("transcript still streaming after turn_ended")
	}
	if tr.Turns() != 1 || tr.TurnNumber(0) != 1 || tr.TurnPrompt(0) != tr.At(0).ID() {
		t.Fatalf("turns: %d, number %d", tr.Turns(), tr.TurnNumber(0))
	}
}

func TestReduceDeniedCancelledAndFailed(t *testing.T) {
	s := (&script{}).prompt("edit it")
	s.call("c1", "edit", "edit", "main.go")
	s.add(event.Event{Kind: event.ApprovalRequested, Approval: &event.Approval{CallID: "c1", Tool: "edit", Target: "main.go"}})
	s.add(event.Event{Kind: event.ApprovalAnswered, Approval: &event.Approval{CallID: "c1", Decision: event.Deny, Reason: "not that file"}})
	s.result("c1", event.ToolDenied, "the user denied this call", 0)
	s.call("c2", "shell", "execute", "sleep 100")
	s.output("c2", "waiting…\n")
	s.end(event.TurnCancelled)
	s.prompt("try again")
	s.add(event.Event{Kind: event.AssistantDelta, Text: "Half an ans"})
	s.add(event.Event{Kind: event.Error, Text: "stream broke: connection reset"})
	s.add(event.Event{Kind: event.TurnEnded, End: &event.TurnEnd{State: event.TurnFailed, Error: "the endpoint returned 500 three times"}})

	tr := newTranscript(50, 30, s.evs...)
	want := []string{"prompt", "tool", "tool", "notice", "prompt", "assistant", "error", "error"}
	if got := blockKinds(tr); !slices.Equal(got, want) {
		t.Fatalf("blocks %v, want %v", got, want)
	}
	if tool, _ := tr.At(1).Tool(); tool.State != ToolDenied || tool.Reason != "not that file" {
		t.Fatalf("first call: %+v", tool)
	}
	if tool, _ := tr.At(2).Tool(); tool.State != ToolCancelled {
		t.Fatalf("second call should be cancelled by the cancelled turn, got %d", tool.State)
	}
	if !tr.At(5).Finished() || tr.At(5).Source() != "Half an ans" {
		t.Fatal("an error must finish the partial answer and keep its text")
	}
	got := strings.Join(screen(tr.Frame()), "\n")
	for _, want := range []string{
		"⊘ edit main.go  denied", "  │ “not that file”",
		"⊘ shell sleep 100  cancelled", "  │ waiting…",
		"• Turn cancelled",
		"✗ stream broke: connection reset", "✗ the endpoint returned 500 three times",
	} {
		if !strings.Contains(got, want) {
			t.Fatalf("screen lacks %q:\n%s", want, got)
		}
	}
}

func TestReduceRecoversDroppedDeltasAndFilesLink(t *testing.T) {
	s := (&script{}).prompt("hi")
	s.add(event.Event{Kind: event.SessionStarted, Session: &event.SessionInfo{Cwd: "/srv/repo"}})
	s.add(event.Event{Kind: event.AssistantDelta, Text: "Hello"})
	s.add(event.Event{Kind: event.AssistantMessage, Text: "Hello there."})
	s.call("c1", "read", "read", "pkg/a.go")
	s.result("c1", event.ToolOK, "package a\n", 3)
	tr := newTranscript(40, 10, s.evs...)
	if got := tr.At(1).Source(); got != "Hello there." {
		t.Fatalf("answer %q, want the message's full text", got)
	}
	f := tr.Frame()
	var link string
	for _, l := range f.Lines {
		for _, sp := range l.Spans {
			if sp.Link != "" {
				link = sp.Link
			}
		}
	}
	if link != "file:///srv/repo/pkg/a.go" {
		t.Fatalf("file link %q", link)
	}
}

func TestReduceDiffWithLineNumbers(t *testing.T) {
	diff := "--- a/x.go\n+++ b/x.go\n@@ -8,3 +8,3 @@\n ctx\n-old line\n+new line\n tail\n"
	s := (&script{}).prompt("fix")
	s.call("c1", "edit", "edit", "x.go")
	s.add(event.Event{Kind: event.ToolFinished, Result: &event.ToolResult{CallID: "c1", Status: event.ToolOK, Output: "ok", Diff: diff, DurationMS: 40}})
	tr := newTranscript(40, 12, s.evs...)
	requireScreen(t, tr.Frame(),
		"",
		"› fix",
		"",
		"✓ edit x.go  40ms",
		"  │ @@ -8,3 +8,3 @@",
		"  │  8   ctx",
		"  │  9 - old line",
		"  │  9 + new line",
		"  │ 10   tail",
		"", "", "",
	)
	if src, _ := tr.CopyBlock(tr.At(1).ID()); src != diff {
		t.Fatalf("copying an edit gives its diff, got %q", src)
	}
}

// TestIDsNeverReused is tui.md §25 item 21.
func TestIDsNeverReused(t *testing.T) {
	tr := New(Options{Width: 20, Height: 5})
	for i := 0; i < 3; i++ {
		tr.Apply(event.Event{Kind: event.Notice, Text: "n"})
	}
	if tr.At(2).ID() != 3 {
		t.Fatalf("third id %d", tr.At(2).ID())
	}
	tr.Clear()
	tr.Apply(event.Event{Kind: event.Notice, Text: "after clear"})
	if tr.Len() != 1 || tr.At(0).ID() != 4 {
		t.Fatalf("after Clear the new block has id %d, want 4", tr.At(0).ID())
	}
	if tr.Block(1) != nil {
		t.Fatal("a cleared id still resolves")
	}
}

func TestLongToolOutputFoldsAndUnfolds(t *testing.T) {
	var out strings.Builder
	for i := 1; i <= 30; i++ {
		out.WriteString("line ")
		out.WriteString(strings.Repeat("x", i%5))
		out.WriteByte('\n')
	}
	s := (&script{}).prompt("run")
	s.call("c1", "shell", "execute", "make")
	s.output("c1", out.String())
	s.result("c1", event.ToolOK, "", 10)
	tr := New(Options{Width: 40, Height: 40, FoldLines: 5})
	for _, e := range s.evs {
		tr.Apply(e)
	}
	got := screen(tr.Frame())
	if got[8] != "  │ line" || got[9] != "  … 25 more lines" {
		t.Fatalf("folded tool body:\n%s", strings.Join(got, "\n"))
	}
	tr.Focus(tr.At(1).ID())
	tr.ToggleCollapse() // open → fully open
	if got := screen(tr.Frame()); got[33] != "  │ line" || strings.Contains(strings.Join(got, "\n"), "more lines") {
		t.Fatalf("unfolded tool body:\n%s", strings.Join(got, "\n"))
	}
	tr.ToggleCollapse() // fully open → collapsed
	if got := screen(tr.Frame()); got[3] != "✓ shell make  10ms ▸ 30 lines" || got[4] != "" {
		t.Fatalf("collapsed tool:\n%s", strings.Join(got, "\n"))
	}
}

// A prompt from a custom /command shows the line typed, the expansion
// the model received folded below it; unfolding shows it.
func TestReduceCommandPromptShowsWhatWasTyped(t *testing.T) {
	s := &script{turn: 1}
	s.add(event.Event{Kind: event.UserMessage, Text: "You review code.\nReview a.go.", Command: "/review a.go"})
	s.add(event.Event{Kind: event.TurnStarted})
	s.say("Looks fine.")
	s.end(event.TurnCompleted)
	tr := newTranscript(40, 8, s.evs...)
	requireScreen(t, tr.Frame(),
		"",
		"› /review a.go",
		"  ▸ 2 more lines",
		"",
		"Looks fine.",
		"", "", "")
	tr.SetCollapsed(tr.At(0).ID(), false)
	requireScreen(t, tr.Frame(),
		"",
		"› /review a.go",
		"  You review code.",
		"  Review a.go.",
		"",
		"Looks fine.",
		"", "")
}
