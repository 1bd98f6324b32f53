package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/testserver"
)

// transcriptArea is the screen above the prompt's rule: what the pager
// shows of the transcript, without the prompt and status line.
func transcriptArea(screen string) string {
	lines := strings.Split(screen, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "────") {
			return strings.Join(lines[:i], "\n")
		}
	}
	return screen
}

// sessionIDs lists the stored sessions of a pane's home.
func sessionIDs(t *testing.T, p *pane) []string {
	t.Helper()
	cmd := exec.Command(quireBin, "sessions", "--json")
	cmd.Env = p.env("")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("quire sessions --json: %v", err)
	}
	var rows []struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(out, &rows); err != nil {
		t.Fatalf("quire sessions --json printed %q: %v", out, err)
	}
	var ids []string
	for _, r := range rows {
		ids = append(ids, r.ID)
	}
	return ids
}

func TestReplayDrawsTheScreenTheLiveRunDrew(t *testing.T) {
	srv := startServer(t, testserver.Script{Responses: []testserver.Response{
		testserver.Call("r1", "read_file", `{"path":"plan.md"}`),
		textResponse(answer, 2*time.Millisecond),
	}})
	p := newPane(t, 90, 34)
	if err := os.WriteFile(filepath.Join(p.dir, "plan.md"), []byte("# Plan\n\n1. write tests\n2. ship\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p.run(srv.URL(), "--approval", "auto-edit")
	p.waitText("Ask anything", 10*time.Second)
	p.literal("read the plan")
	p.keys("Enter")
	p.waitText("nothing else", 10*time.Second)
	live := transcriptArea(p.waitText("ready", 5*time.Second))
	quit(p)

	ids := sessionIDs(t, p)
	if len(ids) != 1 {
		t.Fatalf("want one stored session, got %v", ids)
	}
	r := newPane(t, 90, 34)
	r.home = p.home
	r.dir = p.dir
	r.run("", "replay", "--instant", ids[0])
	replayed := transcriptArea(r.waitText("nothing else", 10*time.Second))
	if replayed != live {
		t.Fatalf("the replay draws a different screen.\nlive:\n%s\nreplay:\n%s", live, replayed)
	}
	r.keys("q")
	r.waitText("QUIRE-EXIT=0", 5*time.Second)
	r.sttySane()
}

func TestDemoRunsToCompletion(t *testing.T) {
	p := newPane(t, 110, 60)
	p.run("", "demo")
	p.waitText("[y] yes", 15*time.Second)
	p.keys("y")
	p.waitText("Now let me check", 10*time.Second)
	p.waitText("[y] yes", 10*time.Second)
	p.keys("y")
	s := p.waitText("catch this kind of slip", 20*time.Second)
	for _, want := range []string{"demo model", "Fixed: a typo", "the sandbox refused a write outside the project"} {
		if !strings.Contains(s, want) {
			t.Errorf("the demo screen lacks %q:\n%s", want, s)
		}
	}
	quit(p)
}

func TestReplayBadInput(t *testing.T) {
	dir := t.TempDir()
	notTranscript := filepath.Join(dir, "notes.txt")
	os.WriteFile(notTranscript, []byte("just some notes\n"), 0o644)
	newer := filepath.Join(dir, "newer.jsonl")
	os.WriteFile(newer, []byte(`{"quire_transcript":1,"schema":99,"id":"x"}`+"\n"+`{"v":99,"seq":1,"kind":"notice","text":"hi"}`+"\n"), 0o644)
	truncated := filepath.Join(dir, "cut.jsonl")
	os.WriteFile(truncated, []byte(`{"quire_transcript":1,"schema":1,"id":"x"}`+"\n"+`{"v":1,"seq":1,"kind":"not`), 0o644)
	home := t.TempDir()
	tests := []struct {
		name string
		arg  string
		want string
	}{
		{"missing id", "20990101-nothing", "neither a transcript file nor a stored session"},
		{"not a transcript", notTranscript, "not a readable quire transcript"},
		{"newer schema", newer, "newer"},
		{"truncated", truncated, "line 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(quireBin, "replay", "--print", tt.arg)
			cmd.Env = []string{"HOME=" + home, "QUIRE_HOME=" + filepath.Join(home, "state"), "PATH=" + os.Getenv("PATH")}
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			if err == nil {
				t.Fatal("exit status 0 for bad input")
			}
			if stdout.Len() != 0 {
				t.Errorf("something was drawn: %q", stdout.String())
			}
			msg := strings.TrimSpace(stderr.String())
			if strings.Count(msg, "\n") != 0 || !strings.Contains(msg, tt.want) {
				t.Errorf("stderr %q: want one line mentioning %q", msg, tt.want)
			}
		})
	}
}
