package term

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/quire-sh/quire/render"
)

func TestOpenAndCloseRestore(t *testing.T) {
	p := openPTY(t)
	term := openTerminal(t, p, Options{AltScreen: true, Mouse: true, Focus: true})
	p.waitOutput(t, 0, "\x1b[?1049h\x1b[?2004h\x1b[?1000h\x1b[?1002h\x1b[?1006h\x1b[?1004h")
	p.wantRaw(t)
	if w, h := term.Size(); w != 80 || h != 24 {
		t.Errorf("Size = %dx%d, want 80x24", w, h)
	}
	mark := len(p.output())
	if err := term.Close(); err != nil {
		t.Fatal(err)
	}
	restored := p.waitOutput(t, mark, leaveSeq(modes{altScreen: true}))
	p.wantCooked(t)
	for _, seq := range []string{"\x1b[?1049l", "\x1b[?25h", "\x1b[?2026l", "\x1b[?2004l", "\x1b[?1000l", "\x1b[?1006l", "\x1b[?1004l"} {
		if !strings.Contains(p.output()[mark:], seq) {
			t.Errorf("restore lacks %q", seq)
		}
	}
	// Idempotent: a second Close or Restore writes nothing more.
	if err := term.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if err := term.Restore(); err != nil {
		t.Errorf("Restore after Close: %v", err)
	}
	time.Sleep(50 * time.Millisecond)
	if extra := p.output()[restored:]; extra != "" {
		t.Errorf("wrote %q after the first restore", extra)
	}
	if _, err := term.Writer().Write([]byte("late")); !errors.Is(err, ErrClosed) {
		t.Errorf("Write after Close = %v, want ErrClosed", err)
	}
	if _, ok := <-term.Events(); ok {
		t.Error("Events not closed by Close")
	}
}

func TestInlineModeLeavesNoAltScreen(t *testing.T) {
	p := openPTY(t)
	term := openTerminal(t, p, Options{})
	p.waitOutput(t, 0, "\x1b[?2004h")
	term.Close()
	if out := p.output(); strings.Contains(out, "1049") || strings.Contains(out, "?1000h") {
		t.Errorf("inline mode touched the alternate screen or mouse: %q", out)
	}
	p.wantCooked(t)
}

func TestInputOverPTY(t *testing.T) {
	p := openPTY(t)
	term := openTerminal(t, p, Options{Mouse: true})
	tests := []struct {
		typed string
		want  []Event
	}{
		{"\x1b[A", evs(key(KeyUp, 0))},
		{"\x1b[200~hello\r\nworld\x1b[201~", evs(paste("hello\nworld"))},
		{"\x01", evs(char('a', ModCtrl))},
		{"\x03", evs(char('c', ModCtrl))},
		{"\x1bb", evs(char('b', ModAlt))},
		{"\x1b[<0;10;5M\x1b[<0;10;5m", evs(MouseEvent{X: 9, Y: 4, Button: ButtonLeft}, MouseEvent{X: 9, Y: 4, Button: ButtonLeft, Release: true})},
		{"\x1b[<65;3;3M", evs(MouseEvent{X: 2, Y: 2, Button: WheelDown})},
		{"é", evs(char('é', 0))},
		{"\x1b", evs(key(KeyEscape, 0))},
		{"\r", evs(key(KeyEnter, 0))},
	}
	for _, tt := range tests {
		p.typeIn(t, tt.typed)
		for _, want := range tt.want {
			if got := nextEvent(t, term); !reflect.DeepEqual(got, want) {
				t.Errorf("typed %q: got %#v, want %#v", tt.typed, got, want)
			}
		}
	}
}

func TestResizeEvent(t *testing.T) {
	p := openPTY(t)
	term := openTerminal(t, p, Options{})
	p.setSize(t, 100, 30)
	// The kernel signals the pty's foreground process group, which the
	// test process is not; deliver SIGWINCH by hand.
	if err := syscall.Kill(os.Getpid(), syscall.SIGWINCH); err != nil {
		t.Fatal(err)
	}
	timeout := time.After(10 * time.Second)
	for {
		select {
		case ev := <-term.Events():
			if r, ok := ev.(ResizeEvent); ok && r == (ResizeEvent{100, 30}) {
				if w, h := term.Size(); w != 100 || h != 30 {
					t.Errorf("Size = %dx%d after resize", w, h)
				}
				return
			}
		case <-timeout:
			t.Fatal("no ResizeEvent{100,30}")
		}
	}
}

func TestWriterOrderAndDrain(t *testing.T) {
	p := openPTY(t)
	term := openTerminal(t, p, Options{})
	start := p.waitOutput(t, 0, "\x1b[?2004h")
	w := term.Writer()
	var want strings.Builder
	for i := range 200 {
		frame := fmt.Sprintf("\x1b[?2026h<frame %d>\x1b[?2026l", i)
		want.WriteString(frame)
		if n, err := w.Write([]byte(frame)); err != nil || n != len(frame) {
			t.Fatalf("Write = %d, %v", n, err)
		}
	}
	if n, err := w.Write(nil); n != 0 || err != nil {
		t.Errorf("empty Write = %d, %v", n, err)
	}
	if !term.WaitDrained(10 * time.Second) {
		t.Fatal("WaitDrained timed out on a live pty")
	}
	if term.Pending() != 0 {
		t.Errorf("Pending = %d after drain", term.Pending())
	}
	p.waitOutput(t, start, "<frame 199>")
	if got := p.output()[start:]; !strings.HasPrefix(got, want.String()) {
		t.Errorf("frames out of order or altered:\n got %.200q\nwant %.200q", got, want.String())
	}
}

func TestCursorPosition(t *testing.T) {
	p := openPTY(t)
	term := openTerminal(t, p, Options{})
	start := p.waitOutput(t, 0, "\x1b[?2004h")
	go func() {
		// Answer like a terminal would, with keys typed around the reply.
		p.waitOutput(t, start, "\x1b[6n")
		p.master.Write([]byte("k\x1b[5;10Rj"))
	}()
	x, y, err := term.CursorPosition(10 * time.Second)
	if err != nil || x != 9 || y != 4 {
		t.Fatalf("CursorPosition = %d,%d,%v; want 9,4,nil", x, y, err)
	}
	if got := []Event{nextEvent(t, term), nextEvent(t, term)}; !reflect.DeepEqual(got, evs(char('k', 0), char('j', 0))) {
		t.Errorf("keys around the reply: %#v", got)
	}
}

func TestCursorPositionTimeoutKeepsKeys(t *testing.T) {
	p := openPTY(t)
	term := openTerminal(t, p, Options{})
	start := p.waitOutput(t, 0, "\x1b[?2004h")
	go func() {
		// The terminal never answers, but the user types meanwhile.
		p.waitOutput(t, start, "\x1b[6n")
		p.master.Write([]byte("a"))
	}()
	began := time.Now()
	_, _, err := term.CursorPosition(200 * time.Millisecond)
	if !errors.Is(err, ErrNoReply) {
		t.Fatalf("err = %v, want ErrNoReply", err)
	}
	if d := time.Since(began); d > 5*time.Second {
		t.Errorf("timeout took %v", d)
	}
	if got := nextEvent(t, term); !reflect.DeepEqual(got, char('a', 0)) {
		t.Errorf("key typed during the query: got %#v", got)
	}
	// A late reply is still recognised and swallowed.
	p.typeIn(t, "\x1b[1;5R")
	noEvent(t, term, 100*time.Millisecond)
}

func TestProbe(t *testing.T) {
	p := openPTY(t)
	term := openTerminal(t, p, Options{})
	start := p.waitOutput(t, 0, "\x1b[?2004h")
	go func() {
		p.waitOutput(t, start, seqSyncModeQuery+seqXTVersionQuery+seqDA1Query)
		p.master.Write([]byte("x\x1b[?2026;2$y\x1bP>|kitty(0.35.2)\x1b\\\x1b[?62;22c"))
	}()
	began := time.Now()
	caps := term.Probe(10 * time.Second)
	if d := time.Since(began); d > 5*time.Second {
		t.Errorf("Probe waited %v despite the DA1 sentinel", d)
	}
	if !caps.SyncOutput || !caps.SyncProbed || caps.TermProgram != "kitty" || caps.Colors != render.ColorTrue {
		t.Errorf("caps after probe: %+v", caps)
	}
	if term.Caps() != caps {
		t.Error("Caps() does not return the probed caps")
	}
	if got := nextEvent(t, term); !reflect.DeepEqual(got, char('x', 0)) {
		t.Errorf("key typed during the probe: got %#v", got)
	}
	noEvent(t, term, 100*time.Millisecond) // the replies never became keys
}

func TestProbeSilentTerminal(t *testing.T) {
	p := openPTY(t)
	term := openTerminal(t, p, Options{})
	before := term.Caps()
	go func() {
		p.waitOutput(t, 0, seqDA1Query)
		p.master.Write([]byte("z"))
	}()
	began := time.Now()
	caps := term.Probe(150 * time.Millisecond)
	if d := time.Since(began); d < 150*time.Millisecond || d > 5*time.Second {
		t.Errorf("silent probe took %v", d)
	}
	if caps != before {
		t.Errorf("silent probe changed caps: %+v", caps)
	}
	if got := nextEvent(t, term); !reflect.DeepEqual(got, char('z', 0)) {
		t.Errorf("key typed during the probe: got %#v", got)
	}
}

// TestProbeAsksTmuxForItsVersion: through tmux the probe asks XTVERSION,
// which tmux answers itself, and decides links and synchronized output
// by the version it names rather than by the environment.
func TestProbeAsksTmuxForItsVersion(t *testing.T) {
	for _, c := range []struct {
		reply      string
		links      bool
		syncUnsupp bool
		clipboard  string // tmux's set-clipboard
	}{
		{"\x1b[?2026;2$y\x1bP>|tmux 3.4\x1b\\\x1b[?1;2c", true, false, "on"},
		// tmux 3.3a knows neither DECRQM 2026 nor the mode: DA1 alone.
		{"\x1bP>|tmux 3.3a\x1b\\\x1b[?1;2c", false, true, "external"},
	} {
		p := openPTY(t)
		term := openTerminal(t, p, Options{Env: envOf("TERM", "tmux-256color", "TMUX", "x")})
		term.tmuxOption = func(name string) (string, error) {
			if name != "set-clipboard" {
				return "", errors.New("unknown option")
			}
			return c.clipboard, nil
		}
		go func() {
			p.waitOutput(t, 0, seqSyncModeQuery+seqXTVersionQuery+seqDA1Query)
			p.master.Write([]byte(c.reply))
		}()
		caps := term.Probe(10 * time.Second)
		if caps.Hyperlinks != c.links || caps.SyncUnsupported() != c.syncUnsupp {
			t.Errorf("after %q: links %v, sync unsupported %v; want %v, %v (%+v)", c.reply,
				caps.Hyperlinks, caps.SyncUnsupported(), c.links, c.syncUnsupp, caps)
		}
		// With set-clipboard on tmux takes OSC 52 itself; otherwise only
		// its passthrough envelope can carry it.
		wrapped := strings.HasPrefix(string(EncodeOSC52("x", caps)), "\x1bPtmux;")
		if caps.TmuxClipboard != (c.clipboard == "on") || wrapped != (c.clipboard != "on") {
			t.Errorf("set-clipboard %s: TmuxClipboard %v, OSC 52 %q", c.clipboard, caps.TmuxClipboard, EncodeOSC52("x", caps))
		}
	}
}

// TestStartProbeDeliversCapsAsAnEvent: the probe runs in the background,
// a key typed while it waits arrives first, and the answer comes as a
// CapsEvent.
func TestStartProbeDeliversCapsAsAnEvent(t *testing.T) {
	p := openPTY(t)
	term := openTerminal(t, p, Options{})
	go func() {
		p.waitOutput(t, 0, seqDA1Query)
		p.master.Write([]byte("k\x1b[?2026;2$y\x1b[?62;22c"))
	}()
	term.StartProbe(10 * time.Second)
	if got := nextEvent(t, term); !reflect.DeepEqual(got, char('k', 0)) {
		t.Fatalf("the key typed during the probe: got %#v", got)
	}
	ev, ok := nextEvent(t, term).(CapsEvent)
	if !ok || !ev.Caps.SyncProbed || !ev.Caps.SyncOutput {
		t.Fatalf("want a CapsEvent with mode 2026 supported, got %#v", ev)
	}
	noEvent(t, term, 100*time.Millisecond)
}

func TestHandOff(t *testing.T) {
	p := openPTY(t)
	term := openTerminal(t, p, Options{AltScreen: true, Mouse: true})
	p.waitOutput(t, 0, "\x1b[?1006h")
	term.Writer().Write([]byte("<last frame>"))

	var inChild string
	err := term.HandOff(func() error {
		p.wantCooked(t)
		// The child owns the keyboard: what is typed now reaches it, not
		// quire's reader.
		p.typeIn(t, "typed\n")
		buf := make([]byte, 64)
		n, err := p.slave.Read(buf)
		if err != nil {
			return err
		}
		inChild = string(buf[:n])
		// A frame drawn meanwhile waits for the terminal to come back.
		if _, err := term.Writer().Write([]byte("<drawn during>")); err != nil {
			return err
		}
		_, err = p.slave.Write([]byte("<child output>"))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if inChild != "typed\n" {
		t.Errorf("child read %q, want the typed line", inChild)
	}
	p.waitOutput(t, 0, "<child output>")
	out := p.output()
	frame := strings.Index(out, "<last frame>")
	left := strings.Index(out, "\x1b[?1049l")
	child := strings.Index(out, "<child output>")
	if frame < 0 || left < frame || child < left {
		t.Fatalf("want frame, then leave, then child output; got %q", out)
	}
	reentered := p.waitOutput(t, child, "\x1b[?1049h\x1b[?2004h\x1b[?1000h\x1b[?1002h\x1b[?1006h")
	p.waitOutput(t, reentered, "<drawn during>")
	p.wantRaw(t)
	if got := nextEvent(t, term); !reflect.DeepEqual(got, ResumeEvent{}) {
		t.Errorf("after hand-off: got %#v, want ResumeEvent", got)
	}
	// Input flows again, and frames written after are not lost.
	p.typeIn(t, "q")
	if got := nextEvent(t, term); !reflect.DeepEqual(got, char('q', 0)) {
		t.Errorf("after hand-off: got %#v, want q", got)
	}
	term.Writer().Write([]byte("<next frame>"))
	p.waitOutput(t, child, "<next frame>")
}

func TestHandOffError(t *testing.T) {
	p := openPTY(t)
	term := openTerminal(t, p, Options{})
	boom := errors.New("editor failed")
	if err := term.HandOff(func() error { return boom }); !errors.Is(err, boom) {
		t.Errorf("HandOff = %v, want the child's error", err)
	}
	p.wantRaw(t)
	term.Restore()
	if err := term.HandOff(func() error { t.Error("ran after Restore"); return nil }); !errors.Is(err, ErrClosed) {
		t.Errorf("HandOff after Restore = %v, want ErrClosed", err)
	}
}

func TestSetModes(t *testing.T) {
	p := openPTY(t)
	term := openTerminal(t, p, Options{})
	start := p.waitOutput(t, 0, "\x1b[?2004h")
	term.SetAltScreen(true)
	term.SetMouse(true)
	p.waitOutput(t, start, seqAltScreenOn+seqMouseOn)
	mark := len(p.output())
	term.Close()
	// The restore knows about modes switched on later.
	p.waitOutput(t, mark, leaveSeq(modes{altScreen: true}))
}

func TestCopy(t *testing.T) {
	p := openPTY(t)
	term := openTerminal(t, p, Options{})
	start := p.waitOutput(t, 0, "\x1b[?2004h")
	if err := term.Copy("hi"); err != nil {
		t.Fatal(err)
	}
	p.waitOutput(t, start, "\x1b]52;c;aGk=\x07")
	if err := term.Copy(strings.Repeat("x", MaxOSC52)); !errors.Is(err, ErrClipboardTooLarge) {
		t.Errorf("huge copy: %v", err)
	}
}

func TestCopyInTmux(t *testing.T) {
	dir := t.TempDir()
	got := filepath.Join(dir, "buffer")
	script := "#!/bin/sh\n[ \"$1 $2\" = \"load-buffer -\" ] || exit 1\ncat > " + got + "\n"
	if err := os.WriteFile(filepath.Join(dir, "tmux"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	p := openPTY(t)
	term := openTerminal(t, p, Options{Env: envOf("TERM", "tmux-256color", "TMUX", "/tmp/tmux-1/default,1,0")})
	if err := term.Copy("hi"); err != nil {
		t.Fatal(err)
	}
	p.waitOutput(t, 0, "\x1bPtmux;\x1b\x1b]52;c;aGk=\x07\x1b\\")
	deadline := time.Now().Add(10 * time.Second)
	for {
		data, err := os.ReadFile(got)
		if err == nil && string(data) == "hi" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("tmux load-buffer got %q, %v", data, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestTmuxLoadBufferHungIsAbandoned(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "tmux"), []byte("#!/bin/sh\nexec sleep 30\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	began := time.Now()
	err := tmuxLoadBuffer("hi")
	if err == nil {
		t.Fatal("a hung tmux reported success")
	}
	if d := time.Since(began); d > tmuxLoadTimeout+5*time.Second {
		t.Errorf("abandoned after %v, want about %v", d, tmuxLoadTimeout)
	}
}

func TestKittyKeyboardPushedAndPopped(t *testing.T) {
	tty := newFakeTty()
	term, err := OpenTty(tty, Options{NoSignals: true, Env: envOf(), KittyKeyboard: true})
	if err != nil {
		t.Fatal(err)
	}
	tty.in <- []byte("\x1b[13;2u") // Shift+Enter, only expressible with the protocol
	if got := nextEvent(t, term); !reflect.DeepEqual(got, key(KeyEnter, ModShift)) {
		t.Errorf("got %#v, want shift+enter", got)
	}
	term.Close()
	out := tty.output()
	if !strings.HasPrefix(out, "\x1b[?2004h\x1b[>1u") || !strings.Contains(out, "\x1b[<u") {
		t.Errorf("kitty keyboard flags not pushed and popped: %q", out)
	}
}
