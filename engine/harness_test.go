package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/llm"
	"github.com/quire-sh/quire/engine/llm/chat"
	"github.com/quire-sh/quire/engine/testserver"
	"github.com/quire-sh/quire/tools"
)

// fakeTool is a tool whose behaviour a test scripts.
type fakeTool struct {
	name   string
	kind   tools.Kind
	writes bool
	run    func(ctx context.Context, call tools.Call, args map[string]any) tools.Result
}

func (f *fakeTool) Spec() tools.Spec {
	return tools.Spec{Name: f.name, Description: "a fake " + f.name + " tool\nsecond line", Kind: f.kind, Writes: f.writes,
		Schema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)}
}

func (f *fakeTool) Plan(env *tools.Env, _ *tools.Overlay, raw json.RawMessage) (tools.Plan, error) {
	var a struct {
		Path string `json:"path"`
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		return tools.Plan{}, fmt.Errorf("bad arguments: %w", err)
	}
	var args map[string]any
	json.Unmarshal(raw, &args)
	p := tools.Plan{Target: a.Path, Action: args}
	if f.writes {
		p.Writes = []string{filepath.Join(env.Dir, a.Path)}
		p.Preview = "write " + a.Path
	}
	return p, nil
}

func (f *fakeTool) Run(ctx context.Context, env *tools.Env, call tools.Call) tools.Result {
	args, _ := call.Plan.Action.(map[string]any)
	if f.run != nil {
		return f.run(ctx, call, args)
	}
	return tools.Result{Output: fmt.Sprintf("%s %v ok", f.name, args["path"])}
}

// askWrites is an approver that asks about every tool that writes, like
// the ask mode.
type askWrites struct {
	mu         sync.Mutex
	remembered map[string]bool
}

func (a *askWrites) NeedsApproval(spec tools.Spec, plan tools.Plan) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return spec.Writes && !a.remembered[spec.Name]
}

func (a *askWrites) Remember(spec tools.Spec, plan tools.Plan) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.remembered == nil {
		a.remembered = map[string]bool{}
	}
	a.remembered[spec.Name] = true
}

// recorder keeps every recorded event and whether it was durable.
type recorder struct {
	mu      sync.Mutex
	events  []event.Event
	durable []bool
	fail    func(e event.Event, durable bool) error
}

func (r *recorder) Record(e event.Event, durable bool) error {
	if r.fail != nil {
		if err := r.fail(e, durable); err != nil {
			return err
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
	r.durable = append(r.durable, durable)
	return nil
}

func (r *recorder) snapshot() []event.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]event.Event(nil), r.events...)
}

// harness runs a session against a scripted server and collects its
// events.
type harness struct {
	t   *testing.T
	srv *testserver.Server
	s   *Session
	rec *recorder

	mu     sync.Mutex
	events []event.Event
	more   chan struct{}
	closed chan struct{}
}

func baseConfig(t *testing.T, url string, ts ...tools.Tool) Config {
	env := &tools.Env{Dir: t.TempDir()}
	if len(ts) == 0 {
		ts = defaultTools()
	}
	return Config{
		Model: "test-model", Version: "test",
		Sampler: chat.New(chat.Config{BaseURL: url, APIKey: "k", TransportConfig: llm.TransportConfig{
			Retry: llm.RetryPolicy{MaxRetries: 2, Initial: time.Millisecond, Max: 5 * time.Millisecond},
			Hints: map[llm.Kind]string{llm.KindAuth: "check OPENAI_API_KEY"}}}),
		Tools: tools.NewRegistry(ts...), Env: env,
		CompactDelay: time.Millisecond, ToolCancelGrace: 200 * time.Millisecond,
	}
}

func defaultTools() []tools.Tool {
	return []tools.Tool{
		&fakeTool{name: "read", kind: tools.KindRead},
		&fakeTool{name: "write", kind: tools.KindEdit, writes: true},
	}
}

func newHarness(t *testing.T, script testserver.Script, mod func(*Config)) *harness {
	t.Helper()
	srv, err := testserver.Start(script)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	cfg := baseConfig(t, srv.URL())
	h := &harness{t: t, srv: srv, rec: &recorder{}, more: make(chan struct{}, 1), closed: make(chan struct{})}
	cfg.Recorder = h.rec
	if mod != nil {
		mod(&cfg)
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	h.s = s
	h.collect()
	t.Cleanup(h.close)
	return h
}

func (h *harness) collect() {
	go func() {
		for e := range h.s.Events() {
			h.mu.Lock()
			h.events = append(h.events, e)
			h.mu.Unlock()
			select {
			case h.more <- struct{}{}:
			default:
			}
		}
		close(h.closed)
	}()
}

func (h *harness) close() {
	h.s.Close()
	<-h.closed
}

func (h *harness) all() []event.Event {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]event.Event(nil), h.events...)
}

// waitFor waits until an event matching pred has arrived and returns it.
func (h *harness) waitFor(what string, pred func(event.Event) bool) event.Event {
	h.t.Helper()
	deadline := time.After(10 * time.Second)
	seen := 0
	for {
		evs := h.all()
		for _, e := range evs[seen:] {
			if pred(e) {
				return e
			}
		}
		seen = len(evs)
		select {
		case <-h.more:
		case <-deadline:
			h.t.Fatalf("timed out waiting for %s; events:\n%s", what, dump(h.all()))
		}
	}
}

func (h *harness) turnEnd(n int) *event.TurnEnd {
	h.t.Helper()
	return h.waitFor(fmt.Sprintf("turn %d to end", n), func(e event.Event) bool {
		return e.Kind == event.TurnEnded && e.Turn == n
	}).End
}

func (h *harness) approval(callID string) {
	h.t.Helper()
	h.waitFor("approval of "+callID, func(e event.Event) bool {
		return e.Kind == event.ApprovalRequested && e.CallID == callID
	})
}

func dump(evs []event.Event) string {
	var out string
	for _, e := range evs {
		b, _ := json.Marshal(e)
		out += string(b) + "\n"
	}
	return out
}

func ofKind(evs []event.Event, k event.Kind) []event.Event {
	var out []event.Event
	for _, e := range evs {
		if e.Kind == k {
			out = append(out, e)
		}
	}
	return out
}

// results maps call ids to their ToolFinished results.
func results(evs []event.Event) map[string]*event.ToolResult {
	out := map[string]*event.ToolResult{}
	for _, e := range ofKind(evs, event.ToolFinished) {
		out[e.CallID] = e.Result
	}
	return out
}

func calls(cs ...testserver.ToolCall) testserver.Response {
	return testserver.Response{ToolCalls: cs}
}

func call(id, name, path string) testserver.ToolCall {
	return testserver.ToolCall{ID: id, Name: name, Arguments: fmt.Sprintf(`{"path":%q}`, path)}
}
