package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/testserver"
)

func numbered(prefix string, n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%s-%03d\n\n", prefix, i)
	}
	return b.String()
}

// onceEach fails unless every numbered line appears exactly once in h.
func onceEach(t *testing.T, h, prefix string, n int) {
	t.Helper()
	for i := 1; i <= n; i++ {
		l := fmt.Sprintf("%s-%03d", prefix, i)
		if c := strings.Count(h, l); c != 1 {
			t.Fatalf("%s appears %d times in the terminal's scrollback, want once:\n%s", l, c, h)
		}
	}
}

func TestSwitchingModesTwiceKeepsScrollback(t *testing.T) {
	srv := startServer(t, testserver.Script{Responses: []testserver.Response{
		textResponse(numbered("first", 30), time.Millisecond),
		textResponse(numbered("second", 10), time.Millisecond),
	}})
	p := newPane(t, 80, 24)
	p.run(srv.URL(), "--minimal")
	p.waitText("Ask anything", 10*time.Second)
	p.literal("one")
	p.keys("Enter")
	p.waitFor("the first answer", 20*time.Second, func(s string) bool {
		return strings.Contains(p.history(), "first-030") && strings.Contains(s, "ready")
	})
	before := p.history()
	p.literal("/mode full")
	p.keys("Enter")
	p.waitText("Esc pager", 5*time.Second) // only the full-screen prompt offers the pager
	p.literal("/mode minimal")
	p.keys("Enter")
	p.waitText("/mode full for the pager", 5*time.Second) // only the inline prompt offers it
	p.literal("two")
	p.keys("Enter")
	p.waitFor("the second answer", 20*time.Second, func(s string) bool {
		return strings.Contains(p.history(), "second-010") && strings.Contains(s, "ready")
	})
	quit(p)
	after := p.history()
	onceEach(t, after, "first", 30)
	onceEach(t, after, "second", 10)
	if i := strings.Index(after, "first-030"); i < 0 || !strings.Contains(before, "first-001") {
		t.Fatal("the first answer is missing")
	}
}

func TestInlineResizeMidStreamLosesNothing(t *testing.T) {
	srv := startServer(t, testserver.Script{Responses: []testserver.Response{
		textResponse(numbered("row", 120), 2*time.Millisecond),
	}})
	p := newPane(t, 90, 24)
	p.run(srv.URL(), "--minimal")
	p.waitText("Ask anything", 10*time.Second)
	p.literal("go")
	p.keys("Enter")
	p.waitFor("the stream to start", 10*time.Second, func(string) bool { return strings.Contains(p.history(), "row-010") })
	p.resize(70, 24) // narrower
	time.Sleep(300 * time.Millisecond)
	p.resize(70, 18) // shorter only
	time.Sleep(300 * time.Millisecond)
	p.resize(100, 30) // wider and taller
	p.waitFor("the stream to finish", 30*time.Second, func(s string) bool {
		return strings.Contains(p.history(), "row-120") && strings.Contains(s, "ready")
	})
	quit(p)
	onceEach(t, p.history(), "row", 120)
}

func TestSIGTERMLeavesAResumableSession(t *testing.T) {
	srv := startServer(t, testserver.Script{Responses: []testserver.Response{
		textResponse("remembered answer\n", 0),
		textResponse("welcome back\n", 0),
	}})
	p := newPane(t, 90, 24)
	p.run(srv.URL())
	p.waitText("Ask anything", 10*time.Second)
	p.literal("remember this")
	p.keys("Enter")
	p.waitText("remembered answer", 10*time.Second)
	if out, err := exec.Command("pkill", "-TERM", "-f", quireBin).CombinedOutput(); err != nil {
		t.Fatalf("pkill: %v %s", err, out)
	}
	p.waitText("QUIRE-EXIT=143", 10*time.Second)
	p.sttySane()

	p.run(srv.URL(), "--continue")
	s := p.waitText("remembered answer", 10*time.Second)
	if !strings.Contains(s, "remember this") {
		t.Fatalf("the resumed session does not show the earlier turn:\n%s", s)
	}
	p.literal("and now?")
	p.keys("Enter")
	p.waitText("welcome back", 10*time.Second)
	reqs := srv.Requests()
	last := reqs[len(reqs)-1]
	seen := false
	for _, m := range last.Messages {
		if m.Role == "user" && m.Content == "remember this" {
			seen = true
		}
	}
	if !seen {
		t.Fatalf("the resumed model did not see the earlier prompt: %+v", last.Messages)
	}
	quit(p)
}

func TestCtrlZSuspendsAndFgRestoresTheScreen(t *testing.T) {
	srv := startServer(t, testserver.Script{Responses: []testserver.Response{textResponse("still here after fg\n", 0)}})
	p := newPane(t, 90, 24)
	p.run(srv.URL())
	p.waitText("Ask anything", 10*time.Second)
	p.literal("hello")
	p.keys("Enter")
	p.waitText("still here after fg", 10*time.Second)
	p.keys("C-z")
	p.waitText("Stopped", 5*time.Second)
	p.keys("fg", "Enter")
	s := p.waitText("still here after fg", 5*time.Second)
	if !strings.Contains(s, "Ask anything") {
		t.Fatalf("the screen was not repainted after fg:\n%s", s)
	}
	quit(p)
}

func TestRewindRestoresFilesAndForksTheConversation(t *testing.T) {
	srv := startServer(t, testserver.Script{Responses: []testserver.Response{
		testserver.Call("w1", "write_file", `{"path":"notes.txt","content":"first version\n"}`),
		textResponse("Wrote the first version.\n", 0),
		testserver.Call("w2", "write_file", `{"path":"notes.txt","content":"second version\n"}`),
		textResponse("Wrote the second version.\n", 0),
		textResponse("Starting over from prompt two.\n", 0),
	}})
	p := newPane(t, 100, 30)
	p.run(srv.URL(), "--approval", "yolo")
	p.waitText("Ask anything", 10*time.Second)
	p.literal("write v1")
	p.keys("Enter")
	p.waitText("Wrote the first version", 10*time.Second)
	p.literal("write v2")
	p.keys("Enter")
	p.waitText("Wrote the second version", 10*time.Second)
	if got := readFile(t, p.dir, "notes.txt"); got != "second version\n" {
		t.Fatalf("notes.txt = %q before the rewind", got)
	}
	p.literal("/rewind 2")
	p.keys("Enter")
	s := p.waitText("rewound to before prompt 2", 10*time.Second)
	if got := readFile(t, p.dir, "notes.txt"); got != "first version\n" {
		t.Fatalf("notes.txt = %q after /rewind 2, want the first version", got)
	}
	if strings.Contains(s, "Wrote the second version") {
		t.Fatalf("the rewound turn is still in the transcript:\n%s", s)
	}
	if !strings.Contains(s, "› write v2") {
		t.Fatalf("the rewound prompt is not back in the editor:\n%s", s)
	}
	p.keys("C-u")
	p.literal("again")
	p.keys("Enter")
	p.waitText("Starting over from prompt two", 10*time.Second)
	reqs := srv.Requests()
	for _, m := range reqs[len(reqs)-1].Messages {
		if strings.Contains(m.Content, "second version") || m.Content == "write v2" {
			t.Fatalf("the model still saw the rewound turn: %+v", m)
		}
	}
	quit(p)
}

func readFile(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
