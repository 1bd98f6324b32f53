package mcp

import (
	"regexp"
	"strings"
	"testing"
)

var providerName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

func TestToolName(t *testing.T) {
	for _, c := range []struct {
		server, tool, want string
		mapped             bool
	}{
		{"fs", "read_file", "mcp__fs__read_file", false},
		{"fs", "read-file", "mcp__fs__read-file", false},
		{"fs", "a.b", "mcp__fs__a_b_", true},
		{"fs", "a_b", "mcp__fs__a_b", false},
		{"fs", "\x1b[2J", "mcp__fs____2J_", true},
		{"fs", "", "mcp__fs___", true},
		{"fs", "ünï", "mcp__fs___n__", true},
		{"fs", strings.Repeat("x", 100), "mcp__fs__xxxx", true},
	} {
		got, mapped := ToolName(c.server, c.tool)
		if !strings.HasPrefix(got, c.want) || mapped != c.mapped || !providerName.MatchString(got) {
			t.Errorf("ToolName(%q, %q) = %q, %v; want prefix %q, %v", c.server, c.tool, got, mapped, c.want, c.mapped)
		}
	}
	a, _ := ToolName("fs", "a.b")
	b, _ := ToolName("fs", "a_b")
	c, _ := ToolName("fs", "a/b")
	if a == b || a == c || b == c {
		t.Errorf("names collide: %s %s %s", a, b, c)
	}
	long1, _ := ToolName("fs", strings.Repeat("x", 80)+"1")
	long2, _ := ToolName("fs", strings.Repeat("x", 80)+"2")
	if long1 == long2 || len(long1) != 64 {
		t.Errorf("long names: %s %s", long1, long2)
	}
}

func FuzzToolName(f *testing.F) {
	for _, s := range []string{"echo", "a.b", "\x1b[31m", strings.Repeat("y", 70), "名前"} {
		f.Add("srv", s)
	}
	f.Fuzz(func(t *testing.T, server, tool string) {
		name, mapped := ToolName(server, tool)
		if validName.MatchString(server) && !providerName.MatchString(name) {
			t.Fatalf("ToolName(%q, %q) = %q", server, tool, name)
		}
		if !mapped && validName.MatchString(server) && name != namePrefix+server+nameSep+tool {
			t.Fatalf("unmapped %q is not the tool's own name", name)
		}
	})
}

func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"plain":            "plain",
		"\x1b[31mred":      `\x1b[31mred`,
		"bell\x07":         `bell\x07`,
		"rtl\u202eevil":    `rtl\u202eevil`,
		"zero\u200bwidth":  `zero\u200bwidth`,
		"c1\u009b":         `c1\x9b`,
		"bad\xffutf8":      `bad\xffutf8`,
		"tab\tnewline\n":   `tab\x09newline\x0a`,
		"wide 漢字 and é ok": "wide 漢字 and é ok",
	} {
		if got := Printable(in); got != want {
			t.Errorf("Printable(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzPrintable(f *testing.F) {
	f.Add("\x1b]8;;http://x\x07link\x1b]8;;\x07")
	f.Fuzz(func(t *testing.T, s string) {
		for _, r := range Printable(s) {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == 0x202e || r == 0x200b {
				t.Fatalf("Printable(%q) keeps %U", s, r)
			}
		}
	})
}
