// Package polltimer is a one-shot timer whose expiry reaches the program
// through the runtime's network poller instead of the runtime's timer
// heap.
//
// Every armed runtime timer bounds how long the runtime's monitor thread
// (sysmon) may sleep when nothing runs: it wakes at the timer's deadline,
// and again ten milliseconds later, and a timer left in the heap after
// its goroutine stopped waiting for it keeps it from sleeping at all
// until the next goroutine runs. A streaming UI keeps a timer armed for
// most of its life (the next frame, the spinner's next step), so the
// monitor woke about a hundred times a second, each wake-up a pair of
// thread switches. On Linux a Timer is a timerfd: its expiry is an event
// like a socket's, the thread blocked in the poller wakes once when it is
// due, and the monitor sleeps on. Arming, reading and disarming are raw
// system calls, which do not wake the monitor either. Elsewhere (or when
// no timerfd can be had) a Timer is a runtime timer with the same
// methods.
package polltimer
