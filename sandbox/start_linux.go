package sandbox

import (
	"context"
	"errors"
	"io"
	"os"
	"runtime"
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
	cmd, err := launcherCommand(p, c, grace)
	if err != nil {
		return nil, err
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, err
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW

	ctx, cancel := context.WithCancel(context.Background())
	proc := &Process{Stdin: inW, Stdout: outR, stop: cancel, done: make(chan struct{})}
	started := make(chan error, 1)
	// As in Run, one locked thread for the command's whole life keeps the
	// launcher's parent-death signal tied to quire, not to an idle thread.
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		proc.exit = waitLauncher(ctx, cmd, grace)
		close(proc.done)
	}()
	err = <-started
	inR.Close()
	outW.Close()
	errW.Close()
	if err != nil {
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
