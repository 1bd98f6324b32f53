package agents

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	cases := []struct {
		name string
		file string
		want Definition
	}{
		{"flow list and body", "---\nname: reviewer\ndescription: Reviews a change.\ntools: [read_file, \"grep\", 'mcp__github__*']\nmodel: openai/gpt-5\n---\n\nYou review code.\n",
			Definition{Name: "reviewer", Description: "Reviews a change.", Tools: []string{"read_file", "grep", "mcp__github__*"}, Model: "openai/gpt-5", Instructions: "You review code."}},
		{"name from the file, block list, comments", "---\n# a comment\ndescription: Finds things   # trailing comment\ntools:\n  - read_file\n  - glob\n---\nbody",
			Definition{Name: "stem", Description: "Finds things", Tools: []string{"read_file", "glob"}, Instructions: "body"}},
		{"block list at column 0", "---\ndescription: d\ntools:\n- grep\n- glob\n---\n",
			Definition{Name: "stem", Description: "d", Tools: []string{"grep", "glob"}}},
		{"comma separated tools, as other agents write them", "---\ndescription: d\ntools: read_file, grep\n---\n",
			Definition{Name: "stem", Description: "d", Tools: []string{"read_file", "grep"}}},
		{"no tools at all", "---\ndescription: d\ntools: []\n---\n",
			Definition{Name: "stem", Description: "d", Tools: []string{}}},
		{"folded description over lines, unknown keys skipped", "---\ndescription: >\n  Looks at\n  the tests.\ncolor: blue\nhooks:\n  pre: x\n---\n",
			Definition{Name: "stem", Description: "Looks at the tests."}},
		{"plain value continued on indented lines", "---\ndescription: one\n  two\n---\n",
			Definition{Name: "stem", Description: "one two"}},
		{"quoted with escapes, inherit model, BOM and CRLF", "\xef\xbb\xbf---\r\ndescription: \"say \\\"hi\\\"\"\r\nmodel: inherit\r\n---\r\nx",
			Definition{Name: "stem", Description: `say "hi"`, Instructions: "x"}},
		{"literal block, closing ...", "---\ndescription: |\n  a\n  b\n...\n",
			Definition{Name: "stem", Description: "a b"}},
		{"tools given no value are none", "---\ndescription: d\ntools:\n---\n",
			Definition{Name: "stem", Description: "d", Tools: []string{}}},
		{"keys indented alike, as YAML allows", "---\n  description: d\n  tools: grep\n---\n",
			Definition{Name: "stem", Description: "d", Tools: []string{"grep"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Parse("stem", []byte(c.file))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got  %#v\nwant %#v", got, c.want)
			}
		})
	}
}

func TestParseMalformed(t *testing.T) {
	cases := []struct{ name, file, says string }{
		{"no frontmatter", "# Reviewer\nYou review.", "no frontmatter"},
		{"not closed", "---\ndescription: d\n", "no closing --- line"},
		{"no description", "---\nname: x\n---\nbody", "no description"},
		{"bad name", "---\nname: my agent\ndescription: d\n---\n", `line 2: the name "my agent"`},
		{"duplicate key", "---\ndescription: a\ndescription: b\n---\n", `line 3: the key "description" is given twice`},
		{"tools a map", "---\ndescription: d\ntools:\n  read: yes\n---\n", "line 4: tools: a set of keys where a list of text belongs"},
		{"bad pattern", "---\ndescription: d\ntools: [\"read[\"]\n---\n", "not a tool name or pattern"},
		{"path in tools", "---\ndescription: d\ntools: [a/b]\n---\n", "not a tool name or pattern"},
		{"unclosed quote", "---\ndescription: \"open\n---\n", "line 2: a quoted value is not closed"},
		{"unclosed list", "---\ndescription: d\ntools: [a, b\n---\n", "line 3: a [list] is not closed"},
		{"not key value", "---\ndescription: d\njust words\n---\n", `line 3: "just words" is not a key: value line`},
		{"indented stray line", "---\ndescription: d\n  model: x\n---\n", `line 3: a value holds ": " (quote the value), or a key is indented under another value: "model: x"`},
		{"list of lists", "---\ndescription: d\ntools:\n  - a\n  b: c\n---\n", "line 5: a list mixes items"},
		{"description a list", "---\ndescription: [a]\n---\n", "line 2: description: a list where text belongs"},
		{"model with blanks", "---\ndescription: d\nmodel: gpt 5\n---\n", "line 3: the model"},
		{"not utf-8", "---\ndescription: \xff\n---\n", "not UTF-8"},
		{"huge description", "---\ndescription: " + strings.Repeat("x", MaxDescription+1) + "\n---\n", "more than 1024"},
		{"several problems at once", "---\nname: a b\n---\n", "the name \"a b\""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("stem", []byte(c.file))
			if err == nil || !strings.Contains(err.Error(), c.says) {
				t.Fatalf("error %v, want one saying %q", err, c.says)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("the error is more than one line: %q", err)
			}
		})
	}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLoadPrecedenceAndNotices(t *testing.T) {
	repo := t.TempDir()
	os.Mkdir(filepath.Join(repo, ".git"), 0o755)
	cwd := filepath.Join(repo, "sub")
	cfg := t.TempDir()
	agentFile := func(desc string) string { return "---\ndescription: " + desc + "\n---\nbody " + desc }
	write(t, filepath.Join(cwd, ".quire/agents/explorer.md"), agentFile("local explorer"))
	write(t, filepath.Join(repo, ".quire/agents/explorer.md"), agentFile("repo explorer"))
	write(t, filepath.Join(repo, ".quire/agents/tester.md"), agentFile("repo tester"))
	write(t, filepath.Join(cfg, "agents/tester.md"), agentFile("user tester"))
	write(t, filepath.Join(cfg, "agents/writer.md"), agentFile("user writer"))
	write(t, filepath.Join(cfg, "agents/broken.md"), "no frontmatter here")
	write(t, filepath.Join(cfg, "agents/notes.txt"), "ignored")
	write(t, filepath.Join(cwd, ".quire/agents/twin.md"), "---\nname: explorer2\ndescription: a\n---\n")
	write(t, filepath.Join(cwd, ".quire/agents/twin2.md"), "---\nname: explorer2\ndescription: b\n---\n")

	defs, notices := Load(Options{Cwd: cwd, ConfigDir: cfg, Home: filepath.Dir(cfg)})
	var got []string
	for _, d := range defs {
		got = append(got, d.Name+"="+d.Description+"@"+d.Layer.String())
	}
	want := []string{"explorer=local explorer@project", "explorer2=a@project", "tester=repo tester@repository", "writer=user writer@user"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("definitions %v\nwant %v", got, want)
	}
	if len(notices) != 2 {
		t.Fatalf("want 2 notices, one per bad file: %q", notices)
	}
	joined := strings.Join(notices, "\n")
	for _, says := range []string{"agents/broken.md: it has no frontmatter", "it is skipped", ".quire/agents/twin2.md: twin.md already defines the agent \"explorer2\""} {
		if !strings.Contains(joined, says) {
			t.Errorf("notices %q do not say %q", notices, says)
		}
	}
	if strings.Contains(joined, cfg) {
		t.Errorf("a notice names the home directory instead of ~: %q", notices)
	}
}

func TestLoadRefusesWhatIsNotAFileAndTooLarge(t *testing.T) {
	cwd := t.TempDir()
	dir := filepath.Join(cwd, ".quire/agents")
	os.MkdirAll(filepath.Join(dir, "adir.md"), 0o755)
	write(t, filepath.Join(dir, "big.md"), "---\ndescription: d\n---\n"+strings.Repeat("x", MaxFileBytes))
	write(t, filepath.Join(dir, "ok.md"), "---\ndescription: d\n---\n")
	defs, notices := Load(Options{Cwd: cwd})
	if len(defs) != 1 || defs[0].Name != "ok" {
		t.Fatalf("definitions %+v", defs)
	}
	if len(notices) != 2 || !strings.Contains(strings.Join(notices, "\n"), "larger than 128 KiB") || !strings.Contains(strings.Join(notices, "\n"), "not a regular file") {
		t.Fatalf("notices %q", notices)
	}
}

// A definition is at most MaxFileBytes, frontmatter included, and a huge
// one is refused without being read whole.
func TestReadFileBounds(t *testing.T) {
	dir := t.TempDir()
	head := "---\ndescription: d\n---\n"
	atLimit := filepath.Join(dir, "limit.md")
	write(t, atLimit, head+strings.Repeat("x", MaxFileBytes-len(head)))
	if d, err := ReadFile(atLimit); err != nil || len(d.Instructions) != MaxFileBytes-len(head) {
		t.Fatalf("at the limit: %d bytes of instructions, %v", len(d.Instructions), err)
	}
	over := filepath.Join(dir, "over.md")
	write(t, over, head+strings.Repeat("x", MaxFileBytes-len(head)+1))
	huge := filepath.Join(dir, "huge.md")
	write(t, huge, head)
	if err := os.Truncate(huge, 64<<30); err != nil {
		t.Logf("no sparse 64 GiB file here (%v); the huge case is skipped", err)
		huge = ""
	}
	for _, p := range []string{over, huge} {
		if p == "" {
			continue
		}
		if _, err := ReadFile(p); err == nil || !strings.Contains(err.Error(), "larger than 128 KiB") {
			t.Errorf("%s: error %v, want one saying it is too large", filepath.Base(p), err)
		}
	}
}

func TestResolveCascade(t *testing.T) {
	none := Fields{}
	cases := []struct {
		name                            string
		explicit, role, persona, parent Fields
		want                            Fields
	}{
		{"explicit wins", Fields{Model: "a", Tools: []string{"x"}}, Fields{Model: "b", Tools: []string{"y"}}, Fields{Model: "p", Tools: []string{"p"}}, Fields{Model: "c"}, Fields{Model: "a", Tools: []string{"x"}}},
		{"role over persona", none, Fields{Model: "b", Tools: []string{"y"}}, Fields{Model: "p", Tools: []string{"p"}}, Fields{Model: "c"}, Fields{Model: "b", Tools: []string{"y"}}},
		{"persona over parent", none, none, Fields{Model: "p", Tools: []string{"p"}}, Fields{Model: "c"}, Fields{Model: "p", Tools: []string{"p"}}},
		{"parent when none", none, none, none, Fields{Model: "c"}, Fields{Model: "c"}},
		{"fields resolve independently", Fields{Tools: []string{"x"}}, Fields{Model: "b"}, none, Fields{Model: "c"}, Fields{Model: "b", Tools: []string{"x"}}},
		{"model from the role, tools from the persona", none, Fields{Model: "b"}, Fields{Model: "p", Tools: []string{"p"}}, Fields{Model: "c"}, Fields{Model: "b", Tools: []string{"p"}}},
		{"an empty tool list is a value", none, Fields{Tools: []string{}}, Fields{Tools: []string{"p"}}, Fields{Tools: []string{"z"}}, Fields{Tools: []string{}}},
		{"nothing anywhere", none, none, none, none, none},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Resolve(c.explicit, c.role, c.persona, c.parent); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got %#v, want %#v", got, c.want)
			}
		})
	}
}

// A persona is found where definitions are, the working directory's
// first; one that is missing or malformed is an error naming the file.
func TestReadPersona(t *testing.T) {
	root := t.TempDir()
	cwd := filepath.Join(root, "proj")
	cfg := filepath.Join(root, "config")
	write(t, filepath.Join(cwd, ".quire", "personas", "careful.md"), "---\ntools: [read_file, grep]\n---\nCheck twice.\n")
	write(t, filepath.Join(cfg, "personas", "careful.md"), "Never used: the project's shadows it.\n")
	write(t, filepath.Join(cfg, "personas", "terse.md"), "---\nmodel: small-model\n---\nAnswer in one line.\n")
	write(t, filepath.Join(cfg, "personas", "broken.md"), "---\ntools: [\"a/b\"]\n---\nx\n")
	write(t, filepath.Join(cfg, "personas", "empty.md"), "---\nmodel: m\n---\n")
	opt := Options{Cwd: cwd, ConfigDir: cfg}

	p, err := ReadPersona(opt, "careful")
	if err != nil || p.Instructions != "Check twice." || !reflect.DeepEqual(p.Tools, []string{"read_file", "grep"}) || p.Model != "" {
		t.Fatalf("careful: %+v, %v", p, err)
	}
	p, err = ReadPersona(opt, "terse")
	if err != nil || p.Model != "small-model" || p.Tools != nil || p.Instructions != "Answer in one line." {
		t.Fatalf("terse: %+v, %v", p, err)
	}
	for name, want := range map[string]string{
		"missing":   `the persona "missing" cannot be found: there is no`,
		"broken":    `personas/broken.md: line 2: "a/b" is not a tool name`,
		"empty":     "it has no instructions",
		"../escape": "is not 1 to 64 letters",
	} {
		if _, err := ReadPersona(opt, name); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one containing %q", name, err, want)
		}
	}
}

func TestParseNamesAPersona(t *testing.T) {
	d, err := Parse("stem", []byte("---\ndescription: d\npersona: careful\n---\nRole.\n"))
	if err != nil || d.Persona != "careful" {
		t.Fatalf("%+v, %v", d, err)
	}
	if _, err := Parse("stem", []byte("---\ndescription: d\npersona: not a name\n---\n")); err == nil || !strings.Contains(err.Error(), "line 3: the persona") {
		t.Fatalf("bad persona name: %v", err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("---\nname: a\ndescription: b\ntools: [x, 'y']\n---\nbody"))
	f.Add([]byte("---\ndescription: >\n  a\n\n  b\ntools:\n  - x\n---\n"))
	f.Add([]byte("---\ndescription: \"\\u00e9\"\nm:\n  k: v\n---"))
	f.Add([]byte("\xef\xbb\xbf---\r\nname: x\r\ndescription: d\r\ntools: read_file, grep\r\nmodel: inherit\r\n---\r\n"))
	f.Add([]byte("---\ndescription: d\ntools:\n  - a\n  b: c\n---\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Parse("f", data)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		if !ValidName(d.Name) || d.Description == "" {
			t.Fatalf("accepted a definition without a valid name or a description: %+v", d)
		}
	})
}

func FuzzParsePersona(f *testing.F) {
	f.Add([]byte("Just instructions.\n"))
	f.Add([]byte("---\nmodel: m\ntools: [a, 'b*']\n---\nBe careful.\n"))
	f.Add([]byte("---\npersona: other\n---\nx"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParsePersona(data)
		if err != nil {
			return
		}
		if p.Instructions == "" || strings.ContainsAny(p.Model, " \t\r\n") {
			t.Fatalf("accepted %+v from %q", p, data)
		}
	})
}
