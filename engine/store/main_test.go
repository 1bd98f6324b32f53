package store

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/event"
)

// The crash and concurrency tests re-run this test binary as a child
// process; childEnv selects what the child does.
const childEnv = "QUIRE_STORE_TEST_CHILD"

func TestMain(m *testing.M) {
	switch os.Getenv(childEnv) {
	case "":
		os.Exit(m.Run())
	case "writer":
		os.Exit(childWriter(os.Getenv("ROOT"), os.Getenv("ID"), os.Getenv("CWD"), os.Getenv("STOP_ON_STDIN") != ""))
	default:
		fmt.Fprintln(os.Stderr, "unknown child mode")
		os.Exit(2)
	}
}

// childWriter opens (or creates) a session and appends turns forever:
// a durable user message, whose seq it prints as "ack N" once Record has
// returned, then deltas, a large tool output and the turn's end, all
// group-committed. With stopOnStdin it closes the session cleanly when
// its stdin ends; otherwise it runs until killed.
func childWriter(root, id, cwd string, stopOnStdin bool) int {
	fail := func(err error) int {
		fmt.Fprintln(os.Stderr, "child:", err)
		return 1
	}
	st, err := Open(root, Options{GroupWindow: 2 * time.Millisecond})
	if err != nil {
		return fail(err)
	}
	w, err := st.Append(id)
	if err != nil {
		if w, err = st.Create(id, cwd); err != nil {
			return fail(err)
		}
	}
	out := bufio.NewWriter(os.Stdout)
	say := func(format string, args ...any) {
		fmt.Fprintf(out, format+"\n", args...)
		out.Flush()
	}
	seq := w.LastSeq()
	say("start %d", seq)
	stop := make(chan struct{})
	if stopOnStdin {
		go func() {
			bufio.NewReader(os.Stdin).ReadString(0)
			close(stop)
		}()
	}
	rec := func(e event.Event, durable bool) error {
		seq++
		e.V, e.Seq, e.Time = event.SchemaVersion, seq, time.Now()
		return w.Record(e, durable)
	}
	if seq == 0 {
		if err := rec(event.Event{Kind: event.SessionStarted, Session: &event.SessionInfo{ID: id, Cwd: cwd}}, true); err != nil {
			return fail(err)
		}
	}
	big := strings.Repeat("tool output line\n", 1000)
	for turn := 1; ; turn++ {
		select {
		case <-stop:
			if err := w.Close(); err != nil {
				return fail(err)
			}
			say("closed %d", seq)
			return 0
		default:
		}
		if err := rec(event.Event{Kind: event.UserMessage, Text: fmt.Sprintf("prompt %d", turn)}, true); err != nil {
			return fail(err)
		}
		say("ack %d", seq)
		if err := rec(event.Event{Kind: event.TurnStarted, Turn: turn}, false); err != nil {
			return fail(err)
		}
		for i := 0; i < 40; i++ {
			if err := rec(event.Event{Kind: event.AssistantDelta, Turn: turn, Text: fmt.Sprintf("delta %d ", i)}, false); err != nil {
				return fail(err)
			}
			if rand.IntN(4) == 0 {
				time.Sleep(time.Duration(rand.IntN(200)) * time.Microsecond)
			}
		}
		if err := rec(event.Event{Kind: event.ToolFinished, Turn: turn, Result: &event.ToolResult{CallID: "c", Status: event.ToolOK, Output: big + fmt.Sprint(turn%3)}}, false); err != nil {
			return fail(err)
		}
		if err := rec(event.Event{Kind: event.TurnEnded, Turn: turn, End: &event.TurnEnd{State: event.TurnCompleted, Usage: event.Usage{TotalTokens: 10}}}, false); err != nil {
			return fail(err)
		}
	}
}
