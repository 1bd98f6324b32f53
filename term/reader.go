package term

import (
	"errors"
	"os"
	"sync"
	"time"
)

// Input runs on two goroutines: readLoop only reads the tty (a blocking
// read cannot be cancelled, so it must be parkable: tty.Drain makes the
// pending read return), and decodeLoop owns the decoder, the escape and
// paste timers and the outgoing event queue. A slow consumer of Events
// therefore never delays probe replies, which are routed as they are
// decoded.

// parking is the reader's pause switch for hand-offs.
type parking struct {
	mu      sync.Mutex
	cond    *sync.Cond
	want    bool // a hand-off asked the reader to let go
	parked  bool // the reader is holding still
	stopped bool
}

func (p *parking) init() { p.cond = sync.NewCond(&p.mu) }

// hold is called by the reader between reads; it returns false when the
// reader should exit.
func (p *parking) hold() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for p.want && !p.stopped {
		p.parked = true
		p.cond.Wait()
	}
	p.parked = false
	return !p.stopped
}

func (p *parking) wanted() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.want
}

func (p *parking) request() {
	p.mu.Lock()
	p.want = true
	p.mu.Unlock()
}

func (p *parking) isParked() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.parked
}

func (p *parking) release() {
	p.mu.Lock()
	p.want = false
	p.cond.Broadcast()
	p.mu.Unlock()
}

func (p *parking) stop() {
	p.mu.Lock()
	p.stopped = true
	p.cond.Broadcast()
	p.mu.Unlock()
}

// parkReader asks the reader to stop reading and waits up to timeout for
// it to do so. A Tty whose Drain cannot interrupt a read (Drain may be a
// no-op) leaves the reader blocked: then false is returned and the
// hand-off proceeds anyway, with the reader competing for input.
func (t *Terminal) parkReader(timeout time.Duration) bool {
	t.park.request()
	_ = t.tty.Drain()
	deadline := time.Now().Add(timeout)
	for !t.park.isParked() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(time.Millisecond)
	}
	return true
}

func (t *Terminal) readLoop() {
	defer t.wg.Done()
	buf := make([]byte, 4096)
	for {
		if !t.park.hold() {
			return
		}
		n, err := t.tty.Read(buf)
		if n > 0 {
			chunk := append([]byte(nil), buf[:n]...)
			select {
			case t.input <- chunk:
			case <-t.done:
				return
			}
		}
		if err == nil {
			continue
		}
		if t.park.wanted() {
			continue // parked at the top of the loop
		}
		if t.closed.Load() {
			return
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			// A drained tty between hand-off steps; do not spin.
			time.Sleep(5 * time.Millisecond)
			continue
		}
		// The tty is gone (hang-up). SIGHUP tells the application.
		return
	}
}

func (t *Terminal) decodeLoop() {
	defer t.wg.Done()
	defer close(t.events)

	var out []Event
	emit := func(ev Event) {
		if r, ok := ev.(ResizeEvent); ok && len(out) > 0 {
			if _, last := out[len(out)-1].(ResizeEvent); last {
				out[len(out)-1] = r // only the latest size matters
				return
			}
		}
		out = append(out, ev)
	}
	d := newDecoder(emit, t.replies.deliver, t.replies.wantCPR)

	escTimer := time.NewTimer(time.Hour)
	escTimer.Stop()
	pasteTimer := time.NewTimer(time.Hour)
	pasteTimer.Stop()
	defer escTimer.Stop()
	defer pasteTimer.Stop()
	var escC, pasteC <-chan time.Time
	// armEsc starts the escape delay after input that left a sequence
	// unfinished; it is not extended by unrelated loop turns.
	armEsc := func() {
		if d.partial() {
			escTimer.Reset(t.opts.EscDelay)
			escC = escTimer.C
		} else if escC != nil {
			escTimer.Stop()
			escC = nil
		}
	}

	for {
		var send chan<- Event
		var head Event
		if len(out) > 0 {
			send, head = t.events, out[0]
		}
		select {
		case b := <-t.input:
			d.feed(b)
			armEsc()
			if d.pasting() {
				pasteTimer.Reset(pasteTimeout)
				pasteC = pasteTimer.C
			} else {
				pasteTimer.Stop()
				pasteC = nil
			}
		case <-escC:
			escC = nil
			d.flush()
			armEsc()
		case <-pasteC:
			d.abandonPaste()
			pasteC = nil
		case ev := <-t.inject:
			emit(ev)
		case <-t.resized:
			if w, h, ok := t.refreshSize(); ok {
				if t.rec != nil {
					t.rec.resize(w, h)
				}
				emit(ResizeEvent{Width: w, Height: h})
			}
		case ev := <-d.tev:
			// tcell posts from its own timer only if a token left it
			// mid-sequence, which the scanner prevents; translate anyway.
			d.tev <- ev
			d.drainTcell()
		case send <- head:
			out[0] = nil
			out = out[1:]
		case <-t.done:
			return
		}
	}
}

// refreshSize reads the tty's size and reports it if it changed.
func (t *Terminal) refreshSize() (w, h int, changed bool) {
	ws, err := t.tty.WindowSize()
	if err != nil {
		return 0, 0, false
	}
	t.sizeMu.Lock()
	defer t.sizeMu.Unlock()
	if ws.Width == t.width && ws.Height == t.height {
		return ws.Width, ws.Height, false
	}
	t.width, t.height = ws.Width, ws.Height
	return ws.Width, ws.Height, true
}
