package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/quire-sh/quire/sandbox"
)

// Shell is the shell tool: one bash command, sandboxed.
type Shell struct{}

const (
	defaultShellTimeout = 120 * time.Second
	maxShellTimeout     = 600 * time.Second
)

var shellParams = []param{
	{name: "command", typ: "string", desc: "the command line, run with bash -c", required: true},
	{name: "timeout_ms", typ: "integer", desc: fmt.Sprintf("milliseconds before the command and everything it started are killed (default %d, maximum %d)", defaultShellTimeout.Milliseconds(), maxShellTimeout.Milliseconds()), min: 1, max: maxShellTimeout.Milliseconds()},
	{name: "workdir", typ: "string", desc: "directory to run in, relative to the working directory (default: the working directory)"},
}

type shellArgs struct {
	Command   string `json:"command"`
	TimeoutMS int64  `json:"timeout_ms"`
	Workdir   string `json:"workdir"`
}

func (Shell) Spec() Spec {
	return Spec{
		Name: "shell",
		Description: fmt.Sprintf("Run a bash command in the working directory, inside the sandbox. There is no terminal and no input: "+
			"interactive programs fail, pagers print, editors exit at once. Output (stdout and stderr together) is capped at %d bytes, "+
			"keeping the beginning and the end. Background processes are killed when the command ends.", shellLimitBytes),
		Schema: schemaOf(shellParams),
		Kind:   KindExecute,
		Writes: true,
	}
}

func (Shell) Plan(env *Env, _ *Overlay, raw json.RawMessage) (Plan, error) {
	var a shellArgs
	if err := decodeArgs(raw, shellParams, &a); err != nil {
		return Plan{}, err
	}
	if strings.TrimSpace(a.Command) == "" {
		return Plan{}, &ArgError{Problems: []string{"field \"command\": must not be empty"}}
	}
	preview := a.Command
	if a.Workdir != "" {
		preview = "(in " + a.Workdir + ") " + a.Command
	}
	return Plan{Target: a.Command, Preview: preview, Writes: []string{env.Dir}, Command: a.Command, Action: a}, nil
}

func (Shell) Run(ctx context.Context, env *Env, call Call) Result {
	a, ok := call.Plan.Action.(shellArgs)
	if !ok {
		return unplanned("shell")
	}
	dir := env.Dir
	if a.Workdir != "" {
		d, err := env.readPath(a.Workdir)
		if err != nil {
			return errorResult("%v", err)
		}
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			return errorResult("workdir %s is not a directory", env.display(d))
		}
		dir = d
	}
	timeout := defaultShellTimeout
	if a.TimeoutMS > 0 {
		timeout = time.Duration(a.TimeoutMS) * time.Millisecond
	}
	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	out := newHeadTail(shellLimitBytes)
	var sink streamSink = out
	if call.Output != nil {
		sink = teeSink{out, call.Output}
	}
	exit, err := sandbox.Run(runCtx, env.Profile, env.Support, sandbox.Command{
		Argv:   []string{"bash", "-c", a.Command},
		Dir:    dir,
		Env:    sandbox.CommandEnv(os.Environ(), env.Profile),
		Output: sink,
	})
	if err != nil {
		return errorResult("The command was not run: %v", err)
	}
	var b strings.Builder
	text := out.String()
	if text == "" {
		text = "(no output)\n"
	}
	b.WriteString(text)
	if !strings.HasSuffix(text, "\n") {
		b.WriteByte('\n')
	}
	res := Result{Truncated: out.truncated()}
	code := exit.Code
	res.ExitCode = &code
	switch {
	case exit.Cancelled && errors.Is(runCtx.Err(), context.DeadlineExceeded) && ctx.Err() == nil:
		fmt.Fprintf(&b, "[timed out after %s; the command and everything it started were killed. Pass a larger timeout_ms (up to %d) or run less at once]", timeout, maxShellTimeout.Milliseconds())
		res.IsError = true
	case exit.Cancelled:
		b.WriteString("[cancelled; the command and everything it started were killed]")
		res.IsError = true
	case exit.Signal != "":
		fmt.Fprintf(&b, "[killed by %s, exit code %d]", exit.Signal, exit.Code)
	default:
		fmt.Fprintf(&b, "[exit code %d]", exit.Code)
	}
	if line := processCapLine(exit); line != "" {
		b.WriteString("\n" + line)
	}
	res.Output = b.String()
	return res
}

type streamSink interface {
	Write(p []byte) (int, error)
}

// teeSink keeps output for the result and streams each chunk to the
// caller's callback.
type teeSink struct {
	keep   *headTail
	stream func([]byte)
}

func (t teeSink) Write(p []byte) (int, error) {
	t.keep.Write(p)
	t.stream(append([]byte(nil), p...))
	return len(p), nil
}

// processCapLine tells the model about the sandbox's process cap when it
// matters: when the command ran into it (cgroups count refused forks), or,
// where the cap cannot tell (RLIMIT_NPROC), when the command failed, so a
// "fork: Resource temporarily unavailable" has its explanation. Saying it
// on every call would cost tokens for nothing.
func processCapLine(exit sandbox.Exit) string {
	c := exit.Processes
	switch {
	case c.Limit == 0:
		return ""
	case c.Reached:
		return fmt.Sprintf("[the sandbox refused to start more processes: a command may have at most %d processes and threads at once (%s)]", c.Limit, c.Method)
	case !c.Measured && exit.Code != 0:
		return fmt.Sprintf("[a command may have at most %d processes and threads at once (%s); if a fork failed, that cap is why]", c.Limit, c.Method)
	}
	return ""
}
