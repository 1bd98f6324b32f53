package skills

import (
	"strings"
	"testing"
	"unicode"

	"github.com/quire-sh/quire/ext/frontmatter"
)

// FuzzSkillFile: whatever a SKILL.md holds, checking it never panics, and
// what it accepts is a valid name and a bounded description on one line
// without control characters: all that reaches the system prompt.
func FuzzSkillFile(f *testing.F) {
	for _, s := range []string{
		skillMD("a", "b"), "---\nname: a\ndescription: >\n  x\n  y\n---\n", "---\ndescription: \"\\u0007\\n\\t x\"\n---\n",
		"---\nname: A\n---\n", "---\nname: [a]\n---\n", "no front", "---\nname: a\ndescription: b\n...\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := frontmatter.Parse(data)
		if err != nil {
			return
		}
		s, err := checkSkill(d, "a")
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		if checkName(s.Name, false) != nil || s.Name != "a" {
			t.Fatalf("accepted name %q", s.Name)
		}
		if n := len([]rune(s.Description)); n == 0 || n > maxDescription {
			t.Fatalf("accepted a description of %d characters", n)
		}
		for _, r := range s.Description {
			if unicode.IsControl(r) || r == '\n' {
				t.Fatalf("description holds %q", r)
			}
		}
	})
}

// FuzzExpand: expansion never panics, and a body without a $ comes back
// as it is, with the arguments after it when there are any.
func FuzzExpand(f *testing.F) {
	f.Add("Review $ARGUMENTS", "a b")
	f.Add("$1 $2 $9", `"x y" 'z`)
	f.Add("plain", "args")
	f.Add("$$$ARGUMENTS$", "$1")
	f.Fuzz(func(t *testing.T, body, args string) {
		got := Expand(body, args)
		if strings.Contains(body, "$") {
			return
		}
		want := body
		if a := strings.TrimSpace(args); a != "" {
			want += "\n\n" + a
		}
		if got != want {
			t.Fatalf("Expand(%q, %q) = %q, want %q", body, args, got, want)
		}
	})
}
