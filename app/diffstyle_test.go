package app

import (
	"strings"
	"testing"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/render"
)

// An approved diff looks like the diff the transcript shows once the edit
// is done: each of its lines in the same style, from the transcript's
// theme. (The approval panel once had its own copy of the styles and of
// the rule: it showed an added line starting "++" and a deleted one
// starting "--" as bold file names, and the "\ No newline" note
// unstyled, where the transcript showed an addition, a deletion and a
// muted note. The transcript's rule is kept: those lines are what the
// diff format says they are.)
func TestApprovedDiffLooksLikeTheTranscripts(t *testing.T) {
	diff := "--- a/q.sql\n+++ b/q.sql\n@@ -1,3 +1,3 @@\n keep me\n-drop me\n---minus start\n+add me\n+++plus start\n\\ No newline at end of file\n"
	lines := []string{"@@ -1,3 +1,3 @@", "keep me", "drop me", "minus start", "add me", "plus start", "No newline at end of file"}
	m := newTestModel()
	startTurn(m)
	m.HandleEvent(event.Event{Kind: event.ToolCallRequested, Turn: 1, Call: &event.ToolCall{ID: "e1", Name: "edit", ToolKind: "edit", Target: "q.sql", Arguments: []byte(`{}`)}}, t0)
	m.HandleEvent(event.Event{Kind: event.ApprovalRequested, Turn: 1, Approval: &event.Approval{CallID: "e1", Tool: "edit", Target: "q.sql", Preview: diff}}, t0)
	approved := lineStyles(t, m, lines)
	m.HandleInput(key('y'), t0)
	m.HandleEvent(event.Event{Kind: event.ToolFinished, Turn: 1, Result: &event.ToolResult{CallID: "e1", Status: event.ToolOK, Output: "ok", Diff: diff}}, t0)
	applied := lineStyles(t, m, lines)
	for i, l := range lines {
		if approved[i] != applied[i] {
			t.Errorf("%q: approved in %+v, shown in the transcript in %+v", l, approved[i], applied[i])
		}
	}
}

// lineStyles draws m and returns the style of the first cell of each of
// lines on the screen; each must show exactly once.
func lineStyles(t *testing.T, m *Model, lines []string) []render.Style {
	t.Helper()
	const w, h = 100, 30
	b := render.NewBuffer(w, h)
	m.DrawFull(b, t0)
	out := make([]render.Style, len(lines))
	for i, l := range lines {
		found := 0
		for y := range h {
			var row strings.Builder
			xs := []int{} // the cell of each byte of row
			for x := range w {
				c := b.Cell(x, y)
				for range len(c.String()) {
					xs = append(xs, x)
				}
				row.WriteString(c.String())
			}
			if at := strings.Index(row.String(), l); at >= 0 {
				out[i] = b.Cell(xs[at], y).Style
				found++
			}
		}
		if found != 1 {
			t.Fatalf("%q shows %d times on the screen", l, found)
		}
	}
	return out
}
