package pathx

import "testing"

func TestDisplay(t *testing.T) {
	cases := []struct{ path, cwd, home, want string }{
		{"/w/p/.quire/agents/a.md", "/w/p", "/home/u", ".quire/agents/a.md"},
		{"/home/u/.config/quire/agents/a.md", "/w/p", "/home/u", "~/.config/quire/agents/a.md"},
		{"/etc/x.md", "/w/p", "/home/u", "/etc/x.md"},
		{"/home/uv/x.md", "", "/home/u", "/home/uv/x.md"},
		{"/etc/x.md", "", "/", "/etc/x.md"},
		{"/w/p", "/w/p", "", "."},
	}
	for _, c := range cases {
		if got := Display(c.path, c.cwd, c.home); got != c.want {
			t.Errorf("Display(%q, %q, %q) = %q, want %q", c.path, c.cwd, c.home, got, c.want)
		}
	}
}
