package skills

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestExpand(t *testing.T) {
	for _, tc := range []struct {
		name, body, args, want string
	}{
		{"arguments", "Review $ARGUMENTS now.", "main.go carefully", "Review main.go carefully now."},
		{"arguments trimmed", "[$ARGUMENTS]", "  x  ", "[x]"},
		{"no arguments", "Review $ARGUMENTS.", "", "Review ."},
		{"twice", "$ARGUMENTS and $ARGUMENTS", "a", "a and a"},
		{"positional", "from $1 to $2 ($3)", "main dev", "from main to dev ()"},
		{"quotes group words", "1=$1 2=$2", `"two words" 'and more'`, "1=two words 2=and more"},
		{"nine", "$9$1", "a b c d e f g h i", "ia"},
		{"ten is one and a zero", "$10", "a", "a0"},
		{"dollar alone", "costs $5? no: $ and $$ and $A", "x", "costs ? no: $ and $$ and $A"},
		{"no placeholder appends", "Summarise the diff.", "focus on tests", "Summarise the diff.\n\nfocus on tests"},
		{"no placeholder, no args", "Summarise the diff.", "", "Summarise the diff."},
		{"arguments are not expanded again", "$ARGUMENTS|$1", "$1 $ARGUMENTS", "$1 $ARGUMENTS|$1"},
		{"multi-line arguments", "Fix:\n$ARGUMENTS", "line one\nline two", "Fix:\nline one\nline two"},
		{"unterminated quote", "<$1>", `"a b`, "<a b>"},
		{"utf-8", "« $ARGUMENTS »", "été", "« été »"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Expand(tc.body, tc.args); got != tc.want {
				t.Fatalf("Expand(%q, %q) = %q, want %q", tc.body, tc.args, got, tc.want)
			}
		})
	}
}

func TestCommandExpandReadsTheFileAfresh(t *testing.T) {
	l := newLayout(t)
	path := filepath.Join(l.cwd, ".quire/commands/review.md")
	tree(t, l.cwd, map[string]string{".quire/commands/review.md": "---\ndescription: Review\n---\n\nReview $ARGUMENTS.\n\n"})
	c := l.discover()
	cmd := c.Commands[0]
	got, err := cmd.Expand("a.go")
	if err != nil || got != "Review a.go." {
		t.Fatalf("Expand = %q, %v", got, err)
	}
	os.WriteFile(path, []byte("Check $1 twice."), 0o644)
	if got, err = cmd.Expand("b.go c"); err != nil || got != "Check b.go twice." {
		t.Fatalf("after an edit: %q, %v", got, err)
	}
	os.WriteFile(path, []byte("---\ndescription: [\n---\nx"), 0o644)
	if _, err = cmd.Expand(""); err == nil || !strings.HasPrefix(err.Error(), "/review: .quire/commands/review.md: the frontmatter is not valid YAML") {
		t.Fatalf("malformed now: %v", err)
	}
	os.WriteFile(path, []byte(strings.Repeat("x", maxCommandBody+1)), 0o644)
	if _, err = cmd.Expand(""); err == nil || !strings.Contains(err.Error(), "larger than 256 KiB") {
		t.Fatalf("too large: %v", err)
	}
	os.Remove(path)
	if _, err = cmd.Expand(""); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Fatalf("removed: %v", err)
	}
}
