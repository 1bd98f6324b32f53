package tools

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadFile(t *testing.T) {
	te := newTestEnv(t, "workspace")
	te.write(t, "small.txt", "one\r\ntwo\nthree")
	var big strings.Builder
	for i := 1; i <= 2500; i++ {
		fmt.Fprintf(&big, "line %d\n", i)
	}
	te.write(t, "big.txt", big.String())
	te.write(t, "wide.txt", strings.Repeat(strings.Repeat("x", 99)+"\n", 1000))
	te.write(t, "long.txt", strings.Repeat("é", 5000)+"\nshort\n")
	te.write(t, "bin.dat", "\x89PNG\r\n\x1a\n\x00\x00\x00")
	te.write(t, "empty.txt", "")

	for _, c := range []struct {
		name      string
		args      obj
		has       []string
		lacks     []string
		isErr     bool
		truncated bool
	}{
		{name: "numbered", args: obj{"path": "small.txt"}, has: []string{"     1\tone\n", "     2\ttwo\n", "     3\tthree\n"}, lacks: []string{"\r"}},
		{name: "offset and limit", args: obj{"path": "big.txt", "offset": 10, "limit": 2}, has: []string{"    10\tline 10\n", "    11\tline 11\n", "[showing lines 10-11 of 2500 (line limit); call read_file with offset=12 to continue]"}, lacks: []string{"line 12\n"}, truncated: true},
		{name: "2000 line window", args: obj{"path": "big.txt"}, has: []string{"  2000\tline 2000\n", "offset=2001"}, lacks: []string{"line 2001\n"}, truncated: true},
		{name: "byte window", args: obj{"path": "wide.txt"}, has: []string{"KB window", "call read_file with offset="}, truncated: true},
		{name: "long line clipped", args: obj{"path": "long.txt"}, has: []string{"[line clipped, 10000 bytes]", "     2\tshort"}, truncated: true},
		{name: "binary refused", args: obj{"path": "bin.dat"}, has: []string{"looks binary", "image/png", "shell"}, isErr: true},
		{name: "empty", args: obj{"path": "empty.txt"}, has: []string{"is empty"}},
		{name: "missing with suggestion", args: obj{"path": "smal.txt"}, has: []string{"does not exist", "small.txt"}, isErr: true},
		{name: "directory", args: obj{"path": "."}, has: []string{"is a directory; use list_dir"}, isErr: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := run(t, ReadFile{}, te.Env, c.args)
			if res.IsError != c.isErr || res.Truncated != c.truncated {
				t.Fatalf("IsError %v Truncated %v: %s", res.IsError, res.Truncated, res.Output)
			}
			if len(res.Output) > readLimitBytes {
				t.Fatalf("output %d bytes > %d", len(res.Output), readLimitBytes)
			}
			for _, h := range c.has {
				if !strings.Contains(res.Output, h) {
					t.Errorf("lacks %q in:\n%.400s", h, res.Output)
				}
			}
			for _, l := range c.lacks {
				if strings.Contains(res.Output, l) {
					t.Errorf("has %q", l)
				}
			}
		})
	}
}

// gitRepo lays out a small repository with ignore rules at two levels.
func gitRepo(t *testing.T, te testEnv) {
	te.write(t, ".git/HEAD", "ref: refs/heads/main\n")
	te.write(t, ".git/info/exclude", "secret.txt\n")
	te.write(t, ".gitignore", "build/\n*.log\n")
	te.write(t, "main.go", "package main\n// TODO: fix\n")
	te.write(t, "pkg/a.go", "package pkg\n// todo lower\n")
	te.write(t, "pkg/.gitignore", "gen.go\n")
	te.write(t, "pkg/gen.go", "package pkg // TODO generated\n")
	te.write(t, "build/out.go", "// TODO built\n")
	te.write(t, "app.log", "TODO log\n")
	te.write(t, "secret.txt", "TODO secret\n")
	te.write(t, "docs/readme.md", "TODO docs\n")
}

func TestSearchToolsHonourGitignore(t *testing.T) {
	te := newTestEnv(t, "workspace")
	gitRepo(t, te)
	for _, c := range []struct {
		name  string
		tool  Tool
		args  obj
		want  []string
		lacks []string
	}{
		{"list_dir", ListDir{}, obj{"path": "."}, []string{"docs/\n", "pkg/\n", "main.go\n", ".gitignore\n", "hidden by .gitignore"}, []string{"build", "app.log", "secret.txt", ".git/"}},
		{"list_dir nested", ListDir{}, obj{"path": "pkg"}, []string{"a.go\n"}, []string{"gen.go"}},
		{"glob", Glob{}, obj{"pattern": "**/*.go"}, []string{"main.go\n", filepath.Join("pkg", "a.go") + "\n"}, []string{"gen.go", "build"}},
		{"glob with path", Glob{}, obj{"pattern": "*.md", "path": "docs"}, []string{filepath.Join("docs", "readme.md")}, []string{"main.go"}},
		{"glob with a leading ./", Glob{}, obj{"pattern": "./pkg/*.go"}, []string{filepath.Join("pkg", "a.go")}, nil},
		{"grep", Grep{}, obj{"pattern": "TODO"}, []string{"main.go:2:// TODO: fix", "docs/readme.md:1:TODO docs"}, []string{"todo lower", "generated", "built", "log", "secret"}},
		{"grep case insensitive with glob", Grep{}, obj{"pattern": "todo", "case_insensitive": true, "glob": "*.go"}, []string{"main.go:2:", "pkg/a.go:2:// todo lower"}, []string{"readme"}},
		{"grep one file", Grep{}, obj{"pattern": "fix$", "path": "main.go"}, []string{"main.go:2:// TODO: fix"}, nil},
		{"grep an ignored dir asked for by name", Grep{}, obj{"pattern": "TODO", "path": "build"}, []string{"build/out.go:1:// TODO built"}, []string{"main.go"}},
		{"glob an ignored dir asked for by name", Glob{}, obj{"pattern": "*.go", "path": "build"}, []string{"build/out.go"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := run(t, c.tool, te.Env, c.args)
			if res.IsError {
				t.Fatal(res.Output)
			}
			for _, w := range c.want {
				if !strings.Contains(res.Output, w) {
					t.Errorf("lacks %q:\n%s", w, res.Output)
				}
			}
			for _, l := range c.lacks {
				if strings.Contains(res.Output, l) {
					t.Errorf("has %q:\n%s", l, res.Output)
				}
			}
		})
	}
}

// A name that starts with two dots lies inside its directory, so the
// directory's ignore rules apply to it. (The walk once took any relative
// path starting with ".." for one above the rule's directory, and
// searched such files whatever the rules said; it now asks pathx.Rel,
// which only takes ".." or "../…" for above.)
func TestIgnoreRulesCoverNamesStartingWithTwoDots(t *testing.T) {
	te := newTestEnv(t, "workspace")
	te.write(t, ".git/HEAD", "ref: refs/heads/main\n")
	te.write(t, ".gitignore", "..cache\n")
	te.write(t, "..cache", "TODO cached\n")
	te.write(t, "..kept", "TODO kept\n")
	res := run(t, Grep{}, te.Env, obj{"pattern": "TODO"})
	if res.IsError {
		t.Fatal(res.Output)
	}
	if !strings.Contains(res.Output, "..kept:1:TODO kept") || strings.Contains(res.Output, "cached") {
		t.Errorf("grep found:\n%s\nwant ..kept and not the ignored ..cache", res.Output)
	}
}

func TestSearchErrorsAndLimits(t *testing.T) {
	te := newTestEnv(t, "workspace")
	for i := 0; i < searchLimitEntries+5; i++ {
		te.write(t, fmt.Sprintf("many/f%04d.txt", i), "hit\n")
	}
	res := run(t, Glob{}, te.Env, obj{"pattern": "many/*.txt"})
	if !res.Truncated || !strings.Contains(res.Output, "stopped after") {
		t.Errorf("glob limit: truncated %v", res.Truncated)
	}
	res = run(t, Grep{}, te.Env, obj{"pattern": "hit"})
	if !res.Truncated || !strings.Contains(res.Output, "stopped after") {
		t.Errorf("grep limit: truncated %v", res.Truncated)
	}
	res = run(t, ListDir{}, te.Env, obj{"path": "many"})
	if !res.Truncated || !strings.Contains(res.Output, "more entries not shown") {
		t.Errorf("list_dir limit: truncated %v", res.Truncated)
	}
	if _, err := (Grep{}).Plan(te.Env, nil, args(t, obj{"pattern": "a(b"})); err == nil || !strings.Contains(err.Error(), "regular expression") {
		t.Errorf("bad regexp: %v", err)
	}
	if _, err := (Glob{}).Plan(te.Env, nil, args(t, obj{"pattern": "a[b"})); err == nil {
		t.Error("bad glob accepted")
	}
	if res := run(t, Grep{}, te.Env, obj{"pattern": "zzz"}); res.IsError || !strings.Contains(res.Output, "No matches") {
		t.Errorf("no matches: %+v", res)
	}
}
