package polltimer

import (
	"runtime"
	"testing"
	"time"
)

// implementations returns a constructor for each Timer this platform has.
func implementations(t *testing.T) map[string]func() *Timer {
	impls := map[string]func() *Timer{"runtime": newRuntimeTimer}
	if runtime.GOOS == "linux" {
		impls["timerfd"] = func() *Timer {
			tm := newFdTimer()
			if tm == nil {
				t.Fatal("no timerfd on Linux")
			}
			return tm
		}
	}
	return impls
}

// quiet fails if c delivers within d.
func quiet(t *testing.T, c <-chan time.Time, d time.Duration, what string) {
	t.Helper()
	select {
	case <-c:
		t.Fatalf("%s: the timer fired", what)
	case <-time.After(d):
	}
}

func TestTimerFiresOnceAfterItsDuration(t *testing.T) {
	for name, newTimer := range implementations(t) {
		t.Run(name, func(t *testing.T) {
			tm := newTimer()
			defer tm.Close()
			quiet(t, tm.C, 30*time.Millisecond, "never armed")
			for range 3 {
				start := time.Now()
				tm.Reset(20 * time.Millisecond)
				select {
				case <-tm.C:
				case <-time.After(10 * time.Second):
					t.Fatal("the timer never fired")
				}
				if el := time.Since(start); el < 20*time.Millisecond {
					t.Fatalf("fired after %v, before its 20ms", el)
				}
				quiet(t, tm.C, 40*time.Millisecond, "after its one firing")
			}
			tm.Reset(0)
			select {
			case <-tm.C:
			case <-time.After(10 * time.Second):
				t.Fatal("Reset(0) never fired")
			}
		})
	}
}

func TestTimerResetAndStopLeaveNoEarlierTick(t *testing.T) {
	for name, newTimer := range implementations(t) {
		t.Run(name, func(t *testing.T) {
			tm := newTimer()
			defer tm.Close()
			// A tick already delivered and not received is dropped.
			tm.Reset(time.Millisecond)
			time.Sleep(30 * time.Millisecond)
			tm.Reset(time.Hour)
			quiet(t, tm.C, 30*time.Millisecond, "re-armed after a tick was delivered")
			tm.Reset(time.Millisecond)
			time.Sleep(30 * time.Millisecond)
			tm.Stop()
			quiet(t, tm.C, 30*time.Millisecond, "stopped after a tick was delivered")
			// An expiry racing the re-arming never gets through: fire at
			// once, re-arm far away, many times over.
			for range 2000 {
				tm.Reset(0)
				tm.Reset(time.Hour)
				select {
				case <-tm.C:
					t.Fatal("a tick of an earlier arming survived Reset")
				default:
				}
			}
			// A stopped timer stays quiet past its old deadline.
			tm.Reset(10 * time.Millisecond)
			tm.Stop()
			quiet(t, tm.C, 50*time.Millisecond, "stopped before its deadline")
		})
	}
}

func TestTimerCloseReleasesIt(t *testing.T) {
	for name, newTimer := range implementations(t) {
		t.Run(name, func(t *testing.T) {
			before := runtime.NumGoroutine()
			fds := openFiles(t)
			for range 50 {
				tm := newTimer()
				tm.Reset(time.Millisecond)
				time.Sleep(time.Millisecond)
				tm.Close()
				tm.Reset(time.Millisecond) // after Close: no effect, no panic
				tm.Stop()
				tm.Close()
				quiet(t, tm.C, 5*time.Millisecond, "closed")
			}
			if got := openFiles(t); got > fds {
				t.Errorf("open descriptors went from %d to %d after closing every timer", fds, got)
			}
			deadline := time.Now().Add(5 * time.Second)
			for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
				time.Sleep(time.Millisecond)
			}
			if n := runtime.NumGoroutine(); n > before {
				t.Errorf("%d goroutines after closing every timer, %d before", n, before)
			}
		})
	}
}
