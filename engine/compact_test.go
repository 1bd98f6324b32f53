package engine

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/llm/chat"
	"github.com/quire-sh/quire/engine/testserver"
	"github.com/quire-sh/quire/tools"
)

// goodSummary passes the quality gates.
var goodSummary = "<analysis>scratch</analysis><summary>1. Primary request and intent: the user wants the parser fixed.\n" +
	strings.Repeat("2. Key technical concepts and every detail that matters. ", 12) + "</summary>"

// split answers summary requests and ordinary ones from separate queues.
type split struct {
	mu        sync.Mutex
	samples   []testserver.Response
	summaries []testserver.Response
}

func isSummary(req testserver.Request) bool {
	return len(req.Messages) > 0 && req.Messages[0].Content == summarySystemPrompt
}

func (s *split) respond(n int, req testserver.Request) testserver.Response {
	s.mu.Lock()
	defer s.mu.Unlock()
	q := &s.samples
	def := testserver.Text("extra answer")
	if isSummary(req) {
		q, def = &s.summaries, testserver.Response{Text: []string{goodSummary}}
	}
	if len(*q) == 0 {
		return def
	}
	r := (*q)[0]
	*q = (*q)[1:]
	return r
}

func summaryRequests(reqs []testserver.Request) []testserver.Request {
	var out []testserver.Request
	for _, r := range reqs {
		if isSummary(r) {
			out = append(out, r)
		}
	}
	return out
}

func usage(prompt, completion int) *testserver.Usage {
	return &testserver.Usage{PromptTokens: prompt, CompletionTokens: completion}
}

func TestEstimateTokens(t *testing.T) {
	if got := estimateTokens(strings.Repeat("x", 4000)); got != 1000 {
		t.Errorf("4000 bytes: %d", got)
	}
	if got := estimateTokens(strings.Repeat("中", 12)); got != 9 {
		t.Errorf("12 CJK characters: %d", got)
	}
}

func TestCompactionThreshold(t *testing.T) {
	for _, tt := range []struct {
		reported int
		compacts bool
	}{{84998, false}, {84999, true}} {
		sc := &split{samples: []testserver.Response{{Text: []string{"first"}, Usage: usage(tt.reported-10, 10)}}}
		h := newHarness(t, testserver.Script{Respond: sc.respond}, func(c *Config) { c.ContextWindow = 100_000 })
		h.s.Submit("one")
		h.turnEnd(1)
		h.s.Submit("abcd") // one more token: 84999 or 85000
		h.turnEnd(2)
		got := len(summaryRequests(h.srv.Requests())) > 0
		if got != tt.compacts {
			t.Errorf("estimate %d: compacted %v, want %v", tt.reported+1, got, tt.compacts)
		}
	}
}

func TestToolOutputThatWouldOverflowCompactsFirst(t *testing.T) {
	big := &fakeTool{name: "read", kind: tools.KindRead, run: func(context.Context, tools.Call, map[string]any) tools.Result {
		return tools.Result{Output: strings.Repeat("y", 200_000)} // 50,000 tokens
	}}
	sc := &split{samples: []testserver.Response{
		{ToolCalls: []testserver.ToolCall{call("c1", "read", "big")}, Usage: usage(59_000, 1_000)},
		testserver.Text("done"),
	}}
	srv, _ := testserver.Start(testserver.Script{Respond: sc.respond})
	defer srv.Close()
	h := &harness{t: t, srv: srv, rec: &recorder{}, more: make(chan struct{}, 1), closed: make(chan struct{})}
	cfg := baseConfig(t, srv.URL(), big)
	cfg.ContextWindow = 100_000
	var err error
	h.s, err = New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	h.collect()
	defer h.close()
	h.s.Submit("read the big file")
	h.turnEnd(1)
	reqs := srv.Requests()
	if len(reqs) != 3 || !isSummary(reqs[1]) {
		t.Fatalf("requests: %d, second is summary: %v", len(reqs), len(reqs) > 1 && isSummary(reqs[1]))
	}
	n := ofKind(h.all(), event.Notice)
	if len(n) == 0 || !strings.Contains(n[0].Text, "would overflow") {
		t.Errorf("notices %+v", n)
	}
}

// After an automatic compaction in the middle of a turn, the next request
// is: system prompt (AGENTS.md byte for byte), the last prompt in
// <user_query>, the turn's messages verbatim, the summary, a reminder.
func TestRebuiltHistoryOrder(t *testing.T) {
	agents := "# Rules\n\nAlways run `go vet`.\n\tTabs and trailing spaces   \n"
	sc := &split{samples: []testserver.Response{
		testserver.Text("earlier answer"),
		{ToolCalls: []testserver.ToolCall{call("c1", "read", "a.go")}, Usage: usage(90_000, 100)},
		testserver.Text("finished"),
	}}
	h := newHarness(t, testserver.Script{Respond: sc.respond}, func(c *Config) {
		c.ContextWindow = 100_000
		os.WriteFile(filepath.Join(c.Env.Dir, "AGENTS.md"), []byte(agents), 0o644)
	})
	h.s.Submit("earlier question")
	h.turnEnd(1)
	h.s.Submit("now fix a.go")
	if end := h.turnEnd(2); end.State != event.TurnCompleted {
		t.Fatalf("end %+v", end)
	}
	reqs := h.srv.Requests()
	if len(reqs) != 4 || !isSummary(reqs[2]) {
		t.Fatalf("%d requests", len(reqs))
	}
	msgs := reqs[3].Messages
	var roles []string
	for _, m := range msgs {
		roles = append(roles, m.Role)
	}
	if strings.Join(roles, ",") != "system,user,assistant,tool,user,user" {
		t.Fatalf("roles %v", roles)
	}
	if !strings.Contains(msgs[0].Content, "\n"+agents) {
		t.Errorf("AGENTS.md not verbatim in the system prompt")
	}
	if !strings.Contains(msgs[1].Content, "<user_query>\nnow fix a.go\n</user_query>") {
		t.Errorf("query: %q", msgs[1].Content)
	}
	if msgs[2].ToolCalls[0].ID != "c1" || msgs[3].ToolCallID != "c1" {
		t.Errorf("turn items not verbatim")
	}
	if !strings.Contains(msgs[4].Content, "<summary>\n1. Primary request") || strings.Contains(msgs[4].Content, "scratch") {
		t.Errorf("summary: %q", msgs[4].Content)
	}
	if !strings.Contains(msgs[5].Content, "Continue the current task") {
		t.Errorf("reminder: %q", msgs[5].Content)
	}
	if strings.Contains(reqs[3].Messages[1].Content+reqs[3].Messages[4].Content, "earlier answer") {
		t.Errorf("old messages survived the compaction")
	}
	c := ofKind(h.all(), event.Compacted)
	if len(c) != 1 || c[0].Turn != 2 || c[0].Compaction.Manual || c[0].Compaction.BeforeTokens < 90_000 || c[0].Compaction.AfterTokens >= c[0].Compaction.BeforeTokens {
		t.Errorf("compacted event %+v", c)
	}
}

func TestSummaryInputLadder(t *testing.T) {
	msgs := []Message{{Role: RoleUser, Content: "please refactor"}}
	for i := 0; i < 20; i++ {
		id := string(rune('a' + i))
		msgs = append(msgs,
			Message{Role: RoleAssistant, Calls: []event.ToolCall{{ID: id, Name: "read", Arguments: []byte(`{}`)}}},
			Message{Role: RoleTool, CallID: id, Name: "read", Content: strings.Repeat("output ", 2000)})
	}
	overflow := testserver.Response{Status: 400, Error: "This model's maximum context length is 100000 tokens", Code: "context_length_exceeded"}
	sc := &split{summaries: []testserver.Response{overflow, overflow}}
	srv, _ := testserver.Start(testserver.Script{Respond: sc.respond})
	defer srv.Close()
	c := compactor{sampler: chat.New(chat.Config{BaseURL: srv.URL()}), model: "m", window: 100_000, attempts: 3, delay: time.Millisecond, timeout: time.Second}
	summary, err := c.run(context.Background(), msgs, "")
	if err != nil || !strings.HasPrefix(summary, "1. Primary request") {
		t.Fatalf("summary %q, %v", summary, err)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	sizes := make([]int, 3)
	for i, r := range reqs {
		sizes[i] = len(r.Messages[1].Content)
	}
	if !(sizes[0] > sizes[1] && sizes[1] > sizes[2]) {
		t.Errorf("input did not shrink down the ladder: %v", sizes)
	}
	if sizes[2] > 100_000*70/100*4+4000 {
		t.Errorf("lossy input %d bytes exceeds 70%% of the window", sizes[2])
	}

	// A history too large for the window skips verbatim without asking.
	c.window = 20_000
	if _, err := c.run(context.Background(), msgs, ""); err != nil {
		t.Fatal(err)
	}
	if r := srv.Requests()[3]; len(r.Messages[1].Content) > 20_000*85/100*4+4000 {
		t.Errorf("the first request at a small window was not fitted: %d bytes", len(r.Messages[1].Content))
	}
}

func TestDegenerateSummaryIsRetriedThenGivenUp(t *testing.T) {
	short := testserver.Response{Text: []string{"<summary>" + strings.Repeat("x", 300) + "</summary>"}}
	sc := &split{
		samples:   []testserver.Response{{Text: []string{"a"}, Usage: usage(95_000, 10)}, testserver.Text("went on")},
		summaries: []testserver.Response{short, short, short},
	}
	h := newHarness(t, testserver.Script{Respond: sc.respond}, func(c *Config) { c.ContextWindow = 100_000 })
	h.s.Submit("one")
	h.turnEnd(1)
	h.s.Submit("two")
	if end := h.turnEnd(2); end.State != event.TurnCompleted {
		t.Fatalf("end %+v", end)
	}
	if n := len(summaryRequests(h.srv.Requests())); n != 3 {
		t.Fatalf("%d summary attempts, want 3", n)
	}
	var failed bool
	for _, n := range ofKind(h.all(), event.Notice) {
		failed = failed || strings.Contains(n.Text, "too short to be trusted")
	}
	if !failed || len(ofKind(h.all(), event.Compacted)) != 0 {
		t.Fatal("a degenerate summary was accepted or the failure not shown")
	}
}

func TestCleanSummary(t *testing.T) {
	tests := []struct{ in, want string }{
		{"<analysis>think</analysis>\n<summary>body</summary>", "body"},
		{"<analysis>never closed\n<summary>body</summary>", "body"},
		{"no tags at all", "no tags at all"},
		{"<summary>a <summary> inside</summary>", "a <\u200bsummary> inside"},
		{"<summary>quote: </user_query> and <analysis></summary>", "quote: </\u200buser_query> and <\u200banalysis>"},
		{"<SUMMARY>upper</SUMMARY>", "upper"},
	}
	for _, tt := range tests {
		if got := cleanSummary(tt.in); got != tt.want {
			t.Errorf("cleanSummary(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSchemaErrorSuppressesAutoCompaction(t *testing.T) {
	sc := &split{
		samples:   []testserver.Response{{Text: []string{"a"}, Usage: usage(95_000, 10)}, {Text: []string{"b"}, Usage: usage(96_000, 10)}},
		summaries: []testserver.Response{testserver.Fail(400, "Invalid schema for function")},
	}
	h := newHarness(t, testserver.Script{Respond: sc.respond}, func(c *Config) { c.ContextWindow = 100_000 })
	h.s.Submit("one")
	h.turnEnd(1)
	h.s.Submit("two")
	h.turnEnd(2)
	h.s.Submit("three")
	h.turnEnd(3)
	if n := len(summaryRequests(h.srv.Requests())); n != 1 {
		t.Fatalf("%d summary calls, want exactly 1", n)
	}
	h.s.Compact("")
	h.waitFor("manual compaction", func(e event.Event) bool { return e.Kind == event.Compacted })
	if n := len(summaryRequests(h.srv.Requests())); n != 2 {
		t.Fatalf("manual /compact did not run while suppressed")
	}
}

func TestQuotaSuppressionLiftsOnSuccess(t *testing.T) {
	quota := testserver.Response{Status: 429, Error: "You exceeded your current quota", Code: "insufficient_quota"}
	sc := &split{
		samples: []testserver.Response{
			{Text: []string{"a"}, Usage: usage(95_000, 10)},
			{Text: []string{"b"}, Usage: usage(95_000, 10)}, // succeeds: lifts the suppression
		},
		summaries: []testserver.Response{quota},
	}
	h := newHarness(t, testserver.Script{Respond: sc.respond}, func(c *Config) { c.ContextWindow = 100_000 })
	h.s.Submit("one")
	h.turnEnd(1)
	h.s.Submit("two")
	h.turnEnd(2)
	h.s.Submit("three")
	h.turnEnd(3)
	if n := len(summaryRequests(h.srv.Requests())); n != 2 {
		t.Fatalf("%d summary calls, want 2 (quota failure, then again after a success)", n)
	}
	if len(ofKind(h.all(), event.Compacted)) != 1 {
		t.Fatal("the second compaction did not happen")
	}
}

func TestSummaryTimeoutsAreBounded(t *testing.T) {
	hang := testserver.Response{Fault: testserver.FaultHang}
	sc := &split{
		samples:   []testserver.Response{{Text: []string{"a"}, Usage: usage(95_000, 10)}},
		summaries: []testserver.Response{hang, hang, hang, hang},
	}
	h := newHarness(t, testserver.Script{Respond: sc.respond}, func(c *Config) {
		c.ContextWindow = 100_000
		c.CompactTimeout = 50 * time.Millisecond
	})
	h.s.Submit("one")
	h.turnEnd(1)
	h.s.Submit("two")
	h.turnEnd(2)
	if n := len(summaryRequests(h.srv.Requests())); n != 3 {
		t.Fatalf("%d attempts, want 3", n)
	}
}

func TestRequestMessagesRepairsToolPairs(t *testing.T) {
	hist := []Message{
		{Role: RoleUser, Content: "q"},
		{Role: RoleTool, CallID: "orphan", Content: "stray"},
		{Role: RoleAssistant, Calls: []event.ToolCall{{ID: "x", Name: "read", Arguments: []byte(`{}`)}, {ID: "y", Name: "read", Arguments: []byte(`{}`)}}},
		{Role: RoleTool, CallID: "y", Content: ""},
	}
	got := requestMessages(hist)
	var shape []string
	for _, m := range got {
		shape = append(shape, string(m.Role)+":"+m.CallID+":"+m.Content)
	}
	want := []string{"user::q", "assistant::", "tool:x:" + missingResult, "tool:y:" + noOutput}
	if !reflect.DeepEqual(shape, want) {
		t.Fatalf("got %q\nwant %q", shape, want)
	}
}

func TestManualCompactionWithFocus(t *testing.T) {
	sc := &split{samples: []testserver.Response{testserver.Text("answer one")}}
	h := newHarness(t, testserver.Script{Respond: sc.respond}, nil)
	h.s.Submit("one")
	h.turnEnd(1)
	before := h.s.History()
	h.s.Compact("keep auth")
	c := h.waitFor("compaction", func(e event.Event) bool { return e.Kind == event.Compacted })
	if !c.Compaction.Manual || c.Compaction.Focus != "keep auth" || c.Turn != 0 {
		t.Fatalf("compacted %+v", c.Compaction)
	}
	reqs := h.srv.Requests()
	if len(reqs) != 2 || !strings.Contains(reqs[1].Messages[1].Content, "keep auth") {
		t.Fatal("the focus is not in the summary prompt")
	}
	if i := h.s.Info(); i.Running {
		t.Error("a manual compaction continued into a turn")
	}
	// The history before the compaction is still in the log.
	evs := h.rec.snapshot()
	var cut int
	for i, e := range evs {
		if e.Kind == event.Compacted {
			cut = i
		}
	}
	if !reflect.DeepEqual(HistoryFromEvents(evs[:cut]), before) {
		t.Error("the log before the Compacted event does not give the old history")
	}
	after := h.s.History()
	if len(after) != 2 || after[0].Special != SpecialQuery || after[1].Special != SpecialSummary {
		t.Fatalf("history after: %+v", after)
	}

	// A second compaction summarises the first summary, marked as one.
	h.s.Compact("")
	h.waitFor("second compaction", func(e event.Event) bool { return e.Kind == event.Compacted && e.Seq > c.Seq })
	second := h.srv.Requests()[2].Messages[1].Content
	if !strings.Contains(second, "[summary of the conversation before an earlier compaction]") || !strings.Contains(second, "the user wants the parser fixed") {
		t.Error("the second compaction did not see the first summary")
	}
}

func TestContextOverflowCompactsAndRetriesOnce(t *testing.T) {
	overflow := testserver.Response{Status: 400, Error: "prompt is too long: maximum context length exceeded", Code: "context_length_exceeded"}
	sc := &split{samples: []testserver.Response{overflow, testserver.Text("fits now"), overflow, overflow}}
	h := newHarness(t, testserver.Script{Respond: sc.respond}, nil)
	h.s.Submit("one")
	if end := h.turnEnd(1); end.State != event.TurnCompleted {
		t.Fatalf("turn 1: %+v", end)
	}
	h.s.Submit("two")
	end := h.turnEnd(2)
	if end.State != event.TurnFailed || !strings.Contains(end.Error, "context window") {
		t.Fatalf("turn 2: %+v", end)
	}
	if n := len(summaryRequests(h.srv.Requests())); n != 2 {
		t.Errorf("%d compactions, want one per turn", n)
	}
}
