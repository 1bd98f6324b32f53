package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/testserver"
)

// writeTree writes files (path → content) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
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

const releaseSkill = "---\nname: release-notes\ndescription: Write release notes from the changes, in the layout of template.md. Use when asked for release notes.\n---\n\n" +
	"1. Read template.md in this folder.\n2. Fill it in: one line per change.\n"

// quire exec against the scripted model: the model sees the skill in the
// system prompt, loads it, reads the file it names from the folder it
// was told, and answers; --json shows each step; a malformed skill is one
// warning on stderr and the rest works.
func TestExecLoadsASkillAndUsesIt(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	writeTree(t, dir, map[string]string{
		".quire/skills/release-notes/SKILL.md":    releaseSkill,
		".quire/skills/release-notes/template.md": "## Changes\n\n- TEMPLATE-LINE\n",
		".claude/skills/broken/SKILL.md":          "---\nname: broken\ndescription: [unclosed\n---\n",
	})
	skillDir := filepath.Join(dir, ".quire/skills/release-notes")
	srv := startServer(t, testserver.Script{Responses: []testserver.Response{
		testserver.Call("l1", "load_skill", `{"name":"release-notes"}`),
		testserver.Call("r1", "read_file", `{"path":"`+filepath.Join(skillDir, "template.md")+`"}`),
		testserver.Text("## Changes\n\n- skills load on demand\n"),
	}})
	cmd := exec.Command(quireBin, "exec", "--json", "write the release notes")
	cmd.Dir = dir
	cmd.Env = []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "QUIRE_HOME=" + filepath.Join(home, "state"),
		"PATH=" + os.Getenv("PATH"), "OPENAI_BASE_URL=" + srv.URL(), "OPENAI_API_KEY=k", "QUIRE_MODEL=m"}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("quire exec: %v\n%s", err, errOut.String())
	}
	if lines := strings.Split(strings.TrimSpace(errOut.String()), "\n"); len(lines) != 1 ||
		!strings.HasPrefix(lines[0], "quire: .claude/skills/broken/SKILL.md: the frontmatter is not valid YAML") {
		t.Errorf("stderr is not one notice: %q", errOut.String())
	}

	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	sys := reqs[0].Messages[0].Content
	if !strings.Contains(sys, "- release-notes: Write release notes from the changes") || strings.Contains(sys, "Fill it in") {
		t.Fatalf("the system prompt does not list the skill, or holds its body:\n%s", sys)
	}
	results := map[string]string{}
	for _, m := range reqs[2].Messages {
		if m.Role == "tool" {
			results[m.ToolCallID] = m.Content
		}
	}
	if l := results["l1"]; !strings.Contains(l, "Its folder is "+skillDir) || !strings.Contains(l, "2. Fill it in: one line per change.") || strings.Contains(l, "description:") {
		t.Errorf("load_skill gave the model %q", l)
	}
	if !strings.Contains(results["r1"], "TEMPLATE-LINE") {
		t.Errorf("read_file gave the model %q", results["r1"])
	}

	// The JSONL shows the skill loaded, as a call like any other.
	var kinds []string
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		var e struct {
			Kind string `json:"kind"`
			Call *struct {
				Name   string `json:"name"`
				Target string `json:"target"`
			} `json:"call"`
			Result *struct {
				Status string `json:"status"`
			} `json:"result"`
		}
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("not JSONL: %q", sc.Text())
		}
		switch {
		case e.Kind == "tool_call" && e.Call != nil:
			kinds = append(kinds, "call "+e.Call.Name+" "+e.Call.Target)
		case e.Kind == "tool_finished" && e.Result != nil:
			kinds = append(kinds, "finished "+e.Result.Status)
		case e.Kind == "notice":
			kinds = append(kinds, "notice")
		}
	}
	want := "notice|call load_skill release-notes|finished ok|call read_file .quire/skills/release-notes/template.md|finished ok"
	if got := strings.Join(kinds, "|"); got != want {
		t.Errorf("events\n%s\nwant\n%s", got, want)
	}
}

// quire exec runs a custom command in its prompt: the model gets the
// expansion, the log the line typed.
func TestExecRunsACustomCommand(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	writeTree(t, home, map[string]string{".config/quire/commands/explain.md": "---\ndescription: Explain code\n---\nExplain $1 to a newcomer, briefly.\n"})
	srv := startServer(t, testserver.Script{Responses: []testserver.Response{testserver.Text("It prints.")}})
	cmd := exec.Command(quireBin, "exec", "--json", "/explain main.go")
	cmd.Dir = dir
	cmd.Env = []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "QUIRE_HOME=" + filepath.Join(home, "state"),
		"PATH=" + os.Getenv("PATH"), "OPENAI_BASE_URL=" + srv.URL(), "OPENAI_API_KEY=k", "QUIRE_MODEL=m"}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("quire exec: %v\n%s", err, errOut.String())
	}
	if got := srv.Requests()[0].LastMessage().Content; got != "Explain main.go to a newcomer, briefly." {
		t.Fatalf("the model got %q", got)
	}
	if !strings.Contains(out.String(), `"kind":"user_message"`) || !strings.Contains(out.String(), `"command":"/explain main.go"`) {
		t.Fatalf("the JSONL does not record the command:\n%s", out.String())
	}
}

// In the terminal: /help lists the project's command, Tab completes it,
// Enter sends its expansion and the transcript shows the line typed with
// the expansion folded; /skills lists the skills and what they shadow.
func TestTypingACustomCommand(t *testing.T) {
	srv := startServer(t, testserver.Script{Responses: []testserver.Response{textResponse("Reviewed: REVIEW-DONE.\n", 0)}})
	p := newPane(t, 110, 36)
	writeTree(t, p.dir, map[string]string{
		".quire/commands/review.md":            "---\ndescription: Review a file for bugs\nargument-hint: FILE\n---\nYou are a careful reviewer.\nReview $1 for bugs.\n",
		".quire/skills/release-notes/SKILL.md": releaseSkill,
	})
	writeTree(t, p.home, map[string]string{".config/quire/skills/release-notes/SKILL.md": strings.Replace(releaseSkill, "Write release", "The user's release", 1)})
	p.run(srv.URL())
	p.waitText("Ask anything", 10*time.Second)

	p.literal("/help")
	p.keys("Enter")
	s := p.waitText("Custom commands", 10*time.Second)
	if l := lineOf(s, "/review"); !strings.Contains(l, "FILE") || !strings.Contains(l, "Review a file for bugs (project)") {
		t.Fatalf("/help shows %q:\n%s", l, s)
	}
	p.keys("q")
	p.literal("/skills")
	p.keys("Enter")
	s = p.waitText("release-notes", 10*time.Second)
	if !strings.Contains(s, "shadows user ~/.config/quire/skills/release-notes/SKILL.md") || !strings.Contains(s, "quire-extensions") {
		t.Fatalf("/skills shows:\n%s", s)
	}
	p.keys("q")

	p.literal("/rev")
	p.keys("Tab")
	p.waitText("› /review", 10*time.Second) // with a space after it, which the capture trims
	p.literal("main.go")
	p.keys("Enter")
	s = p.waitText("REVIEW-DONE", 10*time.Second)
	area := transcriptArea(s)
	if !strings.Contains(area, "› /review main.go") || !strings.Contains(area, "▸ 2 more lines") || strings.Contains(area, "careful reviewer") {
		t.Fatalf("the transcript does not show the line typed with the expansion folded:\n%s", area)
	}
	if got := srv.Requests()[0].LastMessage().Content; got != "You are a careful reviewer.\nReview main.go for bugs." {
		t.Fatalf("the model got %q", got)
	}
	quit(p)
}
