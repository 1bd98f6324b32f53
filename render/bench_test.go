package render_test

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/quire-sh/quire/render"
)

// The frames here are the steady states the app produces: a transcript
// under a header and above a status row and prompt, drawn whole every
// frame the way the app draws it.

var (
	headerStyle = render.Style{Fg: render.RGB(230, 230, 230), Bg: render.RGB(43, 48, 59), Attrs: render.Bold}
	dimStyle    = render.Style{Fg: render.ANSI(8)}
	codeStyle   = render.Style{Fg: render.RGB(224, 108, 117), Bg: render.RGB(40, 44, 52)}
	spinner     = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}
	words       = strings.Fields("the renderer writes only what differs from the previous frame in the fewest bytes it can find while the engine streams tokens and tools run in the sandbox 漢字 👍🏽 `code()` links")
)

// transcriptLine is line i of an endless deterministic transcript.
func transcriptLine(i, width int) render.Line {
	var spans []render.Span
	w := 0
	for k := 0; ; k++ {
		word := words[(i*7+k*3)%len(words)]
		ww := render.StringWidth(word) + 1
		if w+ww > width {
			break
		}
		st := render.Style{}
		switch {
		case strings.HasPrefix(word, "`"):
			st = codeStyle
		case (i+k)%9 == 0:
			st.Attrs = render.Bold
		}
		link := ""
		if i%5 == 0 && k == 2 {
			link = fmt.Sprintf("file:///src/quire/file%d.go", i)
		}
		spans = append(spans, render.Span{Text: word, Style: st, Link: link}, render.Span{Text: " "})
		w += ww
	}
	return render.Line{Spans: spans}
}

type frameDrawer struct {
	w, h   int
	top    int // first transcript line shown
	tick   int
	stream string
	lines  []render.Line
	status []string
}

func newFrameDrawer(w, h int) *frameDrawer {
	d := &frameDrawer{w: w, h: h, lines: make([]render.Line, 500), status: make([]string, 100)}
	for i := range d.lines {
		d.lines[i] = transcriptLine(i, w)
	}
	for i := range d.status {
		d.status[i] = fmt.Sprintf("Working · %d tokens", i)
	}
	return d
}

func (d *frameDrawer) draw(b *render.Buffer) {
	b.Fill(0, 0, d.w, 1, headerStyle)
	b.SetString(1, 0, "quire · ~/src/quire · bench", headerStyle, "")
	for y := 1; y < d.h-2; y++ {
		b.SetLine(0, y, d.lines[(d.top+y)%len(d.lines)])
	}
	if d.stream != "" {
		b.SetString(0, d.h-3, d.stream, render.Style{}, "")
	}
	b.SetString(1, d.h-2, spinner[d.tick%len(spinner)], render.Style{Fg: render.ANSI(5), Attrs: render.Bold}, "")
	b.SetString(3, d.h-2, d.status[d.tick%len(d.status)], dimStyle, "")
	b.SetString(0, d.h-1, "› Ask anything", dimStyle, "")
}

func benchScreen(b *testing.B, w, h int, step func(d *frameDrawer, s *render.Screen)) {
	s := render.NewScreen(io.Discard, w, h, render.Options{Colors: render.ColorTrue, Hyperlinks: true})
	d := newFrameDrawer(w, h)
	for range 3 {
		step(d, s)
		d.draw(s.Back())
		if _, err := s.Flush(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	total := 0
	for range b.N {
		step(d, s)
		d.draw(s.Back())
		st, err := s.Flush()
		if err != nil {
			b.Fatal(err)
		}
		total += st.Bytes
	}
	b.ReportMetric(float64(total)/float64(b.N), "bytes/frame")
}

var sizes = [][2]int{{80, 24}, {200, 50}}

var streamText = strings.Repeat("streaming one token per frame into the tail of the transcript ", 4)

func BenchmarkFlushUnchanged(b *testing.B) {
	for _, sz := range sizes {
		b.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(b *testing.B) {
			benchScreen(b, sz[0], sz[1], func(*frameDrawer, *render.Screen) {})
		})
	}
}

func BenchmarkFlushSpinner(b *testing.B) {
	for _, sz := range sizes {
		b.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(b *testing.B) {
			benchScreen(b, sz[0], sz[1], func(d *frameDrawer, _ *render.Screen) { d.tick++ })
		})
	}
}

func BenchmarkFlushStreamAppend(b *testing.B) {
	for _, sz := range sizes {
		b.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(b *testing.B) {
			benchScreen(b, sz[0], sz[1], func(d *frameDrawer, _ *render.Screen) {
				d.tick++
				d.stream = streamText[:d.tick%min(len(streamText), d.w)]
			})
		})
	}
}

func BenchmarkFlushScroll(b *testing.B) {
	for _, n := range []int{1, 3} {
		for _, sz := range sizes {
			b.Run(fmt.Sprintf("by%d/%dx%d", n, sz[0], sz[1]), func(b *testing.B) {
				benchScreen(b, sz[0], sz[1], func(d *frameDrawer, s *render.Screen) {
					d.top += n
					s.ScrollHint(1, d.h-2, n)
				})
			})
		}
	}
}

func BenchmarkFlushScrollUnhinted(b *testing.B) {
	for _, sz := range sizes {
		b.Run(fmt.Sprintf("by1/%dx%d", sz[0], sz[1]), func(b *testing.B) {
			benchScreen(b, sz[0], sz[1], func(d *frameDrawer, s *render.Screen) { d.top++ })
		})
	}
}

func BenchmarkFlushPage(b *testing.B) {
	for _, sz := range sizes {
		b.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(b *testing.B) {
			benchScreen(b, sz[0], sz[1], func(d *frameDrawer, _ *render.Screen) { d.top += d.h - 3 })
		})
	}
}

func BenchmarkInlineInsert(b *testing.B) {
	const w, h = 80, 24
	v := render.NewInline(io.Discard, w, h, 0, render.Options{Colors: render.ColorTrue, Hyperlinks: true})
	v.SetLiveHeight(3)
	lines := make([]render.Line, 64)
	for i := range lines {
		lines[i] = transcriptLine(i, w)
	}
	b.ReportAllocs()
	total := 0
	for i := range b.N {
		v.InsertAbove(lines[i%len(lines)])
		v.Live().SetString(1, 1, spinner[i%len(spinner)], render.Style{Fg: render.ANSI(5)}, "")
		v.Live().SetString(0, 2, "› Ask anything", dimStyle, "")
		st, err := v.Flush()
		if err != nil {
			b.Fatal(err)
		}
		total += st.Bytes
	}
	b.ReportMetric(float64(total)/float64(b.N), "bytes/frame")
}

// Steady-state frames allocate nothing: drawing, diffing, encoding and
// the write all reuse their memory.
func TestSteadyStateFramesDoNotAllocate(t *testing.T) {
	for _, tc := range []struct {
		name string
		step func(d *frameDrawer, s *render.Screen)
	}{
		{"unchanged", func(*frameDrawer, *render.Screen) {}},
		{"spinner", func(d *frameDrawer, _ *render.Screen) { d.tick++ }},
		{"stream append", func(d *frameDrawer, _ *render.Screen) {
			d.tick++
			d.stream = "streamed text"[:1+d.tick%12]
		}},
		{"scroll by 1", func(d *frameDrawer, s *render.Screen) {
			d.top++
			s.ScrollHint(1, d.h-2, 1)
		}},
		{"scroll a page", func(d *frameDrawer, s *render.Screen) {
			d.top += d.h - 3
			s.ScrollHint(1, d.h-2, d.h-3)
		}},
		{"repaint", func(d *frameDrawer, s *render.Screen) {
			d.top += 7
			s.Invalidate()
		}},
	} {
		s := render.NewScreen(io.Discard, 120, 40, render.Options{Colors: render.ColorTrue, Hyperlinks: true})
		d := newFrameDrawer(120, 40)
		lines := d.lines
		frame := func() {
			tc.step(d, s)
			b := s.Back()
			b.Fill(0, 0, d.w, 1, headerStyle)
			for y := 1; y < d.h-2; y++ {
				b.SetLine(0, y, lines[(d.top+y)%len(lines)])
			}
			b.SetString(0, d.h-3, d.stream, render.Style{}, "")
			b.SetString(1, d.h-2, spinner[d.tick%len(spinner)], render.Style{Fg: render.ANSI(5)}, "")
			if _, err := s.Flush(); err != nil {
				t.Fatal(err)
			}
		}
		for range 5 {
			frame()
		}
		if n := testing.AllocsPerRun(50, frame); n != 0 {
			t.Errorf("%s: %v allocations per frame", tc.name, n)
		}
	}
}

// The inline viewport's steady state (a line inserted and the live
// region redrawn every frame) allocates nothing either.
func TestInlineSteadyStateDoesNotAllocate(t *testing.T) {
	v := render.NewInline(io.Discard, 80, 24, 0, render.Options{Colors: render.ColorTrue, Hyperlinks: true})
	v.SetLiveHeight(3)
	d := newFrameDrawer(80, 24)
	i := 0
	frame := func() {
		i++
		v.InsertAbove(d.lines[i%len(d.lines)])
		v.Live().SetString(1, 1, spinner[i%len(spinner)], render.Style{Fg: render.ANSI(5)}, "")
		v.Live().SetString(0, 0, streamText[:i%60], render.Style{}, "")
		v.Live().SetString(0, 2, "› Ask anything", dimStyle, "")
		if _, err := v.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	for range 30 {
		frame()
	}
	if n := testing.AllocsPerRun(100, frame); n != 0 {
		t.Errorf("%v allocations per inline frame", n)
	}
}
