package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/testserver"
	"github.com/quire-sh/quire/render/rendertest"
)

const answer = "# Release checklist\n\n" +
	"Before tagging, make sure the **build is green** and the notes are written.\n\n" +
	"```go\nfunc main() {\n\tfmt.Println(\"ship it\")\n}\n```\n\n" +
	"That is all: *nothing else* is needed.\n"

func textResponse(s string, pace time.Duration) testserver.Response {
	return testserver.Response{Text: testserver.Chunks(s, 7), Pace: testserver.Duration(pace)}
}

func TestFullScreenStreamsRenderedMarkdown(t *testing.T) {
	srv := startServer(t, testserver.Script{Responses: []testserver.Response{textResponse(answer, 5*time.Millisecond)}})
	p := newPane(t, 90, 30)
	p.run(srv.URL())
	p.waitText("Ask anything", 10*time.Second)
	p.literal("what is left before the release?")
	p.keys("Enter")
	// Wait for the words after the closing "*": until it arrives, "*nothing
	// else" is literal text, exactly as a one-shot render of that prefix shows it.
	s := p.waitText("is needed", 10*time.Second)
	for _, raw := range []string{"**", "```", "*nothing"} {
		if strings.Contains(s, raw) {
			t.Errorf("raw markdown %q on screen:\n%s", raw, s)
		}
	}
	if !strings.Contains(s, "Release checklist") || !strings.Contains(s, "build is green") {
		t.Fatalf("the answer is not on screen:\n%s", s)
	}
	styled := p.styled()
	if !styleOn(styled, "build is green", `1`) {
		t.Errorf("bold text is not bold:\n%q", lineOf(styled, "build is green"))
	}
	if !regexp.MustCompile(`\x1b\[[0-9;]*(3[0-9]|38;[25];[0-9;]+)m[^\n]*Println`).MatchString(styled) {
		t.Errorf("the code block is not highlighted:\n%q", lineOf(styled, "Println"))
	}
	quit(p)
}

func TestApproveWriteFile(t *testing.T) {
	srv := startServer(t, testserver.Script{Responses: []testserver.Response{
		testserver.Call("w1", "write_file", `{"path":"notes.txt","content":"approved content\n"}`),
		textResponse("Wrote notes.txt.\n", 0),
	}})
	p := newPane(t, 100, 30)
	p.run(srv.URL(), "--approval", "ask")
	p.waitText("Ask anything", 10*time.Second)
	p.literal("write the notes")
	p.keys("Enter")
	p.waitText("[y] yes", 10*time.Second)
	if _, err := os.Stat(filepath.Join(p.dir, "notes.txt")); err == nil {
		t.Fatal("the file was written before it was approved")
	}
	p.keys("y")
	p.waitText("Wrote notes.txt", 10*time.Second)
	got, err := os.ReadFile(filepath.Join(p.dir, "notes.txt"))
	if err != nil || string(got) != "approved content\n" {
		t.Fatalf("notes.txt = %q, %v", got, err)
	}
	quit(p)
}

func TestRejectShellTellsTheModel(t *testing.T) {
	srv := startServer(t, testserver.Script{Responses: []testserver.Response{
		testserver.Call("s1", "shell", `{"command":"touch pwned"}`),
		textResponse("Fine, I will not run it.\n", 0),
	}})
	p := newPane(t, 100, 30)
	p.run(srv.URL())
	p.waitText("Ask anything", 10*time.Second)
	p.literal("clean up")
	p.keys("Enter")
	p.waitText("[y] yes", 10*time.Second)
	p.keys("n")
	p.waitText("reason for the model", 5*time.Second)
	p.literal("not on my machine")
	p.keys("Enter")
	// A denial ends the turn; the model hears the reason with the next
	// prompt, in the result of the call it asked for.
	p.waitText("Turn cancelled", 10*time.Second)
	p.literal("then just summarise")
	p.keys("Enter")
	p.waitText("I will not run it", 10*time.Second)
	if _, err := os.Stat(filepath.Join(p.dir, "pwned")); err == nil {
		t.Fatal("the rejected command ran")
	}
	reqs := srv.Requests()
	if len(reqs) < 2 {
		t.Fatalf("the model was asked %d times, want 2", len(reqs))
	}
	told := false
	for _, m := range reqs[1].Messages {
		if m.Role == "tool" && m.ToolCallID == "s1" && strings.Contains(m.Content, "not on my machine") {
			told = true
		}
	}
	if !told {
		t.Fatalf("the model was not told the reason: %+v", reqs[1].Messages)
	}
	quit(p)
}

func TestResizeMidStream(t *testing.T) {
	var long strings.Builder
	for i := 1; i <= 60; i++ {
		fmt.Fprintf(&long, "Paragraph %d of a long answer that keeps streaming while the window changes size.\n\n", i)
	}
	long.WriteString("THE-END\n")
	srv := startServer(t, testserver.Script{Responses: []testserver.Response{textResponse(long.String(), 3*time.Millisecond)}})
	p := newPane(t, 100, 30)
	p.run(srv.URL())
	p.waitText("Ask anything", 10*time.Second)
	p.literal("go")
	p.keys("Enter")
	p.waitText("Paragraph 5 ", 10*time.Second)
	p.resize(60, 20)
	p.waitText("Paragraph 20", 10*time.Second)
	p.resize(120, 40)
	s := p.waitText("THE-END", 20*time.Second)
	for _, l := range strings.Split(s, "\n") {
		if len([]rune(l)) > 120 {
			t.Fatalf("a line is wider than the pane after resizes: %q", l)
		}
	}
	if !strings.Contains(s, "Paragraph 60 of a long answer") {
		t.Fatalf("the end of the answer is not laid out at the new width:\n%s", s)
	}
	quit(p)
}

func TestMinimalPutsEveryLineInScrollbackOnce(t *testing.T) {
	var long strings.Builder
	for i := 1; i <= 80; i++ {
		fmt.Fprintf(&long, "answer-line-%03d\n\n", i)
	}
	srv := startServer(t, testserver.Script{Responses: []testserver.Response{textResponse(long.String(), 2*time.Millisecond)}})
	p := newPane(t, 80, 24)
	p.run(srv.URL(), "--minimal")
	p.waitText("Ask anything", 10*time.Second)
	p.literal("count")
	p.keys("Enter")
	p.waitFor("the answer to finish", 20*time.Second, func(string) bool {
		return strings.Contains(p.history(), "answer-line-080") && strings.Contains(p.screen(), "ready")
	})
	quit(p)
	h := p.history()
	for i := 1; i <= 80; i++ {
		l := fmt.Sprintf("answer-line-%03d", i)
		if n := strings.Count(h, l); n != 1 {
			t.Fatalf("%s appears %d times in the terminal's scrollback, want once:\n%s", l, n, h)
		}
	}
	if n := strings.Count(h, "› count"); n != 1 {
		t.Fatalf("the prompt appears %d times in scrollback", n)
	}
}

// quit presses Ctrl+C twice and checks that quire exited cleanly and left
// the tty sane.
func quit(p *pane) {
	p.t.Helper()
	p.keys("C-c")
	time.Sleep(100 * time.Millisecond)
	p.keys("C-c")
	p.waitText("QUIRE-EXIT=0", 10*time.Second)
	p.sttySane()
}

// styleOn reports whether the line holding text has an SGR that includes
// param before text.
func styleOn(styled, text, param string) bool {
	l := lineOf(styled, text)
	i := strings.Index(l, text)
	if i < 0 {
		return false
	}
	re := regexp.MustCompile(`\x1b\[([0-9;]*)m`)
	on := false
	for _, m := range re.FindAllStringSubmatchIndex(l[:i], -1) {
		params := strings.Split(l[m[2]:m[3]], ";")
		for _, p := range params {
			if p == param {
				on = true
			}
			if p == "" || p == "0" || p == "22" {
				on = false
			}
		}
	}
	return on
}

func lineOf(s, text string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, text) {
			return l
		}
	}
	return ""
}

// --record writes what the terminal was sent, as asciicast v2: played
// into a terminal emulator it shows the screen tmux showed.
func TestRecordingReplaysTheScreen(t *testing.T) {
	srv := startServer(t, testserver.Script{Responses: []testserver.Response{textResponse(answer, time.Millisecond)}})
	p := newPane(t, 90, 30)
	cast := filepath.Join(t.TempDir(), "session.cast")
	p.run(srv.URL(), "--record", cast)
	p.waitText("Ask anything", 10*time.Second)
	p.literal("what is left before the release?")
	p.keys("Enter")
	p.waitFor("the answer, settled", 10*time.Second, func(s string) bool {
		return strings.Contains(s, "nothing else") && strings.Contains(s, "ready")
	})
	quit(p)

	data, err := os.ReadFile(cast)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	var head struct{ Version, Width, Height int }
	if err := json.Unmarshal([]byte(lines[0]), &head); err != nil || head.Version != 2 || head.Width != 90 || head.Height != 30 {
		t.Fatalf("header %q (%v)", lines[0], err)
	}
	// Play everything up to the restore that leaves the alternate screen.
	emu := rendertest.NewOracle(head.Width, head.Height)
	for _, l := range lines[1:] {
		var ev [3]any
		if err := json.Unmarshal([]byte(l), &ev); err != nil {
			t.Fatalf("event %q: %v", l, err)
		}
		out, _ := ev[2].(string)
		if ev[1] != "o" {
			continue
		}
		if strings.Contains(out, "\x1b[?1049l") {
			break
		}
		emu.Write([]byte(out))
	}
	screen := strings.Join(emu.ScreenText(), "\n")
	for _, want := range []string{"Release checklist", "build is green", "nothing else", "press Ctrl+C again to quit"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the recording played back lacks %q:\n%s", want, screen)
		}
	}
}
