package app

import (
	"strings"
	"testing"
)

// edit applies ops to an editor holding text with the cursor at '|' and
// returns the result in the same notation.
func edit(start string, ops ...func(*Editor)) string {
	var e Editor
	i := strings.IndexByte(start, '|')
	e.SetText(start[:i] + start[i+1:])
	e.cursor = i
	for _, op := range ops {
		op(&e)
	}
	return e.text[:e.cursor] + "|" + e.text[e.cursor:]
}

func TestEditorKeys(t *testing.T) {
	tests := []struct {
		name  string
		start string
		ops   []func(*Editor)
		want  string
	}{
		{"insert", "ab|c", []func(*Editor){func(e *Editor) { e.Insert("XY") }}, "abXY|c"},
		{"backspace emoji ZWJ as one", "a👩‍💻|b", []func(*Editor){(*Editor).Backspace}, "a|b"},
		{"backspace combining as one", "ae\u0301|", []func(*Editor){(*Editor).Backspace}, "a|"},
		{"backspace joins lines", "ab\n|cd", []func(*Editor){(*Editor).Backspace}, "ab|cd"},
		{"backspace at start", "|ab", []func(*Editor){(*Editor).Backspace}, "|ab"},
		{"delete", "a|bc", []func(*Editor){(*Editor).Delete}, "a|c"},
		{"left over flag", "🇫🇷|", []func(*Editor){(*Editor).Left}, "|🇫🇷"},
		{"right over CJK", "|漢字", []func(*Editor){(*Editor).Right}, "漢|字"},
		{"ctrl-a on second line", "ab\ncd|e", []func(*Editor){(*Editor).Home}, "ab\n|cde"},
		{"ctrl-e on first line", "a|b\ncd", []func(*Editor){(*Editor).End}, "ab|\ncd"},
		{"ctrl-k", "ab|cd\nef", []func(*Editor){(*Editor).KillToEnd}, "ab|\nef"},
		{"ctrl-k at eol joins", "ab|\nef", []func(*Editor){(*Editor).KillToEnd}, "ab|ef"},
		{"ctrl-u", "ab\ncd|ef", []func(*Editor){(*Editor).KillToStart}, "ab\n|ef"},
		{"ctrl-w", "git commit -m|", []func(*Editor){(*Editor).KillWordBack}, "git commit -|"},
		{"ctrl-w over spaces", "foo bar  |", []func(*Editor){(*Editor).KillWordBack}, "foo |"},
		{"alt-d", "foo| bar baz", []func(*Editor){(*Editor).KillWordForward}, "foo| baz"},
		{"alt-b", "foo bar|", []func(*Editor){(*Editor).WordLeft}, "foo |bar"},
		{"alt-f", "|foo bar", []func(*Editor){(*Editor).WordRight}, "foo| bar"},
		{"kill then yank", "foo bar|", []func(*Editor){(*Editor).KillWordBack, (*Editor).Home, (*Editor).Yank}, "bar|foo "},
		{"up keeps column", "abcd\nef|", []func(*Editor){func(e *Editor) { e.Up() }}, "ab|cd\nef"},
		{"up clamps to short line", "ab\ncdef|", []func(*Editor){func(e *Editor) { e.Up() }}, "ab|\ncdef"},
		{"down keeps column", "a|bc\ndef", []func(*Editor){func(e *Editor) { e.Down() }}, "abc\nd|ef"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := edit(tt.start, tt.ops...); got != tt.want {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestEditorUpDownReportEdges(t *testing.T) {
	var e Editor
	e.SetText("one line")
	if e.Up() || e.Down() {
		t.Fatal("Up/Down on a single line must report false so history can take over")
	}
	e.SetText("a\nb")
	if !e.Up() || e.Up() {
		t.Fatal("Up from the second line moves once, then reports the edge")
	}
}

func TestEditorLines(t *testing.T) {
	var e Editor
	e.SetText("ab\ncde")
	e.cursor = 4
	lines, row, col := e.Lines()
	if len(lines) != 2 || row != 1 || col != 1 {
		t.Fatalf("lines %q row %d col %d", lines, row, col)
	}
}
