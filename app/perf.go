package app

import (
	"fmt"
	"time"

	"github.com/quire-sh/quire/render"
)

// perfMeter keeps the recent frames for the /perf row: what the renderer
// wrote and how long a frame took to draw, the numbers the render
// benchmarks measure, live on the user's own terminal.
type perfMeter struct {
	frames  [perfFrames]perfFrame // a ring, newest at next-1
	n, next int
	pending int           // frames the writer had not put out after the last one
	write   time.Duration // how long the tty took to take the last frame written
}

// perfFrames bounds the ring; at the fastest frame rate the loop allows
// it still covers the last second.
const perfFrames = 128

type perfFrame struct {
	at    time.Time
	bytes int
	took  time.Duration
}

// record adds a flushed frame. Frames that wrote nothing are not frames
// on the wire, and do not count.
func (p *perfMeter) record(at time.Time, st render.Stats, took time.Duration, pending int, write time.Duration) {
	p.pending, p.write = pending, write
	if st.Bytes == 0 {
		return
	}
	p.frames[p.next] = perfFrame{at: at, bytes: st.Bytes, took: took}
	p.next = (p.next + 1) % perfFrames
	p.n = min(p.n+1, perfFrames)
}

// summary describes the second of frames up to the newest one, most
// telling part first. The row is only redrawn with a frame, so it speaks
// of the last second that drew rather than of a wall-clock second that
// may have drawn nothing.
func (p *perfMeter) summary() []string {
	if p.n == 0 {
		return []string{"perf", "no frame written yet"}
	}
	newest := p.frames[(p.next-1+perfFrames)%perfFrames].at
	frames, bytes := 0, 0
	var took time.Duration
	for i := range p.n {
		f := p.frames[(p.next-1-i+2*perfFrames)%perfFrames]
		if newest.Sub(f.at) >= time.Second {
			break
		}
		frames++
		bytes += f.bytes
		took += f.took
	}
	return []string{
		"perf",
		fmt.Sprintf("%d B/frame", bytes/frames),
		fmt.Sprintf("%d frames/s", frames),
		formatBytes(bytes) + "/s",
		fmt.Sprintf("draw %.2f ms", float64(took)/float64(frames)/1e6),
		fmt.Sprintf("tty %.2f ms", float64(p.write)/1e6),
		fmt.Sprintf("queue %d", p.pending),
	}
}

func formatBytes(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 1000*1000:
		return fmt.Sprintf("%.1f kB", float64(n)/1000)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}

// RecordFrame tells the /perf meter, when it is on, about a frame the
// loop flushed: its stats, how long drawing and flushing took, how many
// frames the writer still holds and how long the tty took to take the
// last one it wrote.
func (m *Model) RecordFrame(at time.Time, st render.Stats, took time.Duration, pending int, write time.Duration) {
	if m.perf != nil {
		m.perf.record(at, st, took, pending, write)
	}
}

// togglePerf turns the /perf row on or off.
func (m *Model) togglePerf() {
	if m.perf == nil {
		m.perf = &perfMeter{}
	} else {
		m.perf = nil
	}
	m.dirty = true
}
