package app

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"testing"

	"github.com/quire-sh/quire/app/apptest"
	"github.com/quire-sh/quire/term"
)

// extSession is an opSession with MCP servers: a status word, /mcp, and
// the servers' prompts sent as new command lists when they change.
type extSession struct {
	*opSession
	changed chan struct{}
	updates chan []Command

	mu      sync.Mutex
	summary string
	mcpArgs [][]string
}

func (s *extSession) ExtensionsChanged() <-chan struct{} { return s.changed }
func (s *extSession) CommandUpdates() <-chan []Command   { return s.updates }
func (s *extSession) setSummary(summary string)          { s.mu.Lock(); s.summary = summary; s.mu.Unlock() }
func (s *extSession) announce(summary string, c []Command) {
	s.setSummary(summary)
	s.changed <- struct{}{}
	s.updates <- c
}
func (s *extSession) ExtensionSummary() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.summary
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

// The status line follows the servers, /mcp shows them and restarts one,
// and a server's prompt, arriving as a command while the session runs,
// is sent as the prompt with the line typed beside it.
func TestExtensionsInTheLoop(t *testing.T) {
	s := &extSession{opSession: newOpSession(), changed: make(chan struct{}, 1), updates: make(chan []Command, 1), summary: "mcp 0/1 …"}
	tt := startLoopOn(t, apptest.NewTerminal(120, 60), s, Options{Status: Status{Model: "m", Sandbox: "workspace", Approval: "ask"}})
	waitScreen(t, tt, "mcp 0/1 …")
	greet := Command{Name: "mcp__srv__greet", Args: "name", Summary: "Greet someone.", Source: "mcp srv",
		Expand: func(_ context.Context, args string) (string, error) { return "the prompt greet with " + args, nil }}
	s.announce("mcp 1/1", []Command{greet})
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
	waitFor(t, "the prompt's text", func() bool { return len(s.sent()) == 1 })
	if got := s.sent(); !reflect.DeepEqual(got, []string{"/mcp__srv__greet Ada Lovelace => the prompt greet with Ada Lovelace"}) {
		t.Fatalf("sent %q", got)
	}
	tt.Send(term.KeyEvent{Key: term.KeyF1})
	waitScreen(t, tt, "Greet someone. (mcp srv)")
	tt.Send(term.KeyEvent{Key: term.KeyEscape})

	// The server fails: its prompt is gone from the commands.
	s.announce("mcp 0/1 srv failed", nil)
	waitScreen(t, tt, "mcp 0/1 srv failed")
	waitFor(t, "the new list", func() bool { return len(s.updates) == 0 })
	tt.Type("/mcp__srv__greet x", term.KeyEnter)
	waitScreen(t, tt, "unknown command /mcp__srv__greet")
}

// A session without extensions (a replay) says so for /mcp.
func TestMCPWithoutExtensions(t *testing.T) {
	s := newOpSession()
	tt := startLoop(t, s, Options{})
	tt.Type("/mcp", term.KeyEnter)
	waitScreen(t, tt, "this session has no MCP servers")
}
