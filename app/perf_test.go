package app

import (
	"strings"
	"testing"
	"time"

	"github.com/quire-sh/quire/render"
	"github.com/quire-sh/quire/term"
)

func TestPerfMeterSummarisesTheLastSecondThatDrew(t *testing.T) {
	var p perfMeter
	if got := strings.Join(p.summary(), " · "); got != "perf · no frame written yet" {
		t.Fatalf("before any frame: %q", got)
	}
	// An old burst, then four frames within a second; an unchanged
	// frame (0 bytes) is not a frame on the wire.
	p.record(t0, render.Stats{Bytes: 9000}, time.Millisecond, 0, 0)
	base := t0.Add(5 * time.Second)
	for i, n := range []int{100, 200, 300, 400} {
		p.record(base.Add(time.Duration(i)*100*time.Millisecond), render.Stats{Bytes: n}, 2*time.Millisecond, 1, 0)
	}
	p.record(base.Add(time.Second/2), render.Stats{}, time.Millisecond, 3, 1500*time.Microsecond)
	want := "perf · 250 B/frame · 4 frames/s · 1.0 kB/s · draw 2.00 ms · tty 1.50 ms · queue 3"
	if got := strings.Join(p.summary(), " · "); got != want {
		t.Fatalf("summary %q, want %q", got, want)
	}
}

func TestPerfCommandTogglesTheRow(t *testing.T) {
	m := newTestModel()
	has := func() bool {
		for _, r := range screenText(m, 80, 24) {
			if strings.HasPrefix(r, "perf · ") {
				return true
			}
		}
		return false
	}
	typeText(m, "/perf")
	m.HandleInput(named(term.KeyEnter), t0)
	if !has() {
		t.Fatalf("/perf did not show the row:\n%s", strings.Join(screenText(m, 80, 24), "\n"))
	}
	typeText(m, "/perf")
	m.HandleInput(named(term.KeyEnter), t0)
	if has() {
		t.Fatal("a second /perf did not hide the row")
	}
}
