package e2e

import (
	"io"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/x/vt"
)

// terminal is the terminal emulator the harness plays on the master side
// of the pty: it counts and timestamps every byte the program writes,
// interprets them with a headless emulator (so the harness can see the
// screen and the scrollback, and the program gets answers to its queries:
// cursor position, device attributes, mode reports), and types keys.
//
// It reports synchronized output (mode 2026) as supported but off, as
// most terminals in use today do, so a program that probes for it
// brackets its frames as it would for a user: the bytes counted include
// the brackets.
type terminal struct {
	pty *pty

	mu     sync.Mutex
	emu    *vt.Emulator
	bytes  int64
	raw    []byte // every byte, kept when the run's output is to be saved
	keep   bool
	last   time.Time // when the last byte arrived
	marks  []*mark
	closed chan struct{}
}

// mark is a text the harness waits to see on screen or in scrollback.
type mark struct {
	text string
	at   time.Time
	seen chan struct{}
}

func newTerminal(p *pty, w, h int, keep bool) *terminal {
	t := &terminal{pty: p, emu: vt.NewEmulator(w, h), closed: make(chan struct{}), keep: keep}
	// Make the mode known, so DECRQM answers "reset" rather than
	// "not recognised".
	_, _ = t.emu.Write([]byte("\x1b[?2026h\x1b[?2026l"))
	go t.read()
	go t.answer()
	return t
}

// read takes what the program writes until the pty closes.
func (t *terminal) read() {
	defer close(t.closed)
	buf := make([]byte, 64*1024)
	for {
		n, err := t.pty.master.Read(buf)
		if n > 0 {
			now := time.Now()
			t.mu.Lock()
			t.bytes += int64(n)
			if t.keep {
				t.raw = append(t.raw, buf[:n]...)
			}
			t.last = now
			_, _ = t.emu.Write(buf[:n])
			t.checkMarks(now)
			t.mu.Unlock()
		}
		if err != nil {
			return
		}
	}
}

// answer forwards the emulator's replies to queries to the program.
func (t *terminal) answer() {
	_, _ = io.Copy(t.pty.master, t.emu)
}

// stopAnswering ends answer by closing the emulator's reply pipe.
// Emulator.Close would do the same but writes an unguarded flag that
// answer's Read and read's Write both look at, which is a data race.
func (t *terminal) stopAnswering() {
	if c, ok := t.emu.InputPipe().(io.Closer); ok {
		_ = c.Close()
	}
}

func (t *terminal) checkMarks(now time.Time) {
	pending := false
	for _, m := range t.marks {
		if m.at.IsZero() {
			pending = true
		}
	}
	if !pending {
		return
	}
	text := t.textLocked()
	for _, m := range t.marks {
		if m.at.IsZero() && strings.Contains(text, m.text) {
			m.at = now
			close(m.seen)
		}
	}
}

// watch returns a mark that is seen once text shows on screen or in the
// scrollback (at once, if it already does).
func (t *terminal) watch(text string) *mark {
	m := &mark{text: text, seen: make(chan struct{})}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.marks = append(t.marks, m)
	t.checkMarks(time.Now())
	return m
}

// textLocked is the scrollback and the screen as plain text.
func (t *terminal) textLocked() string {
	var b strings.Builder
	if sb := t.emu.Scrollback(); sb != nil {
		for _, l := range sb.Lines() {
			b.WriteString(l.String())
			b.WriteByte('\n')
		}
	}
	b.WriteString(t.emu.String())
	return b.String()
}

// screen is what the terminal shows now.
func (t *terminal) screen() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.emu.String()
}

// counters are the bytes read so far and when the last one came.
func (t *terminal) counters() (int64, time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.bytes, t.last
}

// quiet waits until nothing has arrived for d, or until limit passes,
// and reports whether it went quiet.
func (t *terminal) quiet(d, limit time.Duration) bool {
	deadline := time.Now().Add(limit)
	for {
		_, last := t.counters()
		now := time.Now()
		if now.Sub(last) >= d {
			return true
		}
		if now.After(deadline) {
			return false
		}
		time.Sleep(min(d-now.Sub(last), 20*time.Millisecond) + time.Millisecond)
	}
}

// output is the bytes in [from, to) of everything written, when kept.
func (t *terminal) output(from, to int64) []byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.keep {
		return nil
	}
	return append([]byte(nil), t.raw[from:to]...)
}

// typeKeys writes keys as the user's typing.
func (t *terminal) typeKeys(keys string) error {
	_, err := t.pty.master.Write([]byte(keys))
	return err
}
