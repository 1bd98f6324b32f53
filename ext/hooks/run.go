package hooks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"sort"
	"strings"
	"syscall"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/quire-sh/quire/engine"
)

// maxOutput bounds what is kept of a hook's stdout and of its stderr;
// the rest is read and dropped.
const maxOutput = 64 << 10

// input is the JSON a hook reads on stdin: the fields other agents'
// hooks read, under their names, and quire's own beside them.
type input struct {
	SessionID     string          `json:"session_id"`
	Cwd           string          `json:"cwd"`
	HookEventName string          `json:"hook_event_name"`
	Turn          int             `json:"turn,omitempty"`
	ToolName      string          `json:"tool_name,omitempty"`
	ToolUseID     string          `json:"tool_use_id,omitempty"`
	ToolInput     json.RawMessage `json:"tool_input,omitempty"`
	ToolResponse  *toolResponse   `json:"tool_response,omitempty"`
	Prompt        string          `json:"prompt,omitempty"`
	// Source is what started the session (SessionStart); Reason why it
	// ended (SessionEnd), why a call was denied (PermissionDenied) or
	// why a turn failed (Stop).
	Source   string `json:"source,omitempty"`
	Reason   string `json:"reason,omitempty"`
	DeniedBy string `json:"denied_by,omitempty"`
	Message  string `json:"message,omitempty"`
	// TurnState is how the turn ended (Stop).
	TurnState string `json:"turn_state,omitempty"`
	// Trigger is "auto" or "manual" (PreCompact, PostCompact), and
	// CustomInstructions the focus given to /compact.
	Trigger            string `json:"trigger,omitempty"`
	CustomInstructions string `json:"custom_instructions,omitempty"`
	BeforeTokens       int    `json:"before_tokens,omitempty"`
	AfterTokens        int    `json:"after_tokens,omitempty"`
	// The subagent a task call runs (SubagentStart, SubagentStop): its
	// agent, its task, its own session and, on stop, how it ended.
	AgentType         string `json:"agent_type,omitempty"`
	Description       string `json:"description,omitempty"`
	SubagentSessionID string `json:"subagent_session_id,omitempty"`
	SubagentState     string `json:"subagent_state,omitempty"`
}

// toolResponse is a call's result, for PostToolUse.
type toolResponse struct {
	Status    string `json:"status"`
	Output    string `json:"output"`
	ExitCode  *int   `json:"exit_code,omitempty"`
	Truncated bool   `json:"truncated,omitempty"`
}

// encodeInput is the stdin of the hooks of e.
func encodeInput(e engine.HookEvent) []byte {
	in := input{
		SessionID: e.SessionID, Cwd: e.Cwd, HookEventName: e.Name, Turn: e.Turn,
		ToolName: e.Tool, ToolUseID: e.CallID, Prompt: e.Prompt, DeniedBy: e.DeniedBy, Message: e.Message,
		BeforeTokens: e.BeforeTokens, AfterTokens: e.AfterTokens,
	}
	if len(e.Arguments) > 0 {
		in.ToolInput = e.Arguments
		if !json.Valid(e.Arguments) {
			b, _ := json.Marshal(string(e.Arguments))
			in.ToolInput = b
		}
	}
	if r := e.Result; r != nil {
		in.ToolResponse = &toolResponse{Status: string(r.Status), Output: r.Output, ExitCode: r.ExitCode, Truncated: r.Truncated}
	}
	switch e.Name {
	case engine.HookSessionStart:
		in.Source = e.Trigger
	case engine.HookSessionEnd:
		in.Reason = e.Trigger
	case engine.HookPreCompact, engine.HookPostCompact:
		in.Trigger, in.CustomInstructions = e.Trigger, e.Focus
	case engine.HookStop:
		in.TurnState, in.Reason = string(e.State), e.Reason
	case engine.HookPermissionDenied:
		in.Reason = e.Reason
	case engine.HookSubagentStart, engine.HookSubagentStop:
		if a := e.Subagent; a != nil {
			in.AgentType, in.Description, in.SubagentSessionID = a.Agent, a.Description, a.Session
			if e.Name == engine.HookSubagentStop {
				in.SubagentState, in.Reason = string(a.State), e.Reason
			}
		}
	}
	b, err := json.Marshal(in)
	if err != nil { // only strings and numbers: cannot happen
		return []byte("{}")
	}
	return b
}

// identity are the variables that say which session, project and event
// a hook runs for. They are set after everything else, so neither the
// environment nor a hook's own env can forge them.
func identity(e engine.HookEvent) []string {
	out := []string{
		"QUIRE_SESSION_ID=" + e.SessionID,
		"QUIRE_PROJECT_DIR=" + e.Cwd,
		"QUIRE_HOOK_EVENT=" + e.Name,
		// Hooks written for other agents find the project here.
		"CLAUDE_PROJECT_DIR=" + e.Cwd,
	}
	if e.Tool != "" {
		out = append(out, "QUIRE_TOOL_NAME="+e.Tool)
	}
	return out
}

// mergeEnv lays environments over each other, later ones winning, with
// one entry per name: a process given two entries of a name may see
// either.
func mergeEnv(layers ...[]string) []string {
	index := map[string]int{}
	var out []string
	for _, layer := range layers {
		for _, kv := range layer {
			name, _, ok := strings.Cut(kv, "=")
			if !ok || name == "" {
				continue
			}
			if i, seen := index[name]; seen {
				out[i] = kv
				continue
			}
			index[name] = len(out)
			out = append(out, kv)
		}
	}
	return out
}

// envList is a hook's own env as NAME=value entries, sorted.
func envList(env map[string]string) []string {
	out := make([]string, 0, len(env))
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

// outcome is how one run of a hook went.
type outcome struct {
	stdout, stderr []byte
	// exit is the exit status, or -1 when the command did not exit
	// normally (killed, not started).
	exit     int
	timedOut bool
	// cancelled: the run was stopped because the turn or quire stopped.
	cancelled bool
	signal    syscall.Signal
	startErr  error
	elapsed   time.Duration
}

// run runs h with stdin in, as the user and outside the sandbox, in the
// event's directory, with base, then the hook's env, then the identity
// variables, and stops it (its whole process group) at its timeout or
// when ctx ends.
func run(ctx context.Context, h Hook, e engine.HookEvent, base []string, in []byte) outcome {
	tctx, cancel := context.WithTimeout(ctx, h.Timeout)
	defer cancel()
	cmd := exec.CommandContext(tctx, "sh", "-c", h.Command)
	cmd.Dir = e.Cwd
	cmd.Env = mergeEnv(base, envList(h.Env), identity(e))
	cmd.Stdin = bytes.NewReader(in)
	stdout, stderr := &boundedBuffer{max: maxOutput}, &boundedBuffer{max: maxOutput}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	ownProcessGroup(cmd)
	// A background child that keeps the output open does not hold the
	// hook's result up for long.
	cmd.WaitDelay = time.Second
	start := time.Now()
	err := cmd.Run()
	o := outcome{stdout: stdout.Bytes(), stderr: stderr.Bytes(), exit: -1, elapsed: time.Since(start)}
	if st := cmd.ProcessState; st != nil {
		o.exit = st.ExitCode()
		if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			o.signal = ws.Signal()
		}
	} else if err != nil {
		o.startErr = err
	}
	switch {
	case ctx.Err() != nil:
		o.cancelled = true
	case errors.Is(tctx.Err(), context.DeadlineExceeded):
		o.timedOut = true
	}
	return o
}

// boundedBuffer keeps the first max bytes written to it.
type boundedBuffer struct {
	buf bytes.Buffer
	max int
}

func (b *boundedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.buf.Len(); room > 0 {
		b.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (b *boundedBuffer) Bytes() []byte { return b.buf.Bytes() }

// failure says what went wrong with a run, or "" when nothing did. A
// PreToolUse hook's exit status 2 is its refusal, not a failure.
func (o outcome) failure(h Hook) string {
	who := fmt.Sprintf("hook %s (%s, from %s)", shownCommand(h.Command), h.Event, h.From)
	switch {
	case o.cancelled:
		return ""
	case o.timedOut:
		return fmt.Sprintf("%s timed out after %s and was stopped", who, h.Timeout)
	case o.startErr != nil:
		return fmt.Sprintf("%s could not start: %s", who, clean(o.startErr.Error(), 200))
	case o.signal != 0:
		return fmt.Sprintf("%s was killed by %s", who, o.signal)
	case o.exit == 127:
		return fmt.Sprintf("%s failed: command not found%s", who, detail(o.stderr))
	case o.exit == 2 && h.Event == engine.HookPreToolUse, o.exit == 0:
		return ""
	}
	return fmt.Sprintf("%s exited with status %d%s", who, o.exit, detail(o.stderr))
}

// detail is the first line of a hook's stderr, for a notice.
func detail(stderr []byte) string {
	line, _, _ := strings.Cut(strings.TrimSpace(string(stderr)), "\n")
	if line = clean(line, 200); line == "" {
		return ""
	}
	return ": " + line
}

// shownCommand is a hook's command in a notice: its first line, short,
// between backquotes.
func shownCommand(c string) string {
	line, _, more := strings.Cut(strings.TrimSpace(c), "\n")
	line = clean(line, 60)
	if more {
		line += " …"
	}
	return "`" + line + "`"
}

// clean makes text a hook printed safe to show and to give the model: at
// most max bytes of valid UTF-8, without control characters (newlines
// and tabs become spaces) or the format characters that reorder or hide
// text.
func clean(s string, max int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n' || r == '\t' || r == '\r':
			r = ' '
		case unicode.IsControl(r), unicode.Is(unicode.Cf, r):
			continue
		}
		if b.Len()+utf8.RuneLen(r) > max {
			b.WriteString("…")
			break
		}
		b.WriteRune(r)
	}
	return strings.TrimSpace(b.String())
}
