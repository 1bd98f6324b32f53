package polltimer

import "testing"

func TestNewUsesATimerfdOnLinux(t *testing.T) {
	tm := New()
	defer tm.Close()
	if _, ok := tm.impl.(*fdTimer); !ok {
		t.Fatalf("New on Linux made a %T, not a timerfd", tm.impl)
	}
}
