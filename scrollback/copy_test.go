package scrollback

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/markdown"
	"github.com/quire-sh/quire/render"
)

// allLines is every line of the transcript at the current width.
func allLines(tr *Transcript) []string {
	var out []string
	var l render.Line
	for i := 0; i < tr.Len(); i++ {
		v := tr.peek(i)
		for y := 0; y < v.height(); y++ {
			v.line(y, &l)
			out = append(out, strings.TrimRight(l.Text(), " "))
		}
	}
	return out
}

func TestSelectionJoinsProseAndKeepsCode(t *testing.T) {
	prompt := "please rename the configuration loader and keep   the tests green"
	s := (&script{}).prompt(prompt)
	s.call("c1", "read", "read", "loader.go")
	s.result("c1", event.ToolOK, "func load() {\n\tif ok {\n\t\treturn nil // a comment long enough to wrap\n\t}\n}\n", 5)
	tr := newTranscript(24, 40, s.evs...)
	tr.ScrollTop()
	f := tr.Frame()
	lines := screen(f)
	if lines[1] != "› please rename the" || lines[2] != "  configuration loader" {
		t.Fatalf("prompt wrapped as:\n%s", dump(f))
	}
	promptEnd := 1
	for strings.HasPrefix(lines[promptEnd+1], "  ") {
		promptEnd++
	}
	got := tr.SelectionText(Point{1, 0}, Point{promptEnd, 24})
	if want := prompt; got != want {
		t.Fatalf("prose copy %q, want %q", got, want)
	}

	toolTop := promptEnd + 2
	got = tr.SelectionText(Point{toolTop, 0}, Point{len(lines) - 1, 99})
	want := "✓ read loader.go  5ms\nfunc load() {\n        if ok {\n                return nil // a comment long enough to wrap\n        }\n}"
	if got != want {
		t.Fatalf("code copy:\n%q\nwant\n%q\nscreen:\n%s", got, want, dump(f))
	}

	// Blocks are separated by a blank line.
	if got := tr.SelectionText(Point{3, 0}, Point{toolTop, 99}); got != "and keep   the tests green\n\n✓ read loader.go  5ms" {
		t.Fatalf("selection across blocks %q", got)
	}

	// Columns: from the middle of one line to the middle of the next.
	got = tr.SelectionText(Point{2, 2 + len("configuration ")}, Point{1, 2 + len("please ")})
	if got != "rename the configuration" {
		t.Fatalf("partial selection (given backwards) %q", got)
	}

	if src, ok := tr.CopyBlock(tr.At(0).ID()); !ok || src != prompt {
		t.Fatalf("CopyBlock of the prompt %q", src)
	}
}

// TestInlineEmitsEachLineOnce streams a turn and checks that what the
// inline view wrote plus its live region is always exactly the
// transcript, so no line is ever written twice or lost, including across
// a resize.
func TestInlineEmitsEachLineOnce(t *testing.T) {
	s := (&script{}).prompt("explain the lexer in detail please")
	s.add(event.Event{Kind: event.ReasoningDelta, Text: "thinking about it"})
	answer := "The lexer reads runes one at a time. It groups them into tokens: identifiers, numbers, strings and punctuation.\n\nThen the parser takes over and builds the tree.\n"
	for i := 0; i < len(answer); i += 7 {
		s.add(event.Event{Kind: event.AssistantDelta, Text: answer[i:min(i+7, len(answer))]})
	}
	s.add(event.Event{Kind: event.AssistantMessage, Text: answer})
	s.call("c1", "shell", "execute", "go test ./...")
	s.output("c1", "ok  \tpkg/lexer\t0.01s\n")
	s.output("c1", "ok  \tpkg/parser\t0.02s\n")
	s.result("c1", event.ToolOK, "", 900)
	s.say("All green.")
	s.end(event.TurnCompleted)

	tr := New(Options{Width: 32, Height: 10})
	var emitted []string
	check := func(step int) {
		t.Helper()
		emitted = append(emitted, texts(tr.TakeFinished())...)
		got := append(append([]string{}, emitted...), texts(tr.LiveLines())...)
		if want := allLines(tr); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("step %d: emitted+live:\n%s\n---- want:\n%s", step, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	resizeAt := len(s.evs) / 2
	for i, e := range s.evs {
		tr.Apply(e)
		check(i)
		if i == resizeAt {
			if blocks, lines := tr.Emitted(); blocks == 0 && lines == 0 {
				t.Fatal("nothing emitted by the middle of the turn")
			}
			tr.Resize(26, 10)
			emitted = texts(tr.ReflowEmitted())
			check(i)
		}
	}
	if len(texts(tr.LiveLines())) != 0 {
		t.Fatal("a finished transcript has no live lines")
	}
	if blocks, _ := tr.Emitted(); blocks != tr.Len() {
		t.Fatalf("emitted %d of %d blocks", blocks, tr.Len())
	}
}

func TestPointAtUnderTheStickyPrompt(t *testing.T) {
	tr := newTranscript(30, 6, tallTurns(2, 10).evs...)
	tr.ScrollTop()
	tr.ScrollLines(5)
	f := tr.Frame()
	if f.Sticky != 1 {
		t.Fatalf("setup: no sticky prompt:\n%s", dump(f))
	}
	if got := tr.SelectionText(tr.PointAt(0, 0), tr.PointAt(0, 30)); got != "prompt 0" {
		t.Fatalf("row 0 (the pinned prompt) copies as %q", got)
	}
	if got := tr.SelectionText(tr.PointAt(1, 0), tr.PointAt(1, 30)); got != "turn 0 line 3" {
		t.Fatalf("row 1 copies as %q\n%s", got, dump(f))
	}
}

// A markdown answer copies as text a reader would paste: wrapped prose,
// list items and quotes joined back into their lines, the quote bar as
// "> ", code without its frame bar and continuation marks, between the
// fences it came in, a rule as "---", a table as a markdown table, and
// a drawn diagram as its source.
func TestSelectionOfMarkdownCopiesItsText(t *testing.T) {
	answer := "The renderer wraps this sentence because it is long enough to need two lines.\n\n" +
		"- item one, which is long enough to wrap onto another line\n- item two\n\n" +
		"> a quoted remark that also wraps across the lines of the screen\n\n" +
		"~~~go\nfunc main() {\n    println(\"a long line of code that needs a continuation mark\")\n}\n~~~\n\n" +
		"---\n\n| step | tool |\n|:--|--:|\n| read | a cell long enough to wrap in its column of the grid |\n\n" +
		"```mermaid\ngraph TD; A[Start] --> B[End]\n```\n\nLast words."
	tr := New(Options{Width: 40, Height: 80, Assistant: func(w int) BodyRenderer {
		return markdown.NewStream(markdown.Options{Width: w})
	}})
	s := (&script{}).prompt("q")
	s.say(answer)
	for _, e := range s.evs {
		tr.Apply(e)
	}
	tr.ScrollTop()
	f := tr.Frame()
	lines := screen(f)
	first, last := -1, 0
	for i, l := range lines {
		if strings.HasPrefix(l, "The renderer") {
			first = i
		}
		if l != "" {
			last = i
		}
	}
	if first < 0 {
		t.Fatalf("answer not on screen:\n%s", dump(f))
	}
	want := "The renderer wraps this sentence because it is long enough to need two lines.\n\n" +
		"• item one, which is long enough to wrap onto another line\n• item two\n\n" +
		"> a quoted remark that also wraps across the lines of the screen\n\n" +
		"~~~go\nfunc main() {\n    println(\"a long line of code that needs a continuation mark\")\n}\n~~~\n\n" +
		"---\n\n| step | tool |\n| :-- | --: |\n| read | a cell long enough to wrap in its column of the grid |\n\n" +
		"```mermaid\ngraph TD; A[Start] --> B[End]\n```\n\nLast words."
	if got := tr.SelectionText(Point{first, 0}, Point{last, 99}); got != want {
		t.Fatalf("copy:\n%s\n---- want:\n%s\n---- screen:\n%s", got, want, dump(f))
	}
	// A selection that starts inside a line copies from there as drawn.
	if got := tr.SelectionText(Point{first, 4}, Point{first, 12}); got != "renderer" {
		t.Fatalf("partial copy %q", got)
	}
}

// A selection over an edit's diff copies the diff's own lines: the hunk
// header whole, each line's sign and text, no line numbers, and a line
// wrapped to fit joined back.
func TestSelectionOfADiffCopiesUnifiedLines(t *testing.T) {
	diff := "--- a/x.go\n+++ b/x.go\n@@ -8,3 +8,3 @@ func main() {\n ctx\n-old line\n+new line that is long enough to wrap at this width\n tail\n"
	s := (&script{}).prompt("edit")
	s.call("c1", "edit_file", "edit", "x.go")
	s.add(event.Event{Kind: event.ToolFinished, Result: &event.ToolResult{CallID: "c1", Status: event.ToolOK, Output: "ok", Diff: diff, DurationMS: 4}})
	tr := newTranscript(36, 30, s.evs...)
	tr.ScrollTop()
	f := tr.Frame()
	lines := screen(f)
	first, last := -1, -1
	for i, l := range lines {
		if strings.Contains(l, "@@") && first < 0 {
			first = i
		}
		if strings.Contains(l, "tail") {
			last = i
		}
	}
	if first < 0 || last < 0 {
		t.Fatalf("the diff is not on screen:\n%s", dump(f))
	}
	want := "@@ -8,3 +8,3 @@ func main() {\n ctx\n-old line\n+new line that is long enough to wrap at this width\n tail"
	if got := tr.SelectionText(Point{first, 0}, Point{last, 99}); got != want {
		t.Fatalf("copy:\n%q\nwant:\n%q\n%s", got, want, dump(f))
	}
}

// Any selection over any kind of block, at any width, copies without
// panicking, and a whole-transcript selection never carries the code
// frame's continuation mark.
func TestSelectionAnywhere(t *testing.T) {
	answer := "Prose that wraps across the narrow screen more than once, twice.\n\n" +
		"- a list item long enough to wrap\n  - nested\n\n> quoted\n\n" +
		"```go\nfunc f() { return \"a very long line of code to wrap\" }\n```\n\n" +
		"| a | b |\n|---|---|\n| 1 | a cell that wraps |\n\n" +
		"```mermaid\ngraph LR; A --> B\n```\n"
	rng := rand.New(rand.NewPCG(3, 3))
	for _, w := range []int{12, 24, 40, 80} {
		tr := New(Options{Width: w, Height: 20, Assistant: func(w int) BodyRenderer {
			return markdown.NewStream(markdown.Options{Width: w})
		}})
		s := (&script{}).prompt("q")
		s.call("c1", "edit_file", "edit", "x.go")
		s.add(event.Event{Kind: event.ToolFinished, Result: &event.ToolResult{CallID: "c1", Status: event.ToolOK, Diff: "@@ -1 +1 @@\n-old\n+new line\n"}})
		s.say(answer)
		for _, e := range s.evs {
			tr.Apply(e)
		}
		total := len(allLines(tr))
		for range 200 {
			a := Point{rng.IntN(total + 2), rng.IntN(w + 5)}
			b := Point{rng.IntN(total + 2), rng.IntN(w + 5)}
			tr.SelectionText(a, b)
		}
		if got := tr.SelectionText(Point{0, 0}, Point{total, w}); strings.Contains(got, "│↪") {
			t.Errorf("at %d columns the copy holds a continuation mark:\n%s", w, got)
		}
	}
}
