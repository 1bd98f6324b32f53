package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// projectDir is a project with a .quire/config.toml and a
// .quire/hooks.json, symlinks resolved.
func projectDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, ".quire"), 0o755)
	os.WriteFile(filepath.Join(dir, ".quire", "config.toml"), []byte("theme = \"light\"\nmodel = \"pricey\"\n"), 0o644)
	os.WriteFile(filepath.Join(dir, ".quire", "hooks.json"), []byte(`{"hooks": {"PreToolUse": [{"matcher": "shell", "hooks": [{"type": "command", "command": "./guard.sh \u001b[2J"}]}]}}`), 0o644)
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	return real
}

// quire trust lists the project's files and what was decided about
// them, --yes prints what they do and trusts them, --revoke forgets;
// a change to a file is seen as one.
func TestTrustCommand(t *testing.T) {
	isolate(t)
	dir := projectDir(t)
	steps := []struct {
		name  string
		args  []string
		edit  func()
		code  int
		out   []string // each in stdout
		notIn []string
	}{
		{name: "list", args: []string{"trust", dir}, out: []string{
			"project " + dir, ".quire/config.toml  not trusted yet", ".quire/hooks.json   not trusted yet", "quire trust --yes"}},
		{name: "yes", args: []string{"trust", "--yes", dir}, out: []string{
			".quire/config.toml — settings for quire in this project", `    theme = "light"`, "model = \"pricey\"  (ignored: a project may not set it)",
			".quire/hooks.json — hooks", "    PreToolUse [shell]: ./guard.sh ␛[2J", "trusted 2 files of " + dir},
			notIn: []string{"\x1b"}},
		{name: "list trusted", args: []string{"trust", dir}, out: []string{".quire/config.toml  trusted", ".quire/hooks.json   trusted"}, notIn: []string{"--yes"}},
		{name: "yes again", args: []string{"trust", "--yes", dir}, out: []string{"nothing to do"}},
		{name: "changed", args: []string{"trust", dir}, edit: func() {
			os.WriteFile(filepath.Join(dir, ".quire", "hooks.json"), []byte(`{"hooks": {}}`), 0o644)
		}, out: []string{".quire/hooks.json   changed since trusted", ".quire/config.toml  trusted"}},
		{name: "revoke", args: []string{"trust", "--revoke", dir}, out: []string{"forgot 2 decisions about " + dir}},
		{name: "list after revoke", args: []string{"trust", dir}, out: []string{".quire/config.toml  not trusted yet"}},
		{name: "both flags", args: []string{"trust", "--yes", "--revoke"}, code: 2},
		{name: "two dirs", args: []string{"trust", "a", "b"}, code: 2},
		{name: "no such dir", args: []string{"trust", filepath.Join(dir, "nope")}, code: 1},
		{name: "nothing to trust", args: []string{"trust", t.TempDir()}, out: []string{"has none of the files quire asks about (.quire/config.toml, .quire/hooks.json"}},
	}
	for _, st := range steps {
		if st.edit != nil {
			st.edit()
		}
		code, out, errOut := runIn(t, "", st.args...)
		if code != st.code {
			t.Fatalf("%s: exit %d, stdout %q, stderr %q", st.name, code, out, errOut)
		}
		for _, w := range st.out {
			if !strings.Contains(out, w) {
				t.Errorf("%s: stdout lacks %q:\n%s", st.name, w, out)
			}
		}
		for _, w := range st.notIn {
			if strings.Contains(out, w) {
				t.Errorf("%s: stdout has %q:\n%s", st.name, w, out)
			}
		}
		if st.code != 0 && strings.Count(strings.TrimSpace(errOut), "\n") > 1 {
			t.Errorf("%s: stderr is more than a line and a pointer: %q", st.name, errOut)
		}
	}
}

// quire config lists its layers, the project's among them, and names
// the project file as the source of what a trusted one sets.
func TestConfigCommandShowsTheLayers(t *testing.T) {
	home := isolate(t)
	dir := projectDir(t)
	t.Chdir(dir)
	managed := filepath.Join(home, "managed.toml")
	os.WriteFile(managed, []byte("theme = \"dark\"\ncontext_window = 32000\n"), 0o644)
	t.Setenv("QUIRE_MANAGED_CONFIG", managed)

	code, out, _ := runIn(t, "", "config")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, w := range []string{
		"managed       " + managed, "user          " + filepath.Join(home, ".config", "quire", "config.toml") + " (absent)",
		"project       " + filepath.Join(dir, ".quire", "config.toml") + " (not trusted yet: not used; see quire trust)",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("quire config lacks %q:\n%s", w, out)
		}
	}
	if row := configRow(out, "context_window"); !strings.HasSuffix(row, managed) {
		t.Errorf("context_window row %q: want it from the managed file", row)
	}

	if code, _, _ := runIn(t, "", "trust", "--yes"); code != 0 {
		t.Fatal("quire trust --yes failed")
	}
	_, out, _ = runIn(t, "", "config")
	project := filepath.Join(dir, ".quire", "config.toml")
	if row := configRow(out, "theme"); !strings.Contains(row, "light") || !strings.HasSuffix(row, project) {
		t.Errorf("theme row %q: want light from %s\n%s", row, project, out)
	}
	if !strings.Contains(out, "project       "+project+" (trusted)") || !strings.Contains(out, "warning: "+project+": ignored model") {
		t.Errorf("quire config:\n%s", out)
	}
}

func configRow(out, key string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, key+" ") {
			return l
		}
	}
	return ""
}
