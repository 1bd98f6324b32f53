package app_test

import (
	"context"
	"errors"
	"io"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/quire-sh/quire/app"
	"github.com/quire-sh/quire/engine"
	"github.com/quire-sh/quire/engine/llm/chat"
	"github.com/quire-sh/quire/engine/testserver"
	"github.com/quire-sh/quire/render"
	"github.com/quire-sh/quire/term"
	"github.com/quire-sh/quire/tools"
)

// fakeTerm is a terminal whose input the benchmark injects and whose
// output it timestamps. Writes happen on the loop's goroutine.
type fakeTerm struct {
	events  chan term.Event
	w, h    int
	onWrite func(p []byte)
}

func (f *fakeTerm) Events() <-chan term.Event { return f.events }
func (f *fakeTerm) Size() (int, int)          { return f.w, f.h }
func (f *fakeTerm) Writer() io.Writer         { return writerFunc(f.onWrite) }
func (f *fakeTerm) Pending() int              { return 0 }
func (f *fakeTerm) LastWrite() time.Duration  { return 0 }
func (f *fakeTerm) Caps() term.Caps {
	return term.Caps{Colors: render.ColorTrue, Hyperlinks: true}
}
func (f *fakeTerm) SetAltScreen(bool) error                        { return nil }
func (f *fakeTerm) SetMouse(bool) error                            { return nil }
func (f *fakeTerm) HandOff(fn func() error) error                  { return fn() }
func (f *fakeTerm) Suspend() error                                 { return nil }
func (f *fakeTerm) Copy(string) error                              { return nil }
func (f *fakeTerm) CursorPosition(time.Duration) (int, int, error) { return 0, f.h - 1, nil }

// benchSession is the engine session as the app sees it; the benchmark
// switches nothing.
type benchSession struct{ *engine.Session }

var errNotHere = errors.New("not in the benchmark")

func (benchSession) SwitchModel(context.Context, string) (app.Switched, error) {
	return app.Switched{}, errNotHere
}
func (benchSession) Clear(context.Context) (app.Switched, error) { return app.Switched{}, errNotHere }
func (benchSession) Rewind(context.Context, int, string) (app.Switched, error) {
	return app.Switched{}, errNotHere
}
func (benchSession) Sessions(context.Context) ([]app.SessionSummary, error) { return nil, errNotHere }
func (benchSession) Export(context.Context, string) (string, error)         { return "", errNotHere }

type writerFunc func(p []byte)

func (w writerFunc) Write(p []byte) (int, error) { w(p); return len(p), nil }

// tokensPerSecond is the load: the test server streams this fast.
const tokensPerSecond = 2000

// BenchmarkAppInputLatency measures, while the model streams 2,000
// tokens/s, the time from a key arriving to the write of the first frame
// that shows it; one op is one key. It reports p50 and p99 and the bytes
// written to the terminal per streamed token.
func BenchmarkAppInputLatency(b *testing.B) {
	for _, mode := range []string{"fullscreen", "inline"} {
		b.Run(mode, func(b *testing.B) { benchLatency(b, mode == "inline") })
	}
}

func benchLatency(b *testing.B, minimal bool) {
	words := make([]string, 0, 200_000)
	for i := 0; len(words) < cap(words); i++ {
		words = append(words, "token ", "more ", "text, ", "`code` ", "and\n\n")
	}
	srv, err := testserver.Start(testserver.Script{Responses: []testserver.Response{{
		Text: words, Pace: testserver.Duration(time.Second / tokensPerSecond),
	}}})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	sess, err := engine.New(engine.Config{
		Model: "bench", Sampler: chat.New(chat.Config{BaseURL: srv.URL()}),
		Tools: tools.NewRegistry(), Env: &tools.Env{Dir: b.TempDir()},
	})
	if err != nil {
		b.Fatal(err)
	}
	defer sess.Close()

	ft := &fakeTerm{events: make(chan term.Event, 64), w: 120, h: 40}
	var mu sync.Mutex
	var model *app.Model
	var typed int          // keys injected so far
	var sentAt []time.Time // when key i was injected
	var shownAt []time.Time
	var bytes int
	ft.onWrite = func(p []byte) {
		now := time.Now()
		mu.Lock()
		defer mu.Unlock()
		bytes += len(p)
		n := len(model.PromptText())
		for len(shownAt) < n && len(shownAt) < len(sentAt) {
			shownAt = append(shownAt, now)
		}
	}
	tr := app.NewTranscript("dark", b.TempDir(), 120, 40)
	model = app.NewModel(tr, nil, app.Status{Model: "bench"}, minimal)
	loop := app.NewLoop(model, ft, benchSession{sess}, app.LoopOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- loop.Run(ctx) }()

	// Start the stream and wait until it flows.
	sess.Submit("stream")
	streamStart := time.Now()
	deadline := time.Now().Add(10 * time.Second)
	for {
		mu.Lock()
		started := bytes > 20_000
		mu.Unlock()
		if started || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	mu.Lock()
	bytesBefore := bytes
	mu.Unlock()
	measureStart := time.Now()

	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		mu.Lock()
		sentAt = append(sentAt, time.Now())
		typed++
		mu.Unlock()
		ft.events <- term.KeyEvent{Key: term.KeyRune, Rune: 'x'}
		for {
			mu.Lock()
			shown := len(shownAt) >= typed
			mu.Unlock()
			if shown {
				break
			}
			time.Sleep(100 * time.Microsecond)
		}
		time.Sleep(3 * time.Millisecond) // a fast typist, not a flood
	}
	b.StopTimer()
	elapsed := time.Since(measureStart)
	cancel()
	<-done
	_ = streamStart

	mu.Lock()
	defer mu.Unlock()
	lat := make([]time.Duration, len(sentAt))
	for i := range sentAt {
		lat[i] = shownAt[i].Sub(sentAt[i])
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	pct := func(p float64) float64 {
		return float64(lat[min(int(p*float64(len(lat))), len(lat)-1)]) / 1e6
	}
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
	streamed := elapsed.Seconds() * tokensPerSecond
	if streamed > 0 {
		b.ReportMetric(float64(bytes-bytesBefore)/streamed, "bytes/token")
	}
}
