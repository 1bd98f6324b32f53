package e2e

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
	"unicode"
)

// Program is one agent UI in one mode, as the harness starts and drives it.
type Program struct {
	// Name is the implementation (the table's column): "quire", "claude",
	// "codex", "opencode", "qwen", "crush".
	Name string
	// Mode is "fullscreen" or "inline" (the table's row).
	Mode string
	// Command returns the command to run against the model at baseURL,
	// with home as its private home directory.
	Command func(baseURL, home string) (*exec.Cmd, error)
	// Ready is text the program shows once it takes a prompt.
	Ready string
	// Submit is the prompt the user types, and Enter the key that sends
	// it, typed a second later (qwen-code takes Enter within a burst of
	// typing for part of a paste).
	Submit, Enter string
	// Quit is what the user types to leave once the answer is in.
	Quit string
	// Skip, when set, says why the program cannot run here.
	Skip string
}

// Workload is what every program is asked to show.
type Workload struct {
	Answer string        // the model's answer, markdown
	Chunk  int           // bytes per streamed chunk
	Pace   time.Duration // time between chunks
	Width  int
	Height int
	// Last is text of the answer's last line, which the harness waits to
	// see before it looks for the last frame.
	Last string
}

// Chunks is how many chunks the answer is streamed in.
func (w Workload) Chunks() int {
	n := 0
	for s := w.Answer; len(s) > 0; n++ {
		s = s[min(w.Chunk, len(s)):]
	}
	return n
}

// Result is what one run measured.
type Result struct {
	// Bytes is what the program wrote to the terminal from the prompt's
	// Enter to the answer's last frame.
	Bytes int64
	// CPU is the CPU time (user + system, the process and its children)
	// spent over the same window.
	CPU time.Duration
	// TotalCPU and PeakRSS come from wait4 when the program exits: the
	// whole run, start-up and exit included.
	TotalCPU time.Duration
	PeakRSS  int64
	// Ready is the time from start to the first frame showing Ready.
	Ready time.Duration
	// Tail is the time from the stream's last byte to the last frame.
	Tail time.Duration
	// Chunks is how many chunks the answer was streamed in.
	Chunks int
}

// Timeouts of a run; they bound how long a failure takes to report.
const (
	readyTimeout  = 60 * time.Second
	quietAfter    = time.Second // no output for this long: the last frame was the last
	quietLimit    = 15 * time.Second
	exitTimeout   = 10 * time.Second
	settleTimeout = 3 * time.Second
	enterDelay    = time.Second
)

// Run starts p in a fresh pty and home directory, waits for its prompt,
// sends a prompt, lets the answer stream to the end and measures.
func Run(p Program, w Workload) (Result, error) {
	srv, err := startServer(w.Answer, w.Chunk, w.Pace)
	if err != nil {
		return Result{}, err
	}
	defer srv.close()
	home, err := os.MkdirTemp("", "quire-bench-e2e-*")
	if err != nil {
		return Result{}, err
	}
	defer os.RemoveAll(home)
	for _, d := range []string{".config", "state", "work"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o700); err != nil {
			return Result{}, err
		}
	}
	cmd, err := p.Command(srv.URL(), home)
	if err != nil {
		return Result{}, err
	}
	if cmd.Dir == "" {
		cmd.Dir = filepath.Join(home, "work")
	}
	pt, err := openPTY(w.Width, w.Height)
	if err != nil {
		return Result{}, err
	}
	defer pt.close()
	dump := os.Getenv("E2E_DUMP")
	t := newTerminal(pt, w.Width, w.Height, dump != "")
	defer t.stopAnswering()
	cmd.Stdin, cmd.Stdout, cmd.Stderr = pt.slave, pt.slave, pt.slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}

	ready := t.watch(p.Ready)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return Result{}, fmt.Errorf("start %s: %w", p.Name, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer func() {
		if cmd.ProcessState == nil {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-exited
		}
	}()
	fail := func(err error) (Result, error) {
		return Result{}, fmt.Errorf("%s (%s): %w; the screen ends %q; the screen shows:\n%s", p.Name, p.Mode, err, lastLines(t.screen(), 3), t.screen())
	}
	select {
	case <-ready.seen:
	case err := <-exited:
		return fail(fmt.Errorf("exited before it was ready: %v", err))
	case <-time.After(readyTimeout):
		return fail(fmt.Errorf("not ready within %v", readyTimeout))
	}
	res := Result{Ready: ready.at.Sub(start), Chunks: w.Chunks()}
	// Let start-up finish (probes, a first status line) before measuring.
	t.quiet(300*time.Millisecond, settleTimeout)

	last := t.watch(w.Last)
	bytes0, _ := t.counters()
	cpu0 := treeCPU(cmd.Process.Pid)
	if err := t.typeKeys(p.Submit); err != nil {
		return fail(err)
	}
	time.Sleep(enterDelay)
	if err := t.typeKeys(p.Enter); err != nil {
		return fail(err)
	}
	end, err := srv.waitEnd(time.Duration(res.Chunks)*w.Pace + 60*time.Second)
	if err != nil {
		return fail(err)
	}
	select {
	case <-last.seen:
	case <-time.After(quietLimit):
		return fail(fmt.Errorf("the answer's last line %q never showed", w.Last))
	}
	if !t.quiet(quietAfter, quietLimit) {
		return fail(fmt.Errorf("still drawing %v after the answer ended", quietLimit))
	}
	bytes1, lastAt := t.counters()
	cpu1 := treeCPU(cmd.Process.Pid)
	res.Bytes = bytes1 - bytes0
	res.CPU = cpu1 - cpu0
	res.Tail = max(lastAt.Sub(end), 0)
	if dump != "" {
		// E2E_DUMP names a folder that receives what the program wrote
		// while it answered, for a look at where the bytes go.
		name := filepath.Join(dump, p.Name+"-"+p.Mode+".out")
		if err := os.WriteFile(name, t.output(bytes0, bytes1), 0o644); err != nil {
			return fail(err)
		}
	}

	_ = t.typeKeys(p.Quit)
	var werr error
	select {
	case werr = <-exited:
	case <-time.After(exitTimeout):
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case werr = <-exited:
		case <-time.After(exitTimeout):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			werr = <-exited
		}
	}
	var exitErr *exec.ExitError
	if werr != nil && !errors.As(werr, &exitErr) {
		return fail(werr)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		res.TotalCPU = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		res.PeakRSS = ru.Maxrss * 1024 // kilobytes on Linux
	}
	return res, nil
}

// lastLines is the screen's last n lines that are not blank, joined.
func lastLines(screen string, n int) string {
	var out []string
	lines := strings.Split(screen, "\n")
	for i := len(lines) - 1; i >= 0 && len(out) < n; i-- {
		// Rules and frames say nothing; keep lines with a letter.
		if l := strings.TrimSpace(lines[i]); strings.ContainsFunc(l, unicode.IsLetter) {
			out = append([]string{l}, out...)
		}
	}
	if len(out) == 0 {
		return "(blank)"
	}
	return strings.Join(out, " / ")
}
