package engine

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/llm"
	"github.com/quire-sh/quire/tools"
)

// ExecOptions configures Exec.
type ExecOptions struct {
	Prompt string
	// Command, when the prompt came from a custom /command, is the line
	// the user typed; Prompt is then its expansion.
	Command string
	// Stdout receives the final answer, or with JSON every event as one
	// JSON object per line.
	Stdout io.Writer
	// Stderr receives denials and errors, and progress when Progress is
	// set.
	Stderr   io.Writer
	JSON     bool
	Progress bool
}

// ErrNotSaved is wrapped by Exec's error when the session could not be
// saved; Exec has then already written the one line saying why on Stderr.
var ErrNotSaved = errors.New("the session was not saved")

// flusher is a Recorder that can commit what it holds (the store's
// writer); Exec uses it so a run that ends reports a session it could not
// save instead of exiting as if all were well.
type flusher interface{ Flush() error }

// Exec runs prompt as one turn of a new, unattended session and returns
// how the turn ended. Cancelling ctx cancels the turn (it still ends, with
// TurnCancelled). Calls that would need approval are denied and reported
// on Stderr. The returned error is the turn's error when it failed, or
// wraps ErrNotSaved when the Recorder could not save the session (the
// prompt was refused, or the last commit failed): saving failures are
// reported on Stderr once, when they happen.
func Exec(ctx context.Context, cfg Config, opt ExecOptions) (event.TurnState, error) {
	cfg.Unattended = true
	s, err := New(cfg)
	if err != nil {
		return event.TurnFailed, err
	}
	stop := context.AfterFunc(ctx, s.Cancel)
	defer stop()
	if opt.Command != "" {
		s.SubmitCommand(opt.Command, opt.Prompt)
	} else {
		s.Submit(opt.Prompt)
	}

	enc := json.NewEncoder(escapeC1(opt.Stdout))
	var (
		answer   string
		end      *event.TurnEnd
		werr     error
		closed   chan struct{} // closed once Close has returned
		started  bool          // the prompt was saved and sent
		refused  error         // the prompt was not
		reported bool          // a saving failure is on Stderr
	)
	// closeSession stops the session beside the loop below, which drains
	// its events meanwhile; Events closes once it has stopped.
	closeSession := func() {
		if closed == nil {
			closed = make(chan struct{})
			go func() {
				defer close(closed)
				s.Close()
			}()
		}
	}
	for e := range s.Events() {
		if opt.JSON && werr == nil {
			werr = enc.Encode(e)
		}
		// One line on Stderr about saving: the first failure.
		quiet := e.Store == event.StoreFailing && reported
		if e.Store == event.StoreFailing {
			reported = true
		}
		switch e.Kind {
		case event.AssistantMessage:
			answer = e.Text
		case event.ApprovalAnswered:
			if a := e.Approval; a != nil && a.Hook != "" && a.Decision == event.Deny {
				fmt.Fprintf(opt.Stderr, "quire: a hook (%s) denied %s %s: %s\n", oneLine(a.Hook), a.Tool, oneLine(a.Target), oneLine(strings.TrimPrefix(a.Reason, "hook: ")))
			} else if a != nil && a.ByPolicy && a.Decision == event.Deny && a.Tool != "" {
				rerun := "auto-edit or yolo"
				if cfg.ApprovalMode == tools.ModeAutoEdit {
					rerun = "yolo"
				}
				who := ""
				if a.Subagent != "" {
					who = "subagent " + cmp.Or(a.Agent, a.Subagent) + ": "
				}
				fmt.Fprintf(opt.Stderr, "quire: %sdenied %s %s: it needs approval under --approval %s, which quire exec cannot ask for (rerun with --approval %s to allow it)\n", who, a.Tool, a.Target, cmp.Or(cfg.ApprovalMode, tools.ModeAsk), rerun)
			}
		case event.SubagentUpdate:
			if u := e.Subagent; opt.Progress && u != nil {
				who := cmp.Or(u.Agent, "subagent")
				switch {
				case u.State == event.SubagentRunning:
					fmt.Fprintf(opt.Stderr, "  %s → %s %s\n", who, u.Tool, oneLine(u.Target))
				case u.State == event.SubagentFailed:
					fmt.Fprintf(opt.Stderr, "  %s failed: %s\n", who, oneLine(u.Error))
				}
			}
		case event.UserMessage:
			started = true
		case event.Error:
			if !quiet {
				fmt.Fprintf(opt.Stderr, "quire: %s\n", e.Text)
			}
			if !started && refused == nil {
				// Nothing else can end this run: the turn never starts.
				refused = errors.New(e.Text)
				closeSession()
			}
		case event.Notice:
			if !quiet && (opt.Progress || e.Level == "warn") {
				fmt.Fprintf(opt.Stderr, "quire: %s\n", e.Text)
			}
		case event.ToolCallRequested:
			if opt.Progress && e.Call != nil {
				fmt.Fprintf(opt.Stderr, "→ %s %s\n", e.Call.Name, oneLine(e.Call.Target))
			}
		case event.ToolFinished:
			if opt.Progress && e.Result != nil && e.Result.Status == event.ToolError {
				fmt.Fprintf(opt.Stderr, "  %s failed: %s\n", e.Result.Name, oneLine(e.Result.Output))
			}
		case event.TurnEnded:
			end = e.End
			closeSession()
		}
	}
	// The session is stopped, and its closing done, before Exec returns.
	if closed != nil {
		<-closed
	} else {
		s.Close()
	}
	if refused != nil {
		return event.TurnFailed, fmt.Errorf("%w: %v", ErrNotSaved, refused)
	}
	if f, ok := cfg.Recorder.(flusher); ok {
		if err := f.Flush(); err != nil {
			if !reported {
				fmt.Fprintf(opt.Stderr, "quire: %v\n", err)
			}
			return event.TurnFailed, fmt.Errorf("%w: %v", ErrNotSaved, err)
		}
	}
	if end == nil {
		return event.TurnFailed, errors.New("the session stopped before the turn ended")
	}
	if !opt.JSON && end.State != event.TurnFailed && answer != "" {
		if !strings.HasSuffix(answer, "\n") {
			answer += "\n"
		}
		_, werr = io.WriteString(opt.Stdout, answer)
	}
	if end.State == event.TurnFailed {
		return end.State, errors.New(end.Error)
	}
	if werr != nil {
		return end.State, fmt.Errorf("write the answer: %w", werr)
	}
	return end.State, nil
}

// oneLine shortens text to its first line, at most 100 bytes.
func oneLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	return llm.Clip(s, 100)
}

// escapeC1 makes JSON text safe for any terminal: encoding/json escapes C0
// controls but writes DEL and the C1 controls (U+0080–U+009F, which some
// terminals obey in UTF-8) as they are. Inside a JSON string these become
// \u escapes with the same meaning; JSON's own syntax has neither. Each
// Write must be whole JSON text, as json.Encoder writes it.
func escapeC1(w io.Writer) io.Writer { return c1Escaper{w} }

type c1Escaper struct{ w io.Writer }

func (c c1Escaper) Write(p []byte) (int, error) {
	i := 0
	for i < len(p) && p[i] != 0x7f && !(p[i] == 0xc2 && i+1 < len(p) && p[i+1] >= 0x80 && p[i+1] <= 0x9f) {
		i++
	}
	if i == len(p) {
		return c.w.Write(p)
	}
	out := make([]byte, 0, len(p)+16)
	out = append(out, p[:i]...)
	for ; i < len(p); i++ {
		switch {
		case p[i] == 0x7f:
			out = append(out, `\u007f`...)
		case p[i] == 0xc2 && i+1 < len(p) && p[i+1] >= 0x80 && p[i+1] <= 0x9f:
			out = fmt.Appendf(out, `\u%04x`, p[i+1])
			i++
		default:
			out = append(out, p[i])
		}
	}
	if _, err := c.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}
