package sandbox

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"time"
)

// Process is a long-lived command started with Start that talks to quire
// over its standard input and output (an MCP server). Its standard error
// goes to Command.Output.
type Process struct {
	// Stdin is the command's standard input; closing it is the polite
	// way to ask the command to end.
	Stdin io.WriteCloser
	// Stdout is the command's standard output.
	Stdout io.ReadCloser

	stop context.CancelFunc
	done chan struct{} // closed once the launcher is reaped
	exit Exit
}

// Start starts c confined to p through the launcher, like Run, but
// returns at once with pipes to the command's standard input and output.
// The command runs until it exits or Close ends it; if quire dies, the
// kernel tells the launcher to end it. An error means nothing was started.
func Start(p Profile, s Support, c Command) (*Process, error) {
	if len(c.Argv) == 0 {
		return nil, errors.New("no command given")
	}
	if err := p.Check(s); err != nil {
		return nil, err
	}
	grace := c.Grace
	if grace <= 0 {
		grace = DefaultGrace
	}
	plan, err := planLaunch(p, c, grace)
	if err != nil {
		return nil, err
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		plan.cleanup()
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		plan.cleanup()
		inR.Close()
		inW.Close()
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		plan.cleanup()
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, err
	}

	ctx, cancel := context.WithCancel(context.Background())
	proc := &Process{Stdin: inW, Stdout: outR, stop: cancel, done: make(chan struct{})}
	launch := func(cmd *exec.Cmd) error {
		cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
		return startLocked(cmd, func() {
			proc.exit = waitLauncher(ctx, cmd, grace)
			proc.exit.Processes = plan.finish()
			close(proc.done)
		})
	}
	err = launch(plan.cmd)
	if err != nil && plan.optionalUserNS && isNamespaceRefusal(err) {
		// The user namespace was only for the process cap: run without.
		plan.dropUserNS()
		err = launch(plan.cmd)
	}
	inR.Close()
	outW.Close()
	errW.Close()
	if err != nil {
		plan.cleanup()
		cancel()
		inW.Close()
		outR.Close()
		errR.Close()
		return nil, startError(p, err)
	}
	go func() {
		defer errR.Close()
		if c.Output != nil {
			io.Copy(c.Output, errR)
		} else {
			io.Copy(io.Discard, errR)
		}
	}()
	return proc, nil
}

// Done is closed when the command has ended (its launcher exited).
func (p *Process) Done() <-chan struct{} { return p.done }

// Exit is how the command ended; valid once Done is closed.
func (p *Process) Exit() Exit {
	<-p.done
	return p.exit
}

// Close ends the command the way a well-behaved client ends a server:
// standard input is closed, the command gets wait to exit on its own,
// and then it and everything it started get SIGTERM and, after the grace
// period, SIGKILL (the launcher's whole tree; see supervise). Close
// returns once the launcher is reaped. Calling it again only waits.
func (p *Process) Close(wait time.Duration) Exit {
	p.Stdin.Close()
	select {
	case <-p.done:
	case <-time.After(wait):
		p.stop()
		<-p.done
	}
	p.stop()
	p.Stdout.Close()
	return p.exit
}
