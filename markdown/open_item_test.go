package markdown

import (
	"fmt"
	"strings"
	"testing"
)

// TestStreamOpenItemEveryByte: a list item of more than a paragraph,
// streamed as its content (open_item.go), fed one byte at a time, shows
// Render(ShownPrefix()) at every byte where doc.go promises it and
// Render() after Finish: lists nested in it (ordered, deep), paragraphs
// of many lines, every kind of block, lines that end it (a new item, a
// lazy line, a blank line, a tab, the list's end), labels defined in it
// and CRLF line ends.
func TestStreamOpenItemEveryByte(t *testing.T) {
	var nested strings.Builder
	nested.WriteString("- a\n")
	for i := range 40 {
		fmt.Fprintf(&nested, "  - item %d with *some* `code`\n", i)
	}
	docs := map[string]string{
		"nested":  nested.String() + "- next\n\nafter\n",
		"ordered": "1. first\n" + strings.Repeat("   1. sub *x*\n   2. sub\n", 20) + "2. two\n",
		"lines":   "- a\n" + strings.Repeat("  a line of the item's paragraph\n", 30) + "- b\n",
		"blocks": "- start\n" + strings.Repeat("  # head\n  ```go\n  x := 1\n  ```\n  > quote\n  > more\n  | a | b |\n  |---|---|\n  | 1 | 2 |\n"+
			"  text [x] a[i]\n  ---\n      code?\n  - n\n    - m\n  <div>\n  html\n", 4) + "lazy\n- x\n",
		"blank": "- a\n" + strings.Repeat("  - b\n  - c\n\n", 15) + "after\n",
		"tabs":  "- a\n" + strings.Repeat("  - b\n\t- c\n  \t- d\n", 15),
		"defs":  "- a [k]\n" + strings.Repeat("  - b [k]\n", 15) + "  [k]: https://x\n- c [k]\n",
		"deep":  "- a\n" + strings.Repeat("  - b\n    - c\n      - d\n        1. e\n           text\n", 8),
		"crlf":  strings.ReplaceAll("- a\n"+strings.Repeat("  - b\n  c\n", 15), "\n", "\r\n"),
	}
	streamEveryByte(t, docs, 30, 80)
}

// A list item that starts with a task's box or with a bracket that no
// definition can follow ("[Enter] to") is followed as a paragraph once
// its flow has taken the box in; fed one byte at a time, every frame
// where doc.go promises it is Render's, and so is the end.
func TestStreamTaskItemsEveryByte(t *testing.T) {
	// Each list is long enough to be followed (openMin).
	before := strings.Repeat("- [ ] an item of the list before it\n", 8)
	docs := map[string]string{
		"tasks":    before + strings.Repeat("- [x] done: the stream renders `lines` while text arrives\n- [ ] open *item* with [k] and a[i]\n", 4) + "\nafter\n",
		"code":     before + "- [x] `code that stays open for a while and then closes` ok\n- [ ] `x\n\nafter\n",
		"brackets": strings.Repeat("1. an item of the list before it\n", 8) + "1. [Enter] to go on, or [Esc] to stop\n2. [x]done without a space\n3. []: not a definition\n4. [k]: https://x\n5. [k] used\n",
		"loose":    before + "\n- [x] a\n\n- [ ] b and more words here\n\n- [x] c\n",
	}
	streamEveryByte(t, docs, 24, 80)
	// The items are followed, not parsed whole on every chunk.
	s := NewStream(Options{Width: 80})
	s.Append(strings.Repeat("- [ ] an item of the list before it\n", 8) + "- [x] done: the stream renders lines")
	s.Lines()
	s.Append(" while text arrives and more")
	s.Lines()
	if o, ok := s.open.(*openList); !ok || o.item == nil {
		t.Errorf("a task item's paragraph is not followed: open block %T", s.open)
	}
}

// streamEveryByte feeds each document one byte at a time at each width,
// checking every frame where doc.go promises it is Render's, and the end.
func streamEveryByte(t *testing.T, docs map[string]string, widths ...int) {
	t.Helper()
	for name, src := range docs {
		for _, w := range widths {
			t.Run(fmt.Sprintf("%s/%d", name, w), func(t *testing.T) {
				c := newChecker(t, name, Options{Width: w})
				for p := range len(src) {
					c.append(src[p:p+1], true)
				}
				c.finish()
			})
		}
	}
}
