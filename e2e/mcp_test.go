package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/testserver"
	"github.com/quire-sh/quire/ext/mcp/mcptest"
)

// An interactive session with the real everything server: the status
// line counts it, the model's call to one of its tools is approved in
// the terminal showing the server, the tool and the arguments, the
// result is a tool block, /mcp lists the server, and one of its prompts
// is a command.
func TestMCPServerInTheTerminal(t *testing.T) {
	npm := mcptest.Need(t)
	srv := startServer(t, testserver.Script{Responses: []testserver.Response{
		testserver.Call("m1", "mcp__everything__echo", `{"message":"hello through MCP"}`),
		textResponse("The server said hello back.\n", 0),
		textResponse("Prompt received.\n", 0),
	}})
	p := newPane(t, 120, 40)
	cfg := filepath.Join(p.home, ".config", "quire", "config.toml")
	os.MkdirAll(filepath.Dir(cfg), 0o700)
	os.WriteFile(cfg, []byte("[mcp.servers.everything]\ncommand = \""+npm.Node+"\"\nargs = [\""+npm.Everything+"\", \"stdio\"]\n"), 0o600)
	p.run(srv.URL(), "--approval", "ask")
	p.waitText("mcp 1/1", 20*time.Second)
	p.literal("say hello through the server")
	p.keys("Enter")
	s := p.waitText("[y] yes", 10*time.Second)
	if !strings.Contains(s, "MCP server everything, tool echo") || !strings.Contains(s, `"message": "hello through MCP"`) {
		t.Fatalf("the approval does not show the server, the tool and the arguments:\n%s", s)
	}
	p.keys("y")
	s = p.waitText("The server said hello back", 10*time.Second)
	if !strings.Contains(s, "mcp__everything__echo") || !strings.Contains(s, "Echo: hello through MCP") {
		t.Errorf("the call is not shown as a tool block with its result:\n%s", s)
	}
	p.literal("/mcp")
	p.keys("Enter")
	s = p.waitText("everything  ready  stdio, from config.toml", 10*time.Second)
	if !strings.Contains(s, "prompt: /mcp__everything__args-prompt city state?") {
		t.Errorf("/mcp does not list the prompts:\n%s", s)
	}
	p.keys("Escape")
	p.literal("/mcp__everything__args-prompt Lisbon")
	p.keys("Enter")
	p.waitText("Prompt received", 10*time.Second)
	reqs := srv.Requests()
	if last := reqs[len(reqs)-1].LastMessage(); last.Role != "user" || !strings.Contains(last.Content, "Lisbon") {
		t.Errorf("the prompt's text was not sent as the user's message: %+v", last)
	}
	quit(p)
}
