package engine

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/testserver"
	"github.com/quire-sh/quire/tools"
)

var errNoSpace = errors.New("saving the session failed: no space left on device (/state/events.db)")

// failingStore is a Recorder over a disk that fails while failing is set:
// like the store's writer it keeps what it could not save (and says so)
// and refuses durable records; Flush fails while the disk does.
type failingStore struct {
	recorder
	failing   atomic.Bool
	flushMu   sync.Mutex
	flushErrs int
	// failAfter, when set, makes the disk fail once an event of this
	// kind is saved.
	failAfter event.Kind
}

func (f *failingStore) Record(e event.Event, durable bool) error {
	if f.failAfter != "" && e.Kind == f.failAfter {
		defer f.failing.Store(true)
	}
	if f.failing.Load() {
		if durable {
			return errNoSpace
		}
		f.recorder.Record(e, durable)
		return errNoSpace
	}
	return f.recorder.Record(e, durable)
}

func (f *failingStore) Flush() error {
	f.flushMu.Lock()
	defer f.flushMu.Unlock()
	if f.failing.Load() {
		f.flushErrs++
		return errNoSpace
	}
	return nil
}

func storeStates(evs []event.Event) string {
	var out []string
	for _, e := range evs {
		if e.Store != "" {
			out = append(out, string(e.Kind)+":"+e.Store)
		}
	}
	return strings.Join(out, " ")
}

// A failing store is told once, with the status the UI shows, and so is
// its recovery; the conversation goes on meanwhile.
func TestSaveFailureShownOnceThenRecovery(t *testing.T) {
	st := &failingStore{}
	h := newHarness(t, testserver.Script{Responses: []testserver.Response{
		{Text: testserver.Words("one two three four")},
		testserver.Text("fine"),
	}}, func(c *Config) { c.Recorder = st })
	st.failAfter = event.TurnStarted
	h.s.Submit("first")
	if end := h.turnEnd(1); end.State != event.TurnCompleted {
		t.Fatalf("the turn did not go on: %+v", end)
	}
	st.failAfter = ""
	st.failing.Store(false)
	h.s.Submit("second")
	h.turnEnd(2)
	all := h.all()
	if got := storeStates(all); got != "notice:failing notice:ok" {
		t.Fatalf("store states %q, want one failure then one recovery", got)
	}
	for _, e := range all {
		if e.Store == event.StoreFailing && (e.Level != "warn" || !strings.Contains(e.Text, "no space left on device")) {
			t.Errorf("the failure notice: %+v", e)
		}
	}
}

// A prompt that cannot be saved is not sent, and the Error saying so
// carries the status.
func TestUnsavedPromptCarriesTheStatus(t *testing.T) {
	st := &failingStore{}
	st.failing.Store(true)
	h := newHarness(t, testserver.Script{Responses: []testserver.Response{testserver.Text("ok")}}, func(c *Config) { c.Recorder = st })
	h.s.Submit("lost")
	h.waitFor("the error", func(e event.Event) bool { return e.Kind == event.Error })
	st.failing.Store(false)
	h.s.Submit("kept")
	h.turnEnd(1)
	// The session's start already failed to save, then the prompt did.
	if got := storeStates(h.all()); got != "notice:failing error:failing notice:ok" {
		t.Errorf("store states %q", got)
	}
	if reqs := h.srv.Requests(); len(reqs) != 1 || reqs[0].LastMessage().Content != "kept" {
		t.Fatalf("requests %+v", reqs)
	}
}

// quire exec on a failing disk says so in one line and fails: when the
// failure shows during the turn, when it shows only in the final commit
// (a short turn that fits the group window), and when the prompt itself
// cannot be saved (nothing else would end the run).
func TestExecReportsSaveFailure(t *testing.T) {
	for _, c := range []struct {
		name string
		when func(*failingStore) func(*Config)
	}{
		{"during the turn", func(st *failingStore) func(*Config) {
			st.failAfter = event.TurnStarted
			return func(c *Config) { c.Recorder = st }
		}},
		{"at the end", func(st *failingStore) func(*Config) {
			return func(c *Config) {
				c.Recorder = &lateFailure{st}
			}
		}},
		{"the prompt", func(st *failingStore) func(*Config) {
			st.failing.Store(true)
			return func(c *Config) { c.Recorder = st }
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := &failingStore{}
			state, err, _, errOut, _ := execWith(t, testserver.Script{Responses: []testserver.Response{
				{Text: testserver.Words("a few words of an answer")},
			}}, ExecOptions{}, c.when(st))
			if !errors.Is(err, ErrNotSaved) {
				t.Fatalf("Exec: %s, %v; want ErrNotSaved", state, err)
			}
			lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
			if len(lines) != 1 || !strings.HasPrefix(lines[0], "quire: ") || !strings.Contains(lines[0], "no space left on device (/state/events.db)") {
				t.Errorf("stderr %q, want one line naming the problem", errOut)
			}
		})
	}
}

// lateFailure accepts every event but cannot commit them at the end.
type lateFailure struct{ *failingStore }

func (l *lateFailure) Record(e event.Event, durable bool) error {
	return l.failingStore.recorder.Record(e, durable)
}

func (l *lateFailure) Flush() error { return errNoSpace }

// --json escapes every control character, DEL and the C1 controls too, so
// a terminal shown the stream obeys none of them; decoded, the text is
// what the model sent.
func TestExecJSONEscapesEveryControl(t *testing.T) {
	evil := "clip\x1b]52;c;ZWNobyBwd25lZA==\x07 title\x1b]0;owned\x07 clear\x1b[2J csi\u009b31m del\x7f end"
	_, err, out, _, _ := execWith(t, testserver.Script{Responses: []testserver.Response{{Text: []string{evil}}}}, ExecOptions{JSON: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"\x1b", "\x07", "\x7f", "\u009b"} {
		if strings.Contains(out, bad) {
			t.Errorf("--json output holds a raw %q", bad)
		}
	}
	sc := bufio.NewScanner(strings.NewReader(out))
	found := false
	for sc.Scan() {
		var e event.Event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("not JSON: %q: %v", sc.Text(), err)
		}
		if e.Kind == event.AssistantMessage && e.Text == evil {
			found = true
		}
	}
	if !found {
		t.Error("the answer did not decode to the text the model sent")
	}
}

// With the redact_tool_output setting the engine filters every result
// before the model sees it, and the result event carries what it saw.
func TestToolOutputFilter(t *testing.T) {
	secret := "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"
	h := newHarness(t, testserver.Script{Responses: []testserver.Response{
		{ToolCalls: []testserver.ToolCall{call("c1", "read", ".env")}},
		testserver.Text("ok"),
	}}, func(c *Config) {
		c.Tools = tools.NewRegistry(&fakeTool{name: "read", kind: tools.KindRead, run: func(context.Context, tools.Call, map[string]any) tools.Result {
			return tools.Result{Output: "OPENAI_API_KEY=" + secret + "\n"}
		}})
		c.ToolOutput = func(s string) string { return strings.ReplaceAll(s, secret, "[REDACTED]") }
	})
	h.s.Submit("read it")
	h.turnEnd(1)
	if msg := h.srv.Requests()[1].LastMessage().Content; msg != "OPENAI_API_KEY=[REDACTED]\n" {
		t.Errorf("the model saw %q", msg)
	}
	for _, e := range h.all() {
		if e.Kind == event.ToolFinished && strings.Contains(e.Result.Output, secret) {
			t.Errorf("the result event holds the secret: %q", e.Result.Output)
		}
	}
}
