package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/quire-sh/quire/engine/event"
)

// ExecOptions configures Exec.
type ExecOptions struct {
	Prompt string
	// Stdout receives the final answer, or with JSON every event as one
	// JSON object per line.
	Stdout io.Writer
	// Stderr receives denials and errors, and progress when Progress is
	// set.
	Stderr   io.Writer
	JSON     bool
	Progress bool
}

// Exec runs prompt as one turn of a new, unattended session and returns
// how the turn ended. Cancelling ctx cancels the turn (it still ends, with
// TurnCancelled). Calls that would need approval are denied and reported
// on Stderr. The returned error is the turn's error when it failed.
func Exec(ctx context.Context, cfg Config, opt ExecOptions) (event.TurnState, error) {
	cfg.Unattended = true
	s, err := New(cfg)
	if err != nil {
		return event.TurnFailed, err
	}
	stop := context.AfterFunc(ctx, s.Cancel)
	defer stop()
	s.Submit(opt.Prompt)

	enc := json.NewEncoder(opt.Stdout)
	var (
		answer string
		end    *event.TurnEnd
		werr   error
		closed chan struct{} // closed once Close has returned
	)
	for e := range s.Events() {
		if opt.JSON && werr == nil {
			werr = enc.Encode(e)
		}
		switch e.Kind {
		case event.AssistantMessage:
			answer = e.Text
		case event.ApprovalAnswered:
			if a := e.Approval; a != nil && a.Hook != "" && a.Decision == event.Deny {
				fmt.Fprintf(opt.Stderr, "quire: a hook (%s) denied %s %s: %s\n", oneLine(a.Hook), a.Tool, oneLine(a.Target), oneLine(strings.TrimPrefix(a.Reason, "hook: ")))
			} else if a != nil && a.ByPolicy && a.Decision == event.Deny {
				fmt.Fprintf(opt.Stderr, "quire: denied %s %s: it needs approval, which quire exec cannot ask for (rerun with --approval auto-edit or yolo to allow it)\n", a.Tool, a.Target)
			}
		case event.Error:
			fmt.Fprintf(opt.Stderr, "quire: %s\n", e.Text)
		case event.Notice:
			if opt.Progress || e.Level == "warn" {
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
			if closed == nil {
				// Events closes once the session has stopped; Close runs
				// beside this loop, which drains them meanwhile.
				closed = make(chan struct{})
				go func() {
					defer close(closed)
					s.Close()
				}()
			}
		}
	}
	// The session is stopped, and its closing done, before Exec returns.
	if closed != nil {
		<-closed
	} else {
		s.Close()
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
	if len(s) > 100 {
		s = clipString(s, 100) + "…"
	}
	return s
}

func clipString(s string, n int) string {
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}
