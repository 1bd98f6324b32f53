package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

func TestAppendAndRemoveTable(t *testing.T) {
	file := filepath.Join(t.TempDir(), "quire", "config.toml")
	path := toml.Key{"mcp", "servers", "fs"}
	// A missing file is created.
	if err := AppendTable(file, path, map[string]Value{"command": "npx", "args": []string{"-y", `we"ird\path`}, "env": map[string]string{"A B": "1\n"}}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(file)
	want := "[mcp.servers.fs]\nargs = [\"-y\", \"we\\\"ird\\\\path\"]\ncommand = \"npx\"\nenv = { \"A B\" = \"1\\u000A\" }\n"
	if string(got) != want {
		t.Fatalf("new file:\n%s\nwant:\n%s", got, want)
	}

	// An existing file keeps its comments and layout.
	orig := "# my settings\nmodel = \"m\" # the model\n\n[mcp.servers.a]\ncommand = \"a\" # first\n[mcp.servers.a.env]\nK = \"v\"\n\n# about b\n[mcp.servers.b]\ncommand = \"b\"\n"
	os.WriteFile(file, []byte(orig), 0o640)
	os.Chmod(file, 0o640)
	if err := AppendTable(file, toml.Key{"mcp", "servers", "c"}, map[string]Value{"url": "http://h/mcp"}); err != nil {
		t.Fatal(err)
	}
	got, _ = os.ReadFile(file)
	if string(got) != orig+"\n[mcp.servers.c]\nurl = \"http://h/mcp\"\n" {
		t.Fatalf("appended:\n%s", got)
	}
	if fi, _ := os.Stat(file); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v", fi.Mode())
	}
	if err := AppendTable(file, toml.Key{"mcp", "servers", "a"}, map[string]Value{"command": "x"}); err == nil || !strings.Contains(err.Error(), "already has [mcp.servers.a]") {
		t.Errorf("duplicate: %v", err)
	}

	// Removing a table takes its subtables and leaves the next table's
	// comment.
	if err := RemoveTable(file, toml.Key{"mcp", "servers", "a"}); err != nil {
		t.Fatal(err)
	}
	got, _ = os.ReadFile(file)
	if string(got) != "# my settings\nmodel = \"m\" # the model\n\n# about b\n[mcp.servers.b]\ncommand = \"b\"\n\n[mcp.servers.c]\nurl = \"http://h/mcp\"\n" {
		t.Fatalf("after removing a:\n%s", got)
	}
	if err := RemoveTable(file, toml.Key{"mcp", "servers", "a"}); err == nil || !strings.Contains(err.Error(), "has no [mcp.servers.a]") {
		t.Errorf("removing it again: %v", err)
	}
	// The last table goes with the blank line before it.
	if err := RemoveTable(file, toml.Key{"mcp", "servers", "c"}); err != nil {
		t.Fatal(err)
	}
	if got, _ = os.ReadFile(file); string(got) != "# my settings\nmodel = \"m\" # the model\n\n# about b\n[mcp.servers.b]\ncommand = \"b\"\n" {
		t.Fatalf("after removing c:\n%q", got)
	}

	// A table not written as a section is left for the user.
	os.WriteFile(file, []byte("mcp.servers.d.command = \"d\"\n"), 0o600)
	if err := RemoveTable(file, toml.Key{"mcp", "servers", "d"}); err == nil || !strings.Contains(err.Error(), "remove it by hand") {
		t.Errorf("dotted keys: %v", err)
	}
	os.WriteFile(file, []byte("[mcp.servers]\nd = { command = \"d\" }\n"), 0o600)
	if err := RemoveTable(file, toml.Key{"mcp", "servers", "d"}); err == nil || !strings.Contains(err.Error(), "remove it by hand") {
		t.Errorf("inline table: %v", err)
	}
	if got, _ := os.ReadFile(file); string(got) != "[mcp.servers]\nd = { command = \"d\" }\n" {
		t.Errorf("a refused removal changed the file: %q", got)
	}
	// A broken file is not touched.
	os.WriteFile(file, []byte("model = \n"), 0o600)
	if err := AppendTable(file, path, map[string]Value{"command": "x"}); err == nil || !strings.Contains(err.Error(), "fix it") {
		t.Errorf("broken file: %v", err)
	}
}
