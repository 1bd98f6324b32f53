package session

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/testserver"
)

// project writes a repository with skills and commands, good and bad,
// and a user config dir with one skill, and points HOME and
// XDG_CONFIG_HOME at them.
func skillsProject(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	dir := filepath.Join(home, "proj")
	for p, content := range map[string]string{
		".git/HEAD":                            "ref: refs/heads/main\n",
		".quire/skills/pdf/SKILL.md":           "---\nname: pdf\ndescription: Extract text from PDF files.\n---\nUse scripts/extract.py.\n",
		".quire/skills/bad/SKILL.md":           "---\nname: bad\n---\nno description\n",
		".quire/commands/review.md":            "---\ndescription: Review a file\nargument-hint: FILE\n---\nReview $1 carefully.\n",
		".quire/commands/help.md":              "my own help",
		"../.config/quire/skills/pdf/SKILL.md": "---\nname: pdf\ndescription: The user's PDF skill.\n---\nx\n",
	} {
		full := filepath.Join(dir, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func toolNames(r testserver.Request) []string {
	var out []string
	for _, t := range r.Tools {
		out = append(out, t.Function.Name)
	}
	return out
}

func TestSkillsAndCommandsReachTheSession(t *testing.T) {
	srv := startServer(t, testserver.Text("one"), testserver.Text("two"), testserver.Text("three"))
	cfg := testConfig(t, srv, "ask")
	dir := skillsProject(t) // after testConfig, whose config dir it replaces
	h := openHandle(t, Options{Config: cfg, Cwd: dir})
	var notices []string
	for e := range h.Events() {
		if e.Kind == event.Notice {
			notices = append(notices, e.Text)
		}
		if len(notices) == 2 {
			break
		}
	}
	if !strings.Contains(notices[0], ".quire/skills/bad/SKILL.md: there is no description") ||
		!strings.Contains(notices[1], ".quire/commands/help.md: /help is quire's own command, which wins") {
		t.Fatalf("notices %q", notices)
	}

	opt := h.AppOptions()
	if len(opt.Commands) != 1 || opt.Commands[0].Name != "review" || opt.Commands[0].Args != "FILE" || opt.Commands[0].Source != "project" {
		t.Fatalf("commands %+v", opt.Commands)
	}
	var skills []string
	for _, s := range opt.Skills {
		skills = append(skills, s.Name+" "+s.Source+" "+strings.Join(s.Shadows, ","))
	}
	if strings.Join(skills, "|") != "pdf project user ~/.config/quire/skills/pdf/SKILL.md|quire-extensions built-in " {
		t.Fatalf("skills %q", skills)
	}
	text, err := opt.Commands[0].Expand(context.Background(), "main.go")
	if err != nil || text != "Review main.go carefully." {
		t.Fatalf("expand: %q, %v", text, err)
	}
	h.SubmitCommand("/review main.go", text)
	e := until(t, h.Events(), event.UserMessage)
	if e.Command != "/review main.go" || e.Text != "Review main.go carefully." {
		t.Fatalf("user message %+v", e)
	}
	until(t, h.Events(), event.TurnEnded)

	check := func(r testserver.Request) {
		t.Helper()
		sys := r.Messages[0].Content
		if !strings.Contains(sys, "# Skills") || !strings.Contains(sys, "- pdf: Extract text from PDF files.\n") || strings.Contains(sys, "Use scripts/extract.py") {
			t.Errorf("system prompt:\n%s", sys)
		}
		if !strings.Contains(strings.Join(toolNames(r), ","), "load_skill") {
			t.Errorf("tools %v", toolNames(r))
		}
	}
	reqs := srv.Requests()
	check(reqs[0])
	if got := reqs[0].LastMessage().Content; got != "Review main.go carefully." {
		t.Fatalf("the model got %q", got)
	}
	// Another model keeps the skills, and says nothing again.
	if _, err := h.SwitchModel(context.Background(), "other"); err != nil {
		t.Fatal(err)
	}
	h.Submit("again")
	for e := range h.Events() {
		if e.Kind == event.Notice && e.Level == "warn" {
			t.Fatalf("a notice again after /model: %q", e.Text)
		}
		if e.Kind == event.TurnEnded {
			break
		}
	}
	check(srv.Requests()[1])
}

func TestExecRunsACustomCommand(t *testing.T) {
	srv := startServer(t, testserver.Text("reviewed"))
	cfg := testConfig(t, srv, "ask")
	dir := skillsProject(t) // after testConfig, whose config dir it replaces
	var out, errOut bytes.Buffer
	state, err := Exec(context.Background(), Options{Config: cfg, Cwd: dir, NoStore: true},
		ExecOptions{Prompt: "/review main.go", Stdout: &out, Stderr: &errOut})
	if err != nil || state != event.TurnCompleted || out.String() != "reviewed\n" {
		t.Fatalf("exec: %v %s %q", err, state, out.String())
	}
	if got := srv.Requests()[0].LastMessage().Content; got != "Review main.go carefully." {
		t.Fatalf("the model got %q", got)
	}
	// The notices are warnings on stderr.
	if !strings.Contains(errOut.String(), "quire: .quire/skills/bad/SKILL.md: there is no description") {
		t.Fatalf("stderr %q", errOut.String())
	}
	for prompt, want := range map[string]string{
		"/revew x": "unknown command /revew (did you mean /review?)",
		"/help":    "/help is a command of the interactive prompt; quire exec runs only custom commands and MCP prompts",
	} {
		_, err := Exec(context.Background(), Options{Config: testConfig(t, srv, "ask"), Cwd: dir, NoStore: true},
			ExecOptions{Prompt: prompt, Stdout: &out, Stderr: &errOut})
		if err == nil || err.Error() != want {
			t.Errorf("%s: %v", prompt, err)
		}
	}
	if n := len(srv.Requests()); n != 1 {
		t.Fatalf("%d requests", n)
	}
}
