package app

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/markdown"
	"github.com/quire-sh/quire/render"
	"github.com/quire-sh/quire/scrollback"
	"github.com/quire-sh/quire/term"
)

var t0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

func newTestModel() *Model {
	tr := scrollback.New(scrollback.Options{Width: 80, Height: 20})
	m := NewModel(tr, nil, Status{Model: "m", Sandbox: "workspace", Approval: "ask"}, false)
	m.SetSize(80, 24)
	return m
}

func key(r rune) term.KeyEvent { return term.KeyEvent{Key: term.KeyRune, Rune: r} }

func ctrlKey(r rune) term.KeyEvent {
	return term.KeyEvent{Key: term.KeyRune, Rune: r, Mod: term.ModCtrl}
}

func named(k term.Key) term.KeyEvent { return term.KeyEvent{Key: k} }

func typeText(m *Model, s string) {
	for _, r := range s {
		m.HandleInput(key(r), t0)
	}
}

func startTurn(m *Model) {
	m.HandleEvent(event.Event{Kind: event.UserMessage, Turn: 1, Text: "hi"}, t0)
	m.HandleEvent(event.Event{Kind: event.TurnStarted, Turn: 1}, t0)
}

func askApproval(m *Model, id string) {
	m.HandleEvent(event.Event{Kind: event.ToolCallRequested, Turn: 1, Call: &event.ToolCall{ID: id, Name: "shell", Arguments: []byte(`{"command":"ls"}`)}}, t0)
	m.HandleEvent(event.Event{Kind: event.ApprovalRequested, Turn: 1, Approval: &event.Approval{CallID: id, Tool: "shell", Target: "ls", Preview: "ls"}}, t0)
}

func TestCtrlCLadder(t *testing.T) {
	m := newTestModel()
	startTurn(m)
	if got := m.HandleInput(ctrlKey('c'), t0); !reflect.DeepEqual(got, []Effect{CancelEffect{}}) {
		t.Fatalf("Ctrl+C during a turn: %v, want a cancel", got)
	}
	m.HandleEvent(event.Event{Kind: event.TurnEnded, Turn: 1, End: &event.TurnEnd{State: event.TurnCancelled}}, t0)

	m = newTestModel()
	typeText(m, "draft")
	m.HandleInput(ctrlKey('c'), t0)
	if !m.editor.Empty() || m.Quit() {
		t.Fatal("Ctrl+C with text must clear the prompt and not quit")
	}
	m.HandleInput(ctrlKey('c'), t0.Add(5*time.Second))
	if m.Quit() {
		t.Fatal("the first Ctrl+C on an empty prompt must only arm quitting")
	}
	m.HandleInput(ctrlKey('c'), t0.Add(7*time.Second))
	if m.Quit() {
		t.Fatal("a second Ctrl+C after the 1 s window must not quit")
	}
	m.HandleInput(ctrlKey('c'), t0.Add(7*time.Second+500*time.Millisecond))
	if !m.Quit() {
		t.Fatal("two Ctrl+C within 1 s must quit")
	}
}

func TestCtrlCEscapesOverlays(t *testing.T) {
	m := newTestModel()
	m.HandleInput(named(term.KeyF1), t0)
	if m.overlay == nil {
		t.Fatal("F1 did not open help")
	}
	m.HandleInput(ctrlKey('c'), t0)
	m.HandleInput(ctrlKey('c'), t0.Add(100*time.Millisecond))
	m.HandleInput(ctrlKey('c'), t0.Add(200*time.Millisecond))
	if !m.Quit() {
		t.Fatal("the help overlay swallowed quitting")
	}
}

func TestApprovalIsTheTopLayer(t *testing.T) {
	m := newTestModel()
	startTurn(m)
	m.focus = focusPager
	askApproval(m, "c1")
	if got := m.HandleInput(key('y'), t0); !reflect.DeepEqual(got, []Effect{AnswerEffect{CallID: "c1", Decision: event.Approve}}) {
		t.Fatalf("y: %v", got)
	}
	askApproval(m, "c2")
	if got := m.HandleInput(key('a'), t0); !reflect.DeepEqual(got, []Effect{AnswerEffect{CallID: "c2", Decision: event.ApproveSession}}) {
		t.Fatalf("a: %v", got)
	}
	askApproval(m, "c3")
	if got := m.HandleInput(key('n'), t0); got != nil {
		t.Fatalf("n must ask for a reason first, got %v", got)
	}
	typeText(m, "too risky")
	if got := m.HandleInput(named(term.KeyEnter), t0); !reflect.DeepEqual(got, []Effect{AnswerEffect{CallID: "c3", Decision: event.Deny, Reason: "too risky"}}) {
		t.Fatalf("n + reason: %v", got)
	}
	askApproval(m, "c4")
	if got := m.HandleInput(named(term.KeyEscape), t0); !reflect.DeepEqual(got, []Effect{AnswerEffect{CallID: "c4", Decision: event.Deny}}) {
		t.Fatalf("Esc: %v", got)
	}
	if len(m.approvals) != 0 {
		t.Fatalf("answered approvals still pending: %v", m.approvals)
	}
}

func TestPromptSubmitAndNewlines(t *testing.T) {
	m := newTestModel()
	typeText(m, "line one")
	m.HandleInput(ctrlKey('j'), t0)
	typeText(m, "two")
	m.HandleInput(term.KeyEvent{Key: term.KeyEnter, Mod: term.ModAlt}, t0)
	typeText(m, "three")
	got := m.HandleInput(named(term.KeyEnter), t0)
	want := []Effect{HistoryEffect{Text: "line one\ntwo\nthree"}, SubmitEffect{Text: "line one\ntwo\nthree"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("submit: %v, want %v", got, want)
	}
	if !m.editor.Empty() {
		t.Fatal("the prompt was not cleared after submitting")
	}
	m.HandleInput(named(term.KeyUp), t0)
	if m.editor.Text() != "line one\ntwo\nthree" {
		t.Fatalf("Up did not recall the prompt: %q", m.editor.Text())
	}
}

func TestLargePasteIsAChipSentInFull(t *testing.T) {
	m := newTestModel()
	big := strings.Repeat("log line\n", 50)
	m.HandleInput(term.PasteEvent{Text: big}, t0)
	if strings.Contains(m.editor.Text(), "log line") || !strings.Contains(m.editor.Text(), "[pasted 51 lines") {
		t.Fatalf("the prompt shows %q", m.editor.Text())
	}
	typeText(m, " why?")
	got := withoutHistory(m.HandleInput(named(term.KeyEnter), t0))
	if len(got) != 1 || got[0].(SubmitEffect).Text != big+" why?" {
		t.Fatalf("the paste was not sent in full: %v", got)
	}
}

// withoutHistory drops the history appends from effects.
func withoutHistory(effects []Effect) []Effect {
	var out []Effect
	for _, e := range effects {
		if _, ok := e.(HistoryEffect); !ok {
			out = append(out, e)
		}
	}
	return out
}

func TestSlashCommands(t *testing.T) {
	tests := []struct {
		in   string
		want []Effect
	}{
		{"/compact keep the API", []Effect{CompactEffect{Focus: "keep the API"}}},
		{"/mode minimal", []Effect{ModeEffect{Minimal: true}}},
		{"/mode full", nil},
		{"/export out.jsonl", []Effect{ExportEffect{Path: "out.jsonl"}}},
		{"/rewind 2 files", []Effect{SwitchEffect{Op: SwitchRewind, Prompt: 2, What: "files"}}},
		{"/rewind", []Effect{SwitchEffect{Op: SwitchRewind, What: "both"}}},
		{"/rewind 0", nil},
		{"/rewind 2 sideways", nil},
		{"/model gpt-x", []Effect{SwitchEffect{Op: SwitchModel, Model: "gpt-x"}}},
		{"/model", nil},
		{"/clear", []Effect{SwitchEffect{Op: SwitchClear}}},
		{"/sessions", []Effect{SessionsEffect{}}},
		{"/nope", nil},
	}
	for _, tt := range tests {
		m := newTestModel()
		typeText(m, tt.in)
		if got := withoutHistory(m.HandleInput(named(term.KeyEnter), t0)); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: %#v, want %#v", tt.in, got, tt.want)
		}
	}
}

// A sent prompt is remembered in memory and its append to the history
// file is an effect (the model does no I/O); a repeat is not appended.
func TestSubmitAsksForTheHistoryAppend(t *testing.T) {
	m := newTestModel()
	for i, want := range [][]Effect{
		{HistoryEffect{Text: "hello"}, SubmitEffect{Text: "hello"}},
		{SubmitEffect{Text: "hello"}},
	} {
		typeText(m, "hello")
		if got := m.HandleInput(named(term.KeyEnter), t0); !reflect.DeepEqual(got, want) {
			t.Errorf("send %d: %#v, want %#v", i+1, got, want)
		}
	}
	m.HandleInput(named(term.KeyUp), t0)
	if m.editor.Text() != "hello" {
		t.Fatalf("Up recalls %q", m.editor.Text())
	}
}

// While a switch runs, prompts stay in the editor and a second switch is
// refused; the result ends it, and an error is shown, never dropped.
func TestSwitchingHoldsPromptsAndShowsTheOutcome(t *testing.T) {
	m := newTestModel()
	typeText(m, "/model other")
	if got := withoutHistory(m.HandleInput(named(term.KeyEnter), t0)); len(got) != 1 {
		t.Fatalf("/model: %v", got)
	}
	typeText(m, "a prompt typed meanwhile")
	if got := withoutHistory(m.HandleInput(named(term.KeyEnter), t0)); got != nil {
		t.Fatalf("a prompt was sent during the switch: %v", got)
	}
	if m.editor.Text() != "a prompt typed meanwhile" {
		t.Fatalf("the prompt left the editor: %q", m.editor.Text())
	}
	if !strings.Contains(strings.Join(screenText(m, 80, 24), "\n"), "the session is being switched") {
		t.Fatal("the refusal is not shown")
	}
	m.editor.Clear()
	typeText(m, "/clear")
	if got := withoutHistory(m.HandleInput(named(term.KeyEnter), t0)); got != nil {
		t.Fatalf("a second switch started: %v", got)
	}
	m.applySwitch(Switched{}, errors.New("switching to other: no such model"), t0)
	if !strings.Contains(strings.Join(screenText(m, 80, 24), "\n"), "no such model") {
		t.Fatal("the switch's error is not shown")
	}
	m.editor.Clear()
	typeText(m, "now it goes")
	if got := withoutHistory(m.HandleInput(named(term.KeyEnter), t0)); !reflect.DeepEqual(got, []Effect{SubmitEffect{Text: "now it goes"}}) {
		t.Fatalf("after the switch: %v", got)
	}
	// A rebuild replaces the transcript and puts /rewind's prompt back.
	m.applySwitch(Switched{Rebuild: true, Prompt: "the old prompt", Notice: "rewound"}, nil, t0)
	if m.editor.Text() != "the old prompt" || m.tr.Len() != 0 {
		t.Fatalf("after a rebuild: editor %q, %d blocks", m.editor.Text(), m.tr.Len())
	}
}

// /rewind during a turn is refused: files must not be put back while a
// tool may be writing them.
func TestRewindWaitsForTheTurn(t *testing.T) {
	m := newTestModel()
	startTurn(m)
	typeText(m, "/rewind")
	if got := withoutHistory(m.HandleInput(named(term.KeyEnter), t0)); got != nil {
		t.Fatalf("/rewind during a turn: %v", got)
	}
}

func TestEscCancelsTheTurnOrOpensThePager(t *testing.T) {
	m := newTestModel()
	startTurn(m)
	if got := m.HandleInput(named(term.KeyEscape), t0); !reflect.DeepEqual(got, []Effect{CancelEffect{}}) {
		t.Fatalf("Esc during a turn: %v", got)
	}
	m.HandleEvent(event.Event{Kind: event.TurnEnded, Turn: 1, End: &event.TurnEnd{State: event.TurnCancelled}}, t0)
	m.HandleInput(named(term.KeyEscape), t0)
	if m.focus != focusPager {
		t.Fatal("Esc when idle must move to the pager")
	}
	m.HandleInput(key('q'), t0)
	if m.focus != focusPrompt {
		t.Fatal("q in the pager must return to the prompt")
	}
}

func TestIdleModelNeverWakes(t *testing.T) {
	m := newTestModel()
	if w := m.NextWake(t0); !w.IsZero() {
		t.Fatalf("an idle quire schedules a wake-up at %v", w)
	}
	startTurn(m)
	if w := m.NextWake(t0); w.IsZero() {
		t.Fatal("a running turn must animate its spinner")
	}
	m.HandleEvent(event.Event{Kind: event.TurnEnded, Turn: 1, End: &event.TurnEnd{State: event.TurnCompleted}}, t0)
	if w := m.NextWake(t0); !w.IsZero() {
		t.Fatal("the spinner keeps waking after the turn ended")
	}
}

// While a turn runs, the clock asks for a frame only when what it moves
// on screen (the spinner, the elapsed time) moves: at the spinner's steps,
// on the turn's own clock, which is also when the loop is woken. A stream's
// events between two steps draw anyway and must not each leave another
// frame pending.
func TestRunningTurnWakesAtSpinnerSteps(t *testing.T) {
	m := newTestModel()
	startTurn(m) // at t0
	m.TakeDirty()
	for _, tc := range []struct {
		at    time.Duration
		dirty bool
		wake  time.Duration
	}{
		{10 * time.Millisecond, false, spinnerInterval},
		{60 * time.Millisecond, false, spinnerInterval},
		{spinnerInterval, true, 2 * spinnerInterval},
		{spinnerInterval + 5*time.Millisecond, false, 2 * spinnerInterval},
		{3*spinnerInterval + 40*time.Millisecond, true, 4 * spinnerInterval},
	} {
		now := t0.Add(tc.at)
		m.Tick(now)
		if got := m.TakeDirty(); got != tc.dirty {
			t.Errorf("at %v: Tick asked for a frame: %v, want %v", tc.at, got, tc.dirty)
		}
		if got := m.NextWake(now); !got.Equal(t0.Add(tc.wake)) {
			t.Errorf("at %v: next wake %v after the turn started, want %v", tc.at, got.Sub(t0), tc.wake)
		}
	}
}

func TestReplayRefusesPromptsAndPlaysKeys(t *testing.T) {
	tr := scrollback.New(scrollback.Options{Width: 80, Height: 20})
	m := NewModel(tr, nil, Status{Replay: true}, false)
	if got := m.HandleInput(key('p'), t0); !reflect.DeepEqual(got, []Effect{PlaybackEffect{}}) {
		t.Fatalf("p: %v", got)
	}
	if got := m.HandleInput(key('.'), t0); !reflect.DeepEqual(got, []Effect{PlaybackEffect{Step: true}}) {
		t.Fatalf(".: %v", got)
	}
	m.HandleInput(key('q'), t0)
	if !m.Quit() {
		t.Fatal("q must leave a replay")
	}
}

// screenText draws the full view and returns its rows as text.
func screenText(m *Model, w, h int) []string {
	b := render.NewBuffer(w, h)
	m.DrawFull(b, t0)
	rows := make([]string, h)
	for y := range h {
		var sb strings.Builder
		for x := range w {
			c := b.Cell(x, y)
			sb.WriteString(c.String())
		}
		rows[y] = strings.TrimRight(sb.String(), " ")
	}
	return rows
}

func TestApprovalPanelShowsTheDiff(t *testing.T) {
	m := newTestModel()
	startTurn(m)
	m.HandleEvent(event.Event{Kind: event.ApprovalRequested, Turn: 1, Approval: &event.Approval{
		CallID: "e1", Tool: "edit_file", Target: "main.go",
		Preview: "--- a/main.go\n+++ b/main.go\n@@ -1 +1 @@\n-\told()\n+\tnew()\n",
	}}, t0)
	all := strings.Join(screenText(m, 80, 24), "\n")
	for _, want := range []string{"Allow edit_file main.go ?", "-    old()", "+    new()", "[y] yes"} {
		if !strings.Contains(all, want) {
			t.Errorf("the approval panel lacks %q:\n%s", want, all)
		}
	}
}

// A subagent's call is asked about here too, marked with its agent, and
// the answer goes back under the id it was asked with.
func TestApprovalPanelNamesTheSubagent(t *testing.T) {
	m := newTestModel()
	startTurn(m)
	m.HandleEvent(event.Event{Kind: event.ApprovalRequested, Turn: 1, Approval: &event.Approval{
		CallID: "t1/w1", Tool: "write_file", Target: "notes.txt", Preview: "+hello\n", Subagent: "t1", Agent: "writer",
	}}, t0)
	all := strings.Join(screenText(m, 80, 24), "\n")
	if !strings.Contains(all, "[writer] Allow write_file notes.txt ?") {
		t.Fatalf("the approval panel does not name the subagent:\n%s", all)
	}
	if got := m.HandleInput(key('y'), t0); !reflect.DeepEqual(got, []Effect{AnswerEffect{CallID: "t1/w1", Decision: event.Approve}}) {
		t.Fatalf("y: %v", got)
	}
}

// While the session runs, the clock moves a running subagent's time.
func TestTickMovesARunningSubagentsTime(t *testing.T) {
	m := newTestModel()
	startTurn(m)
	m.HandleEvent(event.Event{Kind: event.ToolCallRequested, Turn: 1, Call: &event.ToolCall{ID: "t1", Name: "task", Target: "Look around"}}, t0)
	m.HandleEvent(event.Event{Kind: event.SubagentUpdate, Turn: 1, CallID: "t1", Time: t0,
		Subagent: &event.Subagent{Agent: "explorer", Description: "Look around", State: event.SubagentStarted}}, t0)
	m.Tick(t0.Add(7 * time.Second))
	if all := strings.Join(screenText(m, 80, 24), "\n"); !strings.Contains(all, "● explorer Look around  running · 7s") {
		t.Fatalf("the subagent's time did not move:\n%s", all)
	}
}

// A long command is shown whole, wrapped, in the approval panel: its end
// is where something unwanted would hide.
func TestApprovalPanelShowsALongCommandWhole(t *testing.T) {
	m := newTestModel()
	startTurn(m)
	cmd := "grep -rn 'name)' . && go test ./... && echo the very end of a command that is far too long for one row; rm -rf build"
	m.HandleEvent(event.Event{Kind: event.ApprovalRequested, Turn: 1, Approval: &event.Approval{
		CallID: "s1", Tool: "shell", Target: cmd, Preview: cmd,
	}}, t0)
	rows := screenText(m, 60, 24)
	var shown []string
	header := -1
	for i, r := range rows {
		if strings.HasPrefix(r, "Allow shell ") {
			header = i
		}
		if header >= 0 && i > header && strings.HasPrefix(r, "[y] yes") {
			break
		}
		if header >= 0 && i > header {
			text := strings.TrimPrefix(strings.TrimPrefix(r, "↪ "), "  ")
			shown = append(shown, strings.TrimRight(text, " "))
		}
	}
	if header < 0 {
		t.Fatalf("no approval panel:\n%s", strings.Join(rows, "\n"))
	}
	if h := rows[header]; !strings.HasSuffix(strings.TrimRight(h, " "), "… ?") || render.StringWidth(h) > 60 {
		t.Errorf("header %q: want the target cut with … and the question mark kept", h)
	}
	if got := strings.Join(shown, ""); got != cmd {
		t.Errorf("the panel shows\n%q\nwant the whole command\n%q\n%s", got, cmd, strings.Join(rows, "\n"))
	}
	if !strings.HasPrefix(rows[header+2], "↪") {
		t.Errorf("a wrapped row is not marked as a continuation: %q", rows[header+2])
	}
}

// A preview taller than the approval panel scrolls with ↑↓ (and k, j),
// so an edit is never approved with part of its diff unseen.
func TestApprovalPreviewScrolls(t *testing.T) {
	m := newTestModel()
	startTurn(m)
	var diff strings.Builder
	diff.WriteString("--- a/big.go\n+++ b/big.go\n@@ -1,30 +1,30 @@\n")
	for i := 1; i <= 30; i++ {
		fmt.Fprintf(&diff, "+line %02d\n", i)
	}
	m.HandleEvent(event.Event{Kind: event.ApprovalRequested, Turn: 1, Approval: &event.Approval{
		CallID: "e1", Tool: "edit_file", Target: "big.go", Preview: diff.String(),
	}}, t0)
	panel := func() string { return strings.Join(screenText(m, 80, 24), "\n") }
	if p := panel(); !strings.Contains(p, "+line 01") || strings.Contains(p, "+line 30") || !strings.Contains(p, "more rows · ↑↓ scroll") {
		t.Fatalf("the panel should open at the top with the rest marked:\n%s", p)
	}
	for range 40 {
		m.HandleInput(named(term.KeyDown), t0)
	}
	p := panel()
	if !strings.Contains(p, "+line 30") || strings.Contains(p, "+line 01") || !strings.Contains(p, "↑ ") {
		t.Fatalf("scrolled to the end, the panel should show the last line and mark the rows above:\n%s", p)
	}
	if strings.Contains(p, "↓ ") {
		t.Fatalf("at the end nothing is left below:\n%s", p)
	}
	for range 40 {
		m.HandleInput(key('k'), t0)
	}
	if p := panel(); !strings.Contains(p, "--- a/big.go") {
		t.Fatalf("k scrolls back to the top:\n%s", p)
	}
	// The next approval starts at its top.
	for range 5 {
		m.HandleInput(key('j'), t0)
	}
	m.HandleInput(key('y'), t0)
	m.HandleEvent(event.Event{Kind: event.ApprovalRequested, Turn: 1, Approval: &event.Approval{
		CallID: "e2", Tool: "edit_file", Target: "big.go", Preview: diff.String(),
	}}, t0)
	if p := panel(); !strings.Contains(p, "--- a/big.go") {
		t.Fatalf("a new approval opens at its top:\n%s", p)
	}
}

func TestPromptHintDropsPartsToFit(t *testing.T) {
	m := newTestModel()
	for _, tc := range []struct {
		width int
		want  string
	}{
		{80, "› Ask anything · Enter sends · Ctrl+J newline · Esc pager · F1 help"},
		{60, "› Ask anything · Enter sends · Ctrl+J newline · Esc pager"},
		{20, "› Ask anything"},
	} {
		rows := screenText(m, tc.width, 10)
		if got := strings.TrimRight(rows[8], " "); got != tc.want {
			t.Errorf("at %d columns the hint reads %q, want %q", tc.width, got, tc.want)
		}
	}
}

func TestStatusLineDropsPartsToFit(t *testing.T) {
	m := newTestModel()
	rows := screenText(m, 40, 10)
	status := rows[9]
	if !strings.HasPrefix(status, "ready") || !strings.Contains(status, "m") {
		t.Fatalf("status line %q", status)
	}
	if render.StringWidth(status) > 40 {
		t.Fatalf("status line overflows: %q", status)
	}
}

func TestMouseDragCopiesTheSelection(t *testing.T) {
	m := newTestModel()
	m.HandleEvent(event.Event{Kind: event.UserMessage, Turn: 1, Text: "alpha beta gamma"}, t0)
	rows := screenText(m, 80, 24)
	y := -1
	for i, r := range rows {
		if strings.Contains(r, "alpha beta gamma") {
			y = i
		}
	}
	if y < 0 {
		t.Fatalf("the prompt is not on screen:\n%s", strings.Join(rows, "\n"))
	}
	x := render.StringWidth(rows[y][:strings.Index(rows[y], "beta")])
	m.HandleInput(term.MouseEvent{X: x, Y: y, Button: term.ButtonLeft}, t0)
	m.HandleInput(term.MouseEvent{X: x + 4, Y: y, Button: term.ButtonLeft, Motion: true}, t0)
	if shown := screenText(m, 80, 24); shown[y] != rows[y] {
		t.Fatalf("the selection changed the text: %q", shown[y])
	}
	got := m.HandleInput(term.MouseEvent{X: x + 4, Y: y, Button: term.ButtonLeft, Release: true}, t0)
	if len(got) != 1 {
		t.Fatalf("releasing after a drag must copy, got %v", got)
	}
	if c := got[0].(CopyEffect); c.Text != "beta" {
		t.Fatalf("copied %q, want %q", c.Text, "beta")
	}
}

func TestShiftEnterAdvertisedOnlyWhereItWorks(t *testing.T) {
	tests := []struct {
		caps term.Caps
		want bool
	}{
		{term.Caps{TermProgram: "kitty"}, true},
		{term.Caps{TermProgram: "kitty", Multiplexer: "tmux"}, false},
		{term.Caps{TermProgram: "vte"}, false},
		{term.Caps{}, false},
	}
	for _, tt := range tests {
		if got := shiftEnterWorks(tt.caps); got != tt.want {
			t.Errorf("%+v: %v", tt.caps, got)
		}
	}
	m := newTestModel()
	m.status.ShiftEnter = true
	if all := strings.Join(screenText(m, 100, 10), "\n"); !strings.Contains(all, "Shift+Enter newline") {
		t.Fatalf("the hint does not offer Shift+Enter:\n%s", all)
	}
	m.HandleInput(term.KeyEvent{Key: term.KeyEnter, Mod: term.ModShift}, t0)
	if m.editor.Text() != "\n" {
		t.Fatalf("Shift+Enter inserted %q", m.editor.Text())
	}
}

// Dragging over a code block in an answer copies the code between its
// fences, without the frame the pager draws around it.
func TestMouseDragOverAnswerCodeCopiesTheCode(t *testing.T) {
	tr := scrollback.New(scrollback.Options{Width: 80, Height: 20, Assistant: func(w int) scrollback.BodyRenderer {
		return markdown.NewStream(markdown.Options{Width: w})
	}})
	m := NewModel(tr, nil, Status{Model: "m", Sandbox: "workspace", Approval: "ask"}, false)
	m.SetSize(80, 24)
	m.HandleEvent(event.Event{Kind: event.UserMessage, Turn: 1, Text: "show me"}, t0)
	answer := "Here:\n\n```go\nfunc main() {\n    run()\n}\n```\n"
	m.HandleEvent(event.Event{Kind: event.AssistantMessage, Turn: 1, Text: answer}, t0)
	rows := screenText(m, 80, 24)
	top, bottom := -1, -1
	for i, r := range rows {
		if strings.Contains(r, "╭─ go") {
			top = i
		}
		if strings.Contains(r, "╰─") {
			bottom = i
		}
	}
	if top < 0 || bottom < 0 {
		t.Fatalf("the code block is not on screen:\n%s", strings.Join(rows, "\n"))
	}
	m.HandleInput(term.MouseEvent{X: 0, Y: top, Button: term.ButtonLeft}, t0)
	m.HandleInput(term.MouseEvent{X: 10, Y: bottom, Button: term.ButtonLeft, Motion: true}, t0)
	got := m.HandleInput(term.MouseEvent{X: 10, Y: bottom, Button: term.ButtonLeft, Release: true}, t0)
	if len(got) != 1 {
		t.Fatalf("releasing after a drag must copy, got %v", got)
	}
	if c, want := got[0].(CopyEffect).Text, "```go\nfunc main() {\n    run()\n}\n```"; c != want {
		t.Fatalf("copied %q, want %q\n%s", c, want, strings.Join(rows, "\n"))
	}
}

func TestPreviewWindow(t *testing.T) {
	for _, tc := range []struct {
		n, room, top int
		first, count int
		above, below bool
	}{
		{n: 3, room: 5, top: 2, first: 0, count: 3},
		{n: 10, room: 5, top: 0, first: 0, count: 4, below: true},
		{n: 10, room: 5, top: 2, first: 2, count: 3, above: true, below: true},
		{n: 10, room: 5, top: 99, first: 6, count: 4, above: true},
		{n: 10, room: 2, top: 3, first: 3, count: 2},
		{n: 10, room: 2, top: 99, first: 8, count: 2},
		{n: 10, room: 1, top: -4, first: 0, count: 1},
	} {
		first, count, above, below := previewWindow(tc.n, tc.room, tc.top)
		if first != tc.first || count != tc.count || above != tc.above || below != tc.below {
			t.Errorf("previewWindow(%d, %d, %d) = %d, %d, %v, %v; want %d, %d, %v, %v",
				tc.n, tc.room, tc.top, first, count, above, below, tc.first, tc.count, tc.above, tc.below)
		}
		if rows := count + b2i(above) + b2i(below); rows > tc.room {
			t.Errorf("previewWindow(%d, %d, %d) uses %d rows of %d", tc.n, tc.room, tc.top, rows, tc.room)
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Inline, the approval panel fills the rows the live region was given
// for it: sized for the screen both times, with no blank rows left over.
func TestInlineApprovalPanelFillsItsRegion(t *testing.T) {
	tr := scrollback.New(scrollback.Options{Width: 60, Height: 20})
	m := NewModel(tr, nil, Status{Model: "m", Sandbox: "workspace", Approval: "ask"}, true)
	m.SetSize(60, 20)
	startTurn(m)
	var diff strings.Builder
	for i := range 12 {
		fmt.Fprintf(&diff, "+line %d\n", i)
	}
	m.HandleEvent(event.Event{Kind: event.ApprovalRequested, Turn: 1, Approval: &event.Approval{
		CallID: "e1", Tool: "edit_file", Target: "x.go", Preview: diff.String(),
	}}, t0)
	h := m.LiveHeight(60, 20, 0)
	b := render.NewBuffer(60, h)
	m.DrawLive(b, nil, t0)
	var rows []string
	for y := range h {
		var sb strings.Builder
		for x := range 60 {
			c := b.Cell(x, y)
			sb.WriteString(c.String())
		}
		rows = append(rows, strings.TrimRight(sb.String(), " "))
	}
	header, keys := -1, -1
	for i, r := range rows {
		if strings.HasPrefix(r, "Allow edit_file") {
			header = i
		}
		if strings.HasPrefix(r, "[y] yes") {
			keys = i
		}
	}
	if header < 0 || keys < 0 {
		t.Fatalf("no panel:\n%s", strings.Join(rows, "\n"))
	}
	for _, r := range rows[header+1 : keys] {
		if r == "" {
			t.Fatalf("a blank row inside the panel:\n%s", strings.Join(rows, "\n"))
		}
	}
	if got, want := keys-header+1, m.approvalRows(60, 20); got != want {
		t.Fatalf("the panel has %d rows, the region was sized for %d:\n%s", got, want, strings.Join(rows, "\n"))
	}
}

// The help fits narrow screens by wrapping, not clipping: every word is
// there, no row is too wide, and continuations line up with their text.
// The help offers Shift+Enter only where it works (spec: a terminal
// without TERM_PROGRAM, VS Code over ssh, gets Alt+Enter).
func TestHelpOffersShiftEnterOnlyWhereItWorks(t *testing.T) {
	if h := strings.Join(helpLines(false, nil), "\n"); strings.Contains(h, "Shift+Enter") || !strings.Contains(h, "Alt+Enter") {
		t.Errorf("without Shift+Enter:\n%s", h)
	}
	if h := strings.Join(helpLines(true, nil), "\n"); !strings.Contains(h, "Shift+Enter") {
		t.Errorf("with Shift+Enter:\n%s", h)
	}
}

func TestHelpWrapsToTheScreen(t *testing.T) {
	words := strings.Fields(strings.Join(helpLines(true, nil), " "))
	for _, w := range []int{50, 80, 120} {
		rows := wrapOverlay(helpLines(true, nil), w)
		for _, r := range rows {
			if render.StringWidth(r) > w {
				t.Errorf("at %d columns a row is %d wide: %q", w, render.StringWidth(r), r)
			}
		}
		if got := strings.Fields(strings.Join(rows, " ")); !reflect.DeepEqual(got, words) {
			t.Errorf("at %d columns the words changed:\n%s", w, strings.Join(rows, "\n"))
		}
	}
	for w := 1; w < 12; w++ {
		wrapOverlay(helpLines(true, nil), w) // ends, however narrow
	}
	rows := wrapOverlay([]string{"/compact    [focus]      summarise the conversation to free context"}, 40)
	if len(rows) != 3 || !strings.HasPrefix(rows[1], strings.Repeat(" ", 25)+"conversation") {
		t.Errorf("a wrapped description does not line up with its column:\n%s", strings.Join(rows, "\n"))
	}
}

// The bell rings once when an approval waits or a turn ends while the
// window is not focused, and never while it is, or when it is off.
func TestBellCallsAnAbsentUser(t *testing.T) {
	for _, tc := range []struct {
		name            string
		bell, unfocused bool
		wantApproval    bool
		wantEnd         bool
	}{
		{"away", true, true, true, true},
		{"looking", true, false, false, false},
		{"off", false, true, false, false},
	} {
		tr := scrollback.New(scrollback.Options{Width: 80, Height: 20})
		m := NewModel(tr, nil, Status{Model: "m", Bell: tc.bell}, false)
		m.SetSize(80, 24)
		m.HandleInput(term.FocusEvent{Focused: !tc.unfocused}, t0)
		startTurn(m)
		askApproval(m, "c1")
		if got := m.TakeBell(); got != tc.wantApproval {
			t.Errorf("%s: bell on approval = %v", tc.name, got)
		}
		if m.TakeBell() {
			t.Errorf("%s: the bell rang twice", tc.name)
		}
		m.HandleEvent(event.Event{Kind: event.TurnEnded, Turn: 1, End: &event.TurnEnd{State: event.TurnCompleted}}, t0)
		if got := m.TakeBell(); got != tc.wantEnd {
			t.Errorf("%s: bell on the turn's end = %v", tc.name, got)
		}
	}
}

// The status line shows the provider and model, the context used out of
// the model's window, and the turns' cost (with a + once a turn's price
// was unknown).
func TestStatusLineShowsProviderContextAndCost(t *testing.T) {
	m := newTestModel()
	m.HandleEvent(event.Event{Kind: event.SessionStarted, Session: &event.SessionInfo{ID: "s", Model: "claude-x", Provider: "anthropic"}}, t0)
	cost := 0.1234
	m.HandleEvent(event.Event{Kind: event.TurnEnded, Turn: 1, End: &event.TurnEnd{State: event.TurnCompleted,
		Usage: event.Usage{TotalTokens: 5000}, ContextTokens: 50_000, ContextWindow: 200_000, Cost: &cost}}, t0)
	status := screenText(m, 120, 10)[9]
	for _, want := range []string{"anthropic/claude-x", "ctx 25%", "5.0k tok", "$0.12"} {
		if !strings.Contains(status, want) {
			t.Errorf("status line %q lacks %q", status, want)
		}
	}
	m.HandleEvent(event.Event{Kind: event.TurnEnded, Turn: 2, End: &event.TurnEnd{State: event.TurnCompleted,
		Usage: event.Usage{TotalTokens: 10}, ContextTokens: 50_010, ContextWindow: 200_000}}, t0)
	if status := screenText(m, 120, 10)[9]; !strings.Contains(status, "$0.12+") {
		t.Errorf("a turn at an unknown price: %q", status)
	}
}
