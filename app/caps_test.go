package app

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/render"
	"github.com/quire-sh/quire/render/rendertest"
	"github.com/quire-sh/quire/scrollback"
	"github.com/quire-sh/quire/term"
)

// probedTerm is a terminal whose size the test changes, whose frames go
// to a VT emulator that may ignore CSI 3 J, and which counts the
// start-up probes it is asked for (the test delivers the answer).
type probedTerm struct {
	fakeTerm
	mu       sync.Mutex
	oracle   *rendertest.Oracle
	ignore3J bool
	env      term.Caps
	probes   int // StartProbe calls
}

func (p *probedTerm) Size() (int, int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.w, p.h
}

func (p *probedTerm) Caps() term.Caps { return p.env }

func (p *probedTerm) Write(b []byte) (int, error) {
	p.fakeTerm.Write(b)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ignore3J {
		b = bytes.ReplaceAll(b, []byte("\x1b[3J"), nil)
	}
	return p.oracle.Write(b)
}

func (p *probedTerm) Writer() io.Writer { return p }

func (p *probedTerm) StartProbe(time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.probes++
}

func (p *probedTerm) resize(w, h int) {
	p.mu.Lock()
	p.w, p.h = w, h
	p.oracle.Resize(w, h)
	p.mu.Unlock()
	p.events <- term.ResizeEvent{Width: w, Height: h}
}

func runProbedLoop(t *testing.T, pt *probedTerm, minimal bool) (*fakeSession, func()) {
	t.Helper()
	fs := &fakeSession{events: make(chan event.Event, 256)}
	tr := scrollback.New(scrollback.Options{Width: pt.w, Height: pt.h})
	m := NewModel(tr, nil, Status{Model: "m", Sandbox: "workspace", Approval: "ask"}, minimal)
	loop := NewLoop(m, pt, fs, LoopOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- loop.Run(ctx) }()
	return fs, func() {
		cancel()
		if err := <-done; err != nil && err != context.Canceled {
			t.Errorf("loop: %v", err)
		}
	}
}

func newProbedTerm(w, h int) *probedTerm {
	return &probedTerm{fakeTerm: *newFakeTerm(w, h), oracle: rendertest.NewOracle(w, h),
		env: term.Caps{Colors: render.ColorTrue}}
}

// TestInlineWidthChangeOnTerminalIgnoring3J: in a terminal that ignores
// CSI 3 J (neovim's, emacs's), an inline width change must not show the
// history twice; the same terminal without the capability known shows
// what the purge-and-reprint would do there.
func TestInlineWidthChangeOnTerminalIgnoring3J(t *testing.T) {
	for _, known := range []bool{true, false} {
		t.Run(fmt.Sprint("known=", known), func(t *testing.T) {
			pt := newProbedTerm(50, 12)
			pt.ignore3J = true
			pt.env.NoScrollbackClear = known
			fs, stop := runProbedLoop(t, pt, true)
			defer stop()
			var text strings.Builder
			for i := 1; i <= 20; i++ {
				fmt.Fprintf(&text, "numbered line %02d\n\n", i)
			}
			seq := uint64(0)
			send := func(e event.Event) {
				seq++
				e.V, e.Seq, e.Turn = event.SchemaVersion, seq, 1
				fs.events <- e
			}
			send(event.Event{Kind: event.UserMessage, Text: "go"})
			send(event.Event{Kind: event.TurnStarted})
			send(event.Event{Kind: event.AssistantMessage, Text: text.String()})
			send(event.Event{Kind: event.TurnEnded, End: &event.TurnEnd{State: event.TurnCompleted}})
			shown := func() string {
				pt.mu.Lock()
				defer pt.mu.Unlock()
				return strings.Join(append(pt.oracle.ScrollbackText(), pt.oracle.ScreenText()...), "\n")
			}
			waitUntil(t, "the answer", func() bool { return strings.Contains(shown(), "numbered line 20") })
			pt.resize(40, 12)
			time.Sleep(3 * reflowDebounce)
			waitUntil(t, "the redraw at the new width", func() bool {
				return strings.Contains(shown(), "ready") && pt.frameCount() > 0
			})
			time.Sleep(50 * time.Millisecond)
			n := strings.Count(shown(), "numbered line 07")
			if known && n != 1 {
				t.Fatalf("after the width change a history line shows %d times, want once:\n%s", n, shown())
			}
			if !known && n != 2 {
				t.Fatalf("unknown to quire, the terminal should show the reprint doubled (what the capability prevents), got %d", n)
			}
		})
	}
}

// TestProbeAnswerReachesTheRenderer: the first frame goes out before the
// probe answers, bracketed as the environment allows; once the terminal
// says it has no mode 2026, frames go out without the bracket.
func TestProbeAnswerReachesTheRenderer(t *testing.T) {
	pt := newProbedTerm(50, 12)
	_, stop := runProbedLoop(t, pt, false)
	defer stop()
	waitUntil(t, "the first frame", func() bool { return pt.frameCount() > 0 })
	if first := pt.all(); !bytes.HasPrefix(first, []byte("\x1b[?2026h")) {
		t.Fatalf("the first frame is not bracketed: %q", first)
	}
	pt.mu.Lock()
	probes := pt.probes
	pt.mu.Unlock()
	if probes != 1 {
		t.Fatalf("the loop started %d probes, want 1", probes)
	}
	before := pt.frameCount()
	// The answer: the terminal has no mode 2026.
	pt.events <- term.CapsEvent{Caps: term.Caps{Colors: render.ColorTrue, SyncProbed: true, SyncOutput: false}}
	pt.events <- term.KeyEvent{Key: term.KeyRune, Rune: 'x'}
	waitUntil(t, "a frame after the probe", func() bool { return pt.frameCount() > before })
	time.Sleep(50 * time.Millisecond)
	pt.fakeTerm.mu.Lock()
	last := pt.frames[len(pt.frames)-1]
	pt.fakeTerm.mu.Unlock()
	if bytes.Contains(last, []byte("\x1b[?2026")) {
		t.Fatalf("a frame after the terminal said it has no mode 2026 is bracketed: %q", last)
	}
}
