package app

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quire-sh/quire/app/apptest"
	"github.com/quire-sh/quire/term"
)

// extSession is an opSession with MCP servers.
type extSession struct {
	*opSession
	changed chan struct{}

	mu      sync.Mutex
	summary string
	cmds    []ExtensionCommand
	mcpArgs [][]string
}

func (s *extSession) ExtensionsChanged() <-chan struct{} { return s.changed }
func (s *extSession) ExtensionSummary() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.summary
}
func (s *extSession) Commands() []ExtensionCommand {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cmds
}
func (s *extSession) MCP(ctx context.Context, args []string) ([]string, string, error) {
	s.mu.Lock()
	s.mcpArgs = append(s.mcpArgs, args)
	s.mu.Unlock()
	if len(args) == 0 {
		return []string{"MCP servers (/mcp restart NAME reconnects one):", "srv  ready  stdio"}, "", nil
	}
	if args[0] == "restart" {
		return nil, "restarting MCP server " + args[1] + "…", nil
	}
	return nil, "", errors.New("/mcp takes nothing, or restart NAME")
}
func (s *extSession) RunCommand(ctx context.Context, name string, args []string) (string, error) {
	return "the prompt " + name + " with " + strings.Join(args, ","), nil
}

func (s *extSession) set(summary string, cmds []ExtensionCommand) {
	s.mu.Lock()
	s.summary, s.cmds = summary, cmds
	s.mu.Unlock()
	s.changed <- struct{}{}
}

// The status line follows the servers, /mcp shows them and restarts one,
// and a server's prompt is a command whose text is sent as the prompt.
func TestExtensionsInTheLoop(t *testing.T) {
	s := &extSession{opSession: newOpSession(), changed: make(chan struct{}, 1), summary: "mcp 0/1 …"}
	tt := startLoopOn(t, apptest.NewTerminal(100, 60), s, Options{Status: Status{Model: "m", Sandbox: "workspace", Approval: "ask"}})
	waitScreen(t, tt, "mcp 0/1 …")
	s.set("mcp 1/1", []ExtensionCommand{{Name: "mcp__srv__greet", Args: "name", Help: "Greet someone."}})
	waitScreen(t, tt, "mcp 1/1")

	tt.Type("/mcp", term.KeyEnter)
	waitScreen(t, tt, "srv  ready  stdio")
	tt.Send(term.KeyEvent{Key: term.KeyEscape})
	tt.Type("/mcp restart srv", term.KeyEnter)
	waitScreen(t, tt, "restarting MCP server srv…")

	tt.Type("/mcp__srv__gr")
	tt.Send(term.KeyEvent{Key: term.KeyTab})
	waitScreen(t, tt, "› /mcp__srv__greet")
	tt.Type("Ada Lovelace", term.KeyEnter)
	deadline := time.Now().Add(5 * time.Second)
	for len(s.sent()) == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if got := s.sent(); !reflect.DeepEqual(got, []string{"the prompt mcp__srv__greet with Ada,Lovelace"}) {
		t.Fatalf("sent %q", got)
	}
	tt.Send(term.KeyEvent{Key: term.KeyF1})
	waitScreen(t, tt, "/mcp__srv__greet name  Greet someone.")

	s.set("mcp 0/1 srv failed", nil)
	waitScreen(t, tt, "mcp 0/1 srv failed")
}

// A session without extensions (a replay) says so for /mcp.
func TestMCPWithoutExtensions(t *testing.T) {
	s := newOpSession()
	tt := startLoop(t, s, Options{})
	tt.Type("/mcp", term.KeyEnter)
	waitScreen(t, tt, "this session has no MCP servers")
}
