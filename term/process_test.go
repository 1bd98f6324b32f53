package term

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// These tests run quire's terminal in a child process whose controlling
// terminal is a pty, because what they check (a crash, a signal, a job
// stop) ends or freezes the process. The child is this test binary,
// re-executed into TestChildMain with $QUIRE_TERM_CHILD naming the
// scenario; it reports progress on stderr, one line per step.

const childEnv = "QUIRE_TERM_CHILD"

func TestChildMain(t *testing.T) {
	scenario := os.Getenv(childEnv)
	if scenario == "" {
		t.Skip("runs only as a child of the process tests")
	}
	say := func(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }
	opts := Options{AltScreen: true, Mouse: true, ExitGrace: 300 * time.Millisecond}
	if path := os.Getenv("QUIRE_TERM_STDERR"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			say("stderr file: %v", err)
			os.Exit(3)
		}
		opts.Stderr = f
	}
	term, err := Open(opts)
	if err != nil {
		say("open failed: %v", err)
		os.Exit(3)
	}
	defer term.Close()
	defer term.RestoreOnPanic()
	term.Writer().Write([]byte("<frame>"))
	term.WaitDrained(time.Second)
	say("ready")

	switch scenario {
	case "panic":
		fmt.Fprintln(os.Stderr, "stray write while drawing")
		panic("boom")
	case "signal":
		for ev := range term.Events() {
			if s, ok := ev.(SignalEvent); ok {
				say("signal %v", s.Signal)
				select {} // a wedged app: the grace timer must end it
			}
		}
	case "suspend":
		for ev := range term.Events() {
			switch ev {
			case KeyEvent{Key: KeyRune, Rune: 'z', Mod: ModCtrl}:
				err := term.Suspend()
				say("resumed %v", err)
			case KeyEvent{Key: KeyRune, Rune: 'q'}:
				say("closed %v", term.Close())
				os.Exit(0)
			case ResumeEvent{}:
				say("resume event")
			}
		}
	case "handoff-sigint":
		err := term.HandOff(func() error {
			say("child running")
			time.Sleep(time.Second)
			return nil
		})
		say("handoff done %v", err)
		term.Close()
		os.Exit(0)
	}
	os.Exit(4)
}

type child struct {
	cmd *exec.Cmd
	pty *testPTY

	mu    sync.Mutex
	lines []string
	more  chan struct{}
	done  chan struct{}
	state *os.ProcessState
}

func startChild(t *testing.T, scenario string, env ...string) *child {
	t.Helper()
	if testing.Short() {
		t.Skip("spawns a process")
	}
	p := openPTY(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestChildMain$")
	cmd.Env = append(append(os.Environ(), childEnv+"="+scenario, "TERM=xterm-256color"), env...)
	cmd.Stdin, cmd.Stdout = p.slave, p.slave
	errR, errW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = errW
	// Its own session with the pty as controlling terminal, so /dev/tty
	// is the pty and job control signals are its own.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	errW.Close()
	c := &child{cmd: cmd, pty: p, more: make(chan struct{}, 1), done: make(chan struct{})}
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		sc := bufio.NewScanner(errR)
		for sc.Scan() {
			c.mu.Lock()
			c.lines = append(c.lines, sc.Text())
			c.mu.Unlock()
			select {
			case c.more <- struct{}{}:
			default:
			}
		}
	}()
	go func() {
		cmd.Wait()
		// The child is done once everything it wrote to stderr is read:
		// its last words (a panic) come just before it exits.
		<-drained
		c.mu.Lock()
		c.state = cmd.ProcessState
		c.mu.Unlock()
		close(c.done)
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-c.done
	})
	return c
}

func (c *child) waitLine(t *testing.T, prefix string) string {
	t.Helper()
	deadline := time.After(15 * time.Second)
	for {
		c.mu.Lock()
		for _, l := range c.lines {
			if strings.HasPrefix(l, prefix) {
				c.mu.Unlock()
				return l
			}
		}
		c.mu.Unlock()
		select {
		case <-c.more:
		case <-time.After(20 * time.Millisecond):
		case <-c.done:
			c.mu.Lock()
			lines := c.lines
			c.mu.Unlock()
			for _, l := range lines {
				if strings.HasPrefix(l, prefix) {
					return l
				}
			}
			t.Fatalf("child exited (%v) without saying %q; it said %q", c.cmd.ProcessState, prefix, lines)
		case <-deadline:
			t.Fatalf("child never said %q; it said %q", prefix, c.lines)
		}
	}
}

func (c *child) wait(t *testing.T) *os.ProcessState {
	t.Helper()
	select {
	case <-c.done:
	case <-time.After(15 * time.Second):
		t.Fatal("child did not exit")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.state
}

func (c *child) stderr() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return strings.Join(c.lines, "\n")
}

// wantRestored checks the restore sequence after the frame and cooked mode.
func wantRestored(t *testing.T, p *testPTY) {
	t.Helper()
	frame := p.waitOutput(t, 0, "<frame>")
	p.waitOutput(t, frame, leaveSeq(modes{altScreen: true}))
	out := p.output()[frame:]
	for _, seq := range []string{"\x1b[?1049l", "\x1b[?25h", "\x1b[?2026l", "\x1b[?2004l", "\x1b[?1000l"} {
		if !strings.Contains(out, seq) {
			t.Errorf("restore lacks %q", seq)
		}
	}
	p.wantCooked(t)
}

func TestPanicRestoresTerminal(t *testing.T) {
	logPath := filepath.Join(t.TempDir(), "stderr.log")
	c := startChild(t, "panic", "QUIRE_TERM_STDERR="+logPath)
	st := c.wait(t)
	if st.ExitCode() != 2 {
		t.Errorf("exit status %v, want 2 (panic)", st)
	}
	// While drawing, stderr went to the log; the panic, after the
	// restore, went to the real stderr.
	if !strings.Contains(c.stderr(), "panic: boom") {
		t.Errorf("panic message lost: %q", c.stderr())
	}
	logged, err := os.ReadFile(logPath)
	if err != nil || !strings.Contains(string(logged), "stray write while drawing") {
		t.Errorf("stray stderr write not redirected: %q, %v", logged, err)
	}
	if strings.Contains(c.stderr(), "stray write") || strings.Contains(string(logged), "panic") {
		t.Errorf("stderr not switched at the restore: real %q, log %q", c.stderr(), logged)
	}
	wantRestored(t, c.pty)
}

func TestSIGTERMRestoresAndExits(t *testing.T) {
	c := startChild(t, "signal")
	c.waitLine(t, "ready")
	c.pty.wantRaw(t)
	if err := c.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	c.waitLine(t, "signal terminated")
	st := c.wait(t)
	ws := st.Sys().(syscall.WaitStatus)
	if !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
		t.Errorf("wedged child ended with %v, want killed by SIGTERM after the grace period", st)
	}
	wantRestored(t, c.pty)
}

func TestSuspendAndResume(t *testing.T) {
	c := startChild(t, "suspend")
	c.waitLine(t, "ready")
	p := c.pty
	mark := p.waitOutput(t, 0, "<frame>")
	p.typeIn(t, "\x1a") // Ctrl+Z
	waitStopped(t, c.cmd.Process.Pid)
	left := p.waitOutput(t, mark, "\x1b[?1049l")
	p.wantCooked(t)
	if err := c.cmd.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	if line := c.waitLine(t, "resumed"); line != "resumed <nil>" {
		t.Errorf("child said %q", line)
	}
	p.waitOutput(t, left, "\x1b[?1049h")
	p.wantRaw(t)
	p.typeIn(t, "q")
	if line := c.waitLine(t, "closed"); line != "closed <nil>" {
		t.Errorf("child said %q", line)
	}
	if st := c.wait(t); st.ExitCode() != 0 {
		t.Errorf("exit %v", st)
	}
	p.wantCooked(t)
}

func TestOutsideStopAndContinueRetakesTerminal(t *testing.T) {
	c := startChild(t, "suspend")
	c.waitLine(t, "ready")
	p := c.pty
	mark := p.waitOutput(t, 0, "<frame>")
	// kill -STOP: no chance to restore; on kill -CONT the terminal, which
	// a shell may have reset meanwhile, is set up again and repainted.
	c.cmd.Process.Signal(syscall.SIGSTOP)
	waitStopped(t, c.cmd.Process.Pid)
	c.cmd.Process.Signal(syscall.SIGCONT)
	c.waitLine(t, "resume event")
	left := p.waitOutput(t, mark, "\x1b[?1049l")
	p.waitOutput(t, left, "\x1b[?1049h")
	p.wantRaw(t)
	p.typeIn(t, "q")
	if st := c.wait(t); st.ExitCode() != 0 {
		t.Errorf("exit %v", st)
	}
}

func TestOutsideSIGTSTPSuspends(t *testing.T) {
	c := startChild(t, "suspend")
	c.waitLine(t, "ready")
	p := c.pty
	mark := p.waitOutput(t, 0, "<frame>")
	c.cmd.Process.Signal(syscall.SIGTSTP)
	waitStopped(t, c.cmd.Process.Pid)
	p.waitOutput(t, mark, "\x1b[?1049l")
	p.wantCooked(t)
	c.cmd.Process.Signal(syscall.SIGCONT)
	c.waitLine(t, "resume event")
	p.wantRaw(t)
	p.typeIn(t, "q")
	if st := c.wait(t); st.ExitCode() != 0 {
		t.Errorf("exit %v", st)
	}
}

func TestSIGINTDuringHandOffIsTheChilds(t *testing.T) {
	c := startChild(t, "handoff-sigint")
	c.waitLine(t, "child running")
	if err := c.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if line := c.waitLine(t, "handoff done"); line != "handoff done <nil>" {
		t.Errorf("child said %q", line)
	}
	if st := c.wait(t); st.ExitCode() != 0 {
		t.Errorf("SIGINT during the hand-off ended quire: %v", st)
	}
}

// waitStopped waits until the process is in the stopped state.
func waitStopped(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			t.Skipf("cannot read process state: %v", err)
		}
		// Fields: pid (comm) state …; comm may hold spaces, so split after ')'.
		if i := strings.LastIndexByte(string(stat), ')'); i > 0 && len(stat) > i+2 && stat[i+2] == 'T' {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("process %d never stopped: %q", pid, stat)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
