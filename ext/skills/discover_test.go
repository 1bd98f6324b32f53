package skills

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// tree writes files (path → content) under dir.
func tree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, content := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func skillMD(name, desc string) string {
	return "---\nname: " + name + "\ndescription: " + desc + "\n---\n\nBody of " + name + ".\n"
}

// layout is a home with a config dir, a repository and a directory below
// its root where quire runs.
type layout struct {
	home, config, repo, cwd, extra string
}

func newLayout(t *testing.T) layout {
	home := t.TempDir()
	l := layout{home: home, config: filepath.Join(home, ".config", "quire"), repo: filepath.Join(home, "src", "proj"), extra: filepath.Join(home, "team-skills")}
	l.cwd = filepath.Join(l.repo, "sub")
	tree(t, l.repo, map[string]string{".git/HEAD": "ref: refs/heads/main\n"})
	os.MkdirAll(l.cwd, 0o755)
	return l
}

func (l layout) discover(paths ...string) *Catalog {
	return Discover(Options{Cwd: l.cwd, ConfigDir: l.config, Home: l.home, Settings: Settings{Paths: paths}})
}

type found struct {
	Name, Layer, Shown string
	Shadows            []string
}

func skillsOf(c *Catalog, builtin bool) []found {
	var out []found
	for _, s := range c.Skills {
		if s.Layer == Builtin && !builtin {
			continue
		}
		f := found{Name: s.Name, Layer: s.Layer.String(), Shown: s.Shown}
		for _, sh := range s.Shadows {
			f.Shadows = append(f.Shadows, sh.Layer.String()+" "+sh.Shown)
		}
		out = append(out, f)
	}
	return out
}

func TestSkillPrecedence(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]map[string]string // layout dir → files
		paths []string
		want  []found
	}{
		{
			name:  "each layer alone",
			files: map[string]map[string]string{"cwd": {".quire/skills/a/SKILL.md": skillMD("a", "A here")}, "repo": {".quire/skills/b/SKILL.md": skillMD("b", "B at the root")}, "config": {"skills/c/SKILL.md": skillMD("c", "C of the user")}, "extra": {"d/SKILL.md": skillMD("d", "D configured")}},
			paths: []string{"~/team-skills"},
			want: []found{
				{Name: "a", Layer: "project", Shown: ".quire/skills/a/SKILL.md"},
				{Name: "b", Layer: "project", Shown: "~/src/proj/.quire/skills/b/SKILL.md"},
				{Name: "c", Layer: "user", Shown: "~/.config/quire/skills/c/SKILL.md"},
				{Name: "d", Layer: "configured", Shown: "~/team-skills/d/SKILL.md"},
			},
		},
		{
			name: "cwd over repo over user over configured",
			files: map[string]map[string]string{
				"cwd":    {".quire/skills/x/SKILL.md": skillMD("x", "cwd")},
				"repo":   {".quire/skills/x/SKILL.md": skillMD("x", "repo")},
				"config": {"skills/x/SKILL.md": skillMD("x", "user")},
				"extra":  {"x/SKILL.md": skillMD("x", "configured")},
			},
			paths: []string{"~/team-skills"},
			want: []found{{Name: "x", Layer: "project", Shown: ".quire/skills/x/SKILL.md", Shadows: []string{
				"project ~/src/proj/.quire/skills/x/SKILL.md", "user ~/.config/quire/skills/x/SKILL.md", "configured ~/team-skills/x/SKILL.md"}}},
		},
		{
			name: ".quire over .agents over .claude",
			files: map[string]map[string]string{"cwd": {
				".claude/skills/x/SKILL.md": skillMD("x", "claude"), ".agents/skills/x/SKILL.md": skillMD("x", "agents"), ".quire/skills/x/SKILL.md": skillMD("x", "quire"),
				".claude/skills/y/SKILL.md": skillMD("y", "claude only"),
			}},
			want: []found{
				{Name: "x", Layer: "project", Shown: ".quire/skills/x/SKILL.md", Shadows: []string{"project .agents/skills/x/SKILL.md", "project .claude/skills/x/SKILL.md"}},
				{Name: "y", Layer: "project", Shown: ".claude/skills/y/SKILL.md"},
			},
		},
		{
			name:  "a user skill shadows the built-in one",
			files: map[string]map[string]string{"config": {"skills/quire-extensions/SKILL.md": skillMD("quire-extensions", "mine")}},
			want:  []found{{Name: "quire-extensions", Layer: "user", Shown: "~/.config/quire/skills/quire-extensions/SKILL.md", Shadows: []string{"built-in built into quire"}}},
		},
		{
			name: "folders without SKILL.md, hidden folders and files are not skills",
			files: map[string]map[string]string{"cwd": {
				".quire/skills/notes/README.md": "x", ".quire/skills/.hidden/SKILL.md": skillMD(".hidden", "h"), ".quire/skills/loose.md": "x",
				".quire/skills/ok/SKILL.md": skillMD("ok", "fine"),
			}},
			want: []found{{Name: "ok", Layer: "project", Shown: ".quire/skills/ok/SKILL.md"}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := newLayout(t)
			dirs := map[string]string{"cwd": l.cwd, "repo": l.repo, "config": l.config, "extra": l.extra}
			for d, files := range tc.files {
				tree(t, dirs[d], files)
			}
			c := l.discover(tc.paths...)
			if len(c.Notices) != 0 {
				t.Errorf("notices: %q", c.Notices)
			}
			got := skillsOf(c, tc.name == "a user skill shadows the built-in one")
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got  %+v\nwant %+v", got, tc.want)
			}
			for _, w := range tc.want {
				s, ok := c.Skill(w.Name)
				if !ok || s.Shown != w.Shown {
					t.Errorf("Skill(%q) = %+v, %v", w.Name, s, ok)
				}
			}
		})
	}
}

func TestBuiltinSkillIsThere(t *testing.T) {
	c := Discover(Options{Cwd: t.TempDir()})
	s, ok := c.Skill("quire-extensions")
	if !ok || s.Layer != Builtin || len(c.Notices) != 0 {
		t.Fatalf("built-in skill: %+v %v, notices %q", s, ok, c.Notices)
	}
	out, _, err := s.Load()
	if err != nil || !strings.Contains(out, "$ARGUMENTS") || strings.Contains(out, "---\nname: quire-extensions") {
		t.Fatalf("load: %v\n%s", err, out)
	}
}

func TestMalformedSkillsAreOneNoticeEach(t *testing.T) {
	l := newLayout(t)
	files := map[string]string{
		".quire/skills/good/SKILL.md":        skillMD("good", "works"),
		".quire/skills/nofront/SKILL.md":     "# just markdown\n",
		".quire/skills/unclosed/SKILL.md":    "---\nname: unclosed\ndescription: x\n",
		".quire/skills/badyaml/SKILL.md":     "---\nname: badyaml\ndescription: [x\n---\n",
		".quire/skills/nodesc/SKILL.md":      "---\nname: nodesc\n---\nbody\n",
		".quire/skills/wrongname/SKILL.md":   skillMD("other", "x"),
		".quire/skills/Bad_Name/SKILL.md":    skillMD("Bad_Name", "x"),
		".quire/skills/longdesc/SKILL.md":    skillMD("longdesc", strings.Repeat("x", maxDescription+1)),
		".quire/skills/typed/SKILL.md":       "---\nname: typed\ndescription:\n  - a list\n---\n",
		".quire/skills/dir-as-file/SKILL.md": "",
	}
	tree(t, l.cwd, files)
	// SKILL.md that is a directory.
	os.Remove(filepath.Join(l.cwd, ".quire/skills/dir-as-file/SKILL.md"))
	os.MkdirAll(filepath.Join(l.cwd, ".quire/skills/dir-as-file/SKILL.md"), 0o755)
	c := l.discover()
	want := map[string]string{
		"nofront":     "there is no frontmatter",
		"unclosed":    "no closing --- line",
		"badyaml":     "not valid YAML: line 3",
		"nodesc":      "there is no description",
		"wrongname":   `the name "other" is not its folder's name "wrongname"`,
		"Bad_Name":    "may hold only lowercase letters",
		"longdesc":    "the description is 1025 characters long",
		"typed":       "a list where text belongs",
		"dir-as-file": "not a regular file",
	}
	if len(c.Notices) != len(want) {
		t.Fatalf("%d notices, want %d: %q", len(c.Notices), len(want), c.Notices)
	}
	for name, problem := range want {
		var hit string
		for _, n := range c.Notices {
			if strings.HasPrefix(n, filepath.Join(".quire/skills", name, "SKILL.md")+": ") {
				hit = n
			}
		}
		if hit == "" || !strings.Contains(hit, problem) || !strings.HasSuffix(hit, "; the skill is skipped") || strings.Contains(hit, "\n") {
			t.Errorf("%s: notice %q, want one line with %q", name, hit, problem)
		}
	}
	if got := skillsOf(c, false); len(got) != 1 || got[0].Name != "good" {
		t.Fatalf("skills %+v, want only good", got)
	}
}

// A malformed skill does not shadow a good one of the same name below it.
func TestMalformedSkillShadowsNothing(t *testing.T) {
	l := newLayout(t)
	tree(t, l.cwd, map[string]string{".quire/skills/x/SKILL.md": "---\nname: x\n---\n"})
	tree(t, l.config, map[string]string{"skills/x/SKILL.md": skillMD("x", "the user's")})
	c := l.discover()
	s, ok := c.Skill("x")
	if !ok || s.Layer != User || len(s.Shadows) != 0 || len(c.Notices) != 1 {
		t.Fatalf("x = %+v, notices %q", s, c.Notices)
	}
}

func TestConfiguredPaths(t *testing.T) {
	l := newLayout(t)
	c := l.discover("relative/skills", "~/missing", filepath.Join(l.home, "team-skills"))
	os.MkdirAll(l.extra, 0o755)
	want := []string{
		`[skills] paths: "relative/skills" is not an absolute path (or one starting with ~/); it is skipped`,
		"[skills] paths: ~/missing does not exist",
		"[skills] paths: ~/team-skills does not exist",
	}
	if !reflect.DeepEqual(c.Notices, want) {
		t.Fatalf("notices %q", c.Notices)
	}
	// No home: ~ cannot be resolved.
	c = Discover(Options{Cwd: l.cwd, Settings: Settings{Paths: []string{"~/x"}}})
	if len(c.Notices) != 1 || !strings.Contains(c.Notices[0], "not an absolute path") {
		t.Fatalf("no home: %q", c.Notices)
	}
}

func TestNoRepositoryMeansTheWorkingDirectoryOnly(t *testing.T) {
	dir := t.TempDir()
	tree(t, dir, map[string]string{".quire/skills/a/SKILL.md": skillMD("a", "here")})
	c := Discover(Options{Cwd: dir})
	if s, ok := c.Skill("a"); !ok || s.Layer != Local {
		t.Fatalf("a = %+v %v", s, ok)
	}
}

// A large SKILL.md is read only as far as its frontmatter; its size never
// reaches the catalog.
func TestHugeSkillReadsOnlyItsFrontmatter(t *testing.T) {
	l := newLayout(t)
	tree(t, l.cwd, map[string]string{".quire/skills/big/SKILL.md": skillMD("big", "a big one") + strings.Repeat("filler line\n", 1<<20)})
	c := l.discover()
	s, ok := c.Skill("big")
	if !ok || len(c.Notices) != 0 {
		t.Fatalf("big: %v, notices %q", ok, c.Notices)
	}
	if p := c.Prompt(); len(p) > 2000 || strings.Contains(p, "filler") {
		t.Fatalf("the prompt holds the body: %d bytes", len(p))
	}
	out, truncated, err := s.Load()
	if err != nil || !truncated || len(out) > maxSkillBody+1000 {
		t.Fatalf("load: %d bytes, truncated %v, %v", len(out), truncated, err)
	}
	if !strings.Contains(out, "read the rest of "+s.Path+" with read_file from line ") {
		t.Fatalf("no note on the rest: %q", out[len(out)-300:])
	}
}

func TestCommandDiscovery(t *testing.T) {
	l := newLayout(t)
	tree(t, l.cwd, map[string]string{
		".quire/commands/review.md": "---\ndescription: Review a file\nargument-hint: FILE\n---\nReview $1.\n",
		".quire/commands/plain.md":  "# Summarise the diff\n\nSummarise what changed.\n",
		".quire/commands/notes.txt": "not a command",
		".quire/commands/Bad.md":    "x",
		".quire/commands/empty.md":  "---\ndescription: nothing\n---\n\n",
		".quire/commands/broken.md": "---\ndescription: [\n---\nx\n",
	})
	tree(t, l.repo, map[string]string{".quire/commands/review.md": "root's review", ".quire/commands/deploy_check.md": "Check the deploy."})
	tree(t, l.config, map[string]string{"commands/review.md": "the user's review", "commands/mine.md": "---\ndescription: |\n  Mine,\n  on two lines\n---\nDo it.\n"})
	c := l.discover()
	type cmd struct{ Name, Desc, Hint, Layer, Shown string }
	var got []cmd
	for _, x := range c.Commands {
		got = append(got, cmd{x.Name, x.Description, x.ArgumentHint, x.Layer.String(), x.Shown})
	}
	want := []cmd{
		{"deploy_check", "Check the deploy.", "", "project", "~/src/proj/.quire/commands/deploy_check.md"},
		{"mine", "Mine, on two lines", "", "user", "~/.config/quire/commands/mine.md"},
		{"plain", "Summarise the diff", "", "project", ".quire/commands/plain.md"},
		{"review", "Review a file", "FILE", "project", ".quire/commands/review.md"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
	review := c.Commands[3]
	if len(review.Shadows) != 2 || review.Shadows[0].Shown != "~/src/proj/.quire/commands/review.md" || review.Shadows[1].Layer != User {
		t.Fatalf("review shadows %+v", review.Shadows)
	}
	if len(c.Notices) != 3 {
		t.Fatalf("notices %q", c.Notices)
	}
	for i, want := range []string{".quire/commands/Bad.md: the name \"Bad\"", ".quire/commands/broken.md: the frontmatter is not valid YAML", ".quire/commands/empty.md: the command has no text to send"} {
		if !strings.HasPrefix(c.Notices[i], want) || !strings.HasSuffix(c.Notices[i], "; the command is skipped") {
			t.Errorf("notice %d = %q, want %q…", i, c.Notices[i], want)
		}
	}
}
