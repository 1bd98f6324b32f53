package scrollback

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/render"
)

// script builds event sequences the way the engine emits them.
type script struct {
	evs  []event.Event
	seq  uint64
	turn int
}

func (s *script) add(e event.Event) *script {
	s.seq++
	e.V, e.Seq = event.SchemaVersion, s.seq
	if e.Turn == 0 {
		e.Turn = s.turn
	}
	s.evs = append(s.evs, e)
	return s
}

func (s *script) prompt(text string) *script {
	s.turn++
	s.add(event.Event{Kind: event.UserMessage, Text: text})
	return s.add(event.Event{Kind: event.TurnStarted})
}

func (s *script) say(chunks ...string) *script {
	for _, c := range chunks {
		s.add(event.Event{Kind: event.AssistantDelta, Text: c})
	}
	return s.add(event.Event{Kind: event.AssistantMessage, Text: strings.Join(chunks, "")})
}

func (s *script) call(id, name, kind, target string) *script {
	return s.add(event.Event{Kind: event.ToolCallRequested, Call: &event.ToolCall{
		ID: id, Name: name, ToolKind: kind, Target: target, Arguments: json.RawMessage(`{}`)}})
}

func (s *script) output(id, text string) *script {
	return s.add(event.Event{Kind: event.ToolOutputDelta, CallID: id, Text: text})
}

func (s *script) result(id string, status event.ToolStatus, out string, ms int64) *script {
	return s.add(event.Event{Kind: event.ToolFinished, Result: &event.ToolResult{
		CallID: id, Status: status, Output: out, DurationMS: ms}})
}

func (s *script) end(state event.TurnState) *script {
	return s.add(event.Event{Kind: event.TurnEnded, End: &event.TurnEnd{State: state}})
}

func newTranscript(w, h int, evs ...event.Event) *Transcript {
	t := New(Options{Width: w, Height: h, Cwd: "/home/u/proj"})
	for _, e := range evs {
		t.Apply(e)
	}
	return t
}

// screen is what the frame shows, one string per row, right-trimmed.
func screen(f *Frame) []string {
	out := make([]string, len(f.Lines))
	for i, l := range f.Lines {
		out[i] = strings.TrimRight(l.Text(), " ")
	}
	return out
}

func dump(f *Frame) string {
	var b strings.Builder
	for i, l := range screen(f) {
		fmt.Fprintf(&b, "%2d|%s\n", i, l)
	}
	return b.String()
}

func requireScreen(t *testing.T, f *Frame, want ...string) {
	t.Helper()
	got := screen(f)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("screen:\n%s\nwant:\n%s", dump(f), strings.Join(want, "\n"))
	}
}

func blockKinds(t *Transcript) []string {
	var out []string
	for i := 0; i < t.Len(); i++ {
		out = append(out, t.At(i).Kind().String())
	}
	return out
}

func texts(ls []render.Line) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = strings.TrimRight(l.Text(), " ")
	}
	return out
}

// longTranscript has n turns of prompt, answer and one tool call with a
// few lines of output.
func longTranscript(turns int) *script {
	s := &script{}
	for k := 0; k < turns; k++ {
		s.prompt(fmt.Sprintf("question %d about the parser", k))
		s.say(fmt.Sprintf("Answer %d: the lexer ", k), "splits tokens and the parser builds a tree from them.")
		id := fmt.Sprintf("c%d", k)
		s.call(id, "read", "read", fmt.Sprintf("src/file%d.go", k))
		s.output(id, fmt.Sprintf("package p%d\n\nfunc F%d() {}\n", k, k))
		s.result(id, event.ToolOK, "", 12)
		s.end(event.TurnCompleted)
	}
	return s
}
