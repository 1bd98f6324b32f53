package scrollback

import (
	"fmt"
	"strings"
	"testing"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/render"
	"pgregory.net/rapid"
)

// TestRandomSessionsKeepLayoutExact drives a transcript with random
// events, keys, searches, filters, folds and resizes, and checks after
// every frame that the screen is well formed and that every height the
// layout calls exact is the height the block really has.
func TestRandomSessionsKeepLayoutExact(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		w := rapid.IntRange(8, 50).Draw(rt, "width")
		h := rapid.IntRange(2, 12).Draw(rt, "height")
		tr := New(Options{Width: w, Height: h, FoldLines: 3})
		calls := 0
		steps := rapid.IntRange(1, 80).Draw(rt, "steps")
		for s := 0; s < steps; s++ {
			switch op := rapid.IntRange(0, 14).Draw(rt, "op"); op {
			case 0:
				tr.Apply(event.Event{Kind: event.UserMessage, Text: rapid.SampledFrom([]string{"hi", "a longer prompt that wraps over lines", ""}).Draw(rt, "prompt")})
			case 1, 2:
				tr.Apply(event.Event{Kind: event.AssistantDelta, Text: rapid.SampledFrom([]string{"word ", "line\n", "\n\n", "wide 世界 ", "needle "}).Draw(rt, "delta")})
			case 3:
				tr.Apply(event.Event{Kind: event.ReasoningDelta, Text: "hmm\n"})
			case 4:
				calls++
				tr.Apply(event.Event{Kind: event.ToolCallRequested, Call: &event.ToolCall{ID: fmt.Sprint(calls), Name: "shell", Target: "make"}})
			case 5:
				tr.Apply(event.Event{Kind: event.ToolOutputDelta, CallID: fmt.Sprint(calls), Text: "out needle\n"})
			case 6:
				tr.Apply(event.Event{Kind: event.ToolFinished, Result: &event.ToolResult{CallID: fmt.Sprint(calls), Status: event.ToolOK}})
			case 7:
				tr.Apply(event.Event{Kind: event.TurnEnded, End: &event.TurnEnd{State: rapid.SampledFrom([]event.TurnState{event.TurnCompleted, event.TurnCancelled, event.TurnFailed}).Draw(rt, "end")}})
			case 8:
				tr.Do(Action(rapid.IntRange(int(ActLineDown), int(ActExpandAll)).Draw(rt, "action")), rapid.IntRange(0, 3).Draw(rt, "count"))
			case 9:
				tr.Resize(rapid.IntRange(8, 50).Draw(rt, "width"), rapid.IntRange(2, 12).Draw(rt, "height"))
			case 10:
				tr.SetFilter(rapid.SampledFrom([]string{"", "needle", "prompt", "zzz"}).Draw(rt, "filter"))
			case 11:
				tr.BeginSearch(rapid.Bool().Draw(rt, "back"))
				tr.SetSearchPattern(rapid.SampledFrom([]string{"needle", "o", "[", ""}).Draw(rt, "pattern"))
				if rapid.Bool().Draw(rt, "commit") {
					tr.CommitSearch()
				} else {
					tr.CancelSearch()
				}
			case 12:
				tr.Apply(event.Event{Kind: event.Notice, Text: "note"})
			case 13:
				tr.Prepend((&script{}).prompt("older").say("older answer with a needle").evs)
			case 14:
				tr.Clear()
			}
			checkFrame(rt, tr)
		}
	})
}

func checkFrame(rt *rapid.T, tr *Transcript) {
	f := tr.Frame()
	if len(f.Lines) != tr.Height() || len(f.Blocks) != tr.Height() {
		rt.Fatalf("frame has %d rows, height %d", len(f.Lines), tr.Height())
	}
	for r, l := range f.Lines {
		if l.Width() > tr.Width() {
			rt.Fatalf("row %d %q is wider than %d", r, l.Text(), tr.Width())
		}
	}
	p := f.Position
	if p.Top > p.Bottom || p.Bottom > p.Total || (p.Follow && p.Bottom != p.Total) {
		rt.Fatalf("position %+v", p)
	}
	for _, m := range f.Matches {
		if m.Row < f.Sticky || m.Row >= len(f.Lines) || m.Col+m.Width > f.Lines[m.Row].Width() {
			rt.Fatalf("match %+v outside its row", m)
		}
	}
	for i := 0; i < tr.Len(); i++ {
		if !tr.Measured(i) {
			continue
		}
		b := tr.At(i)
		if _, stale := tr.stale[b.id]; stale {
			continue // laid out again at the next frame
		}
		want := tr.peek(i).height()
		if b.hidden {
			want = 0
		}
		if got := tr.lay.Height(i); got != want {
			rt.Fatalf("block %d (%s, hidden %v) has exact height %d in the layout, really %d", i, b.kind, b.hidden, got, want)
		}
	}
	// The rows below the pinned prompt are consecutive lines of the
	// visible transcript, and a following view ends at its last line.
	var visible []string
	var l render.Line
	for i := 0; i < tr.Len(); i++ {
		if tr.At(i).hidden {
			continue
		}
		v := tr.peek(i)
		for y := 0; y < v.height(); y++ {
			v.line(y, &l)
			visible = append(visible, l.Text())
		}
	}
	var rows []string
	for r := f.Sticky; r < len(f.Lines) && f.Blocks[r] != 0; r++ {
		rows = append(rows, f.Lines[r].Text())
	}
	const sep = "\x00"
	all := sep + strings.Join(visible, sep) + sep
	if len(rows) > 0 && !strings.Contains(all, sep+strings.Join(rows, sep)+sep) {
		rt.Fatalf("screen rows are not consecutive transcript lines:\nrows %q\ntranscript %q", rows, visible)
	}
	if p.Follow && len(visible) >= tr.Height() && !strings.HasSuffix(all, sep+strings.Join(rows, sep)+sep) {
		rt.Fatalf("following, but the screen does not end at the last line:\nrows %q\ntranscript %q", rows, visible)
	}
	if st := fullSearch(tr); st.Current > st.Count {
		rt.Fatalf("search status %+v", st)
	}
}

// TestRandomInlineSessionsEmitEachLineOnce checks the inline view's
// bookkeeping on random event sequences and resizes: what TakeFinished
// (or ReflowEmitted after a resize) handed out, followed by the live
// lines, is always exactly the transcript.
func TestRandomInlineSessionsEmitEachLineOnce(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		tr := New(Options{Width: rapid.IntRange(6, 40).Draw(rt, "width"), Height: 6, FoldLines: 2})
		var emitted []string
		calls := 0
		steps := rapid.IntRange(1, 60).Draw(rt, "steps")
		for s := 0; s < steps; s++ {
			switch op := rapid.IntRange(0, 11).Draw(rt, "op"); op {
			case 0:
				tr.Apply(event.Event{Kind: event.UserMessage, Text: "a prompt long enough to wrap"})
			case 1, 2:
				tr.Apply(event.Event{Kind: event.AssistantDelta, Text: rapid.SampledFrom([]string{"word ", "line\n", "\n\n", "世界 ", "x"}).Draw(rt, "delta")})
			case 3:
				tr.Apply(event.Event{Kind: event.ReasoningDelta, Text: "hmm "})
			case 4:
				calls++
				tr.Apply(event.Event{Kind: event.ToolCallRequested, Call: &event.ToolCall{ID: fmt.Sprint(calls), Name: "edit", ToolKind: "edit", Target: "a.go"}})
			case 5:
				tr.Apply(event.Event{Kind: event.ApprovalRequested, Approval: &event.Approval{CallID: fmt.Sprint(calls), Tool: "edit"}})
			case 6:
				d := rapid.SampledFrom([]event.Decision{event.Approve, event.Deny}).Draw(rt, "decision")
				tr.Apply(event.Event{Kind: event.ApprovalAnswered, Approval: &event.Approval{CallID: fmt.Sprint(calls), Decision: d, Reason: "no"}})
			case 7:
				tr.Apply(event.Event{Kind: event.ToolOutputDelta, CallID: fmt.Sprint(calls), Text: "out\n"})
			case 8:
				st := rapid.SampledFrom([]event.ToolStatus{event.ToolOK, event.ToolError, event.ToolDenied}).Draw(rt, "status")
				tr.Apply(event.Event{Kind: event.ToolFinished, Result: &event.ToolResult{CallID: fmt.Sprint(calls), Status: st, DurationMS: 5, Diff: "@@ -1 +1 @@\n-a\n+b\n"}})
			case 9:
				tr.Apply(event.Event{Kind: event.TurnEnded, End: &event.TurnEnd{State: event.TurnCancelled}})
			case 10:
				tr.Apply(event.Event{Kind: event.AssistantMessage})
			case 11:
				tr.Resize(rapid.IntRange(6, 40).Draw(rt, "width"), 6)
				emitted = texts(tr.ReflowEmitted())
			}
			emitted = append(emitted, texts(tr.TakeFinished())...)
			got := append(append([]string{}, emitted...), texts(tr.LiveLines())...)
			if want := allLines(tr); strings.Join(got, "\n") != strings.Join(want, "\n") {
				rt.Fatalf("emitted+live:\n%s\n---- transcript:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		}
	})
}
