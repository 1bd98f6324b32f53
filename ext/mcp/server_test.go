package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quire-sh/quire/sandbox"
)

// The test binary is also the test servers: with serverModeEnv set (in
// the server's configured env, which the tests thereby check too) it
// serves MCP on stdin and stdout in that mode instead of running tests.
const (
	serverModeEnv = "QUIRE_MCP_TEST_SERVER"
	// markEnv names a file the server writes what it saw to (a cancel).
	markEnv = "QUIRE_MCP_TEST_MARK"
)

func TestMain(m *testing.M) {
	sandbox.MaybeLaunch()
	os.Setenv("GORACE", "atexit_sleep_ms=0")
	if mode := os.Getenv(serverModeEnv); mode != "" {
		serveTest(mode)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// escapeName is a tool name with a terminal escape sequence in it.
const escapeName = "\x1b[31mred\x1b[0m"

func serveTest(mode string) {
	switch mode {
	case "good":
		serveGood()
	case "malformed":
		serveRaw(`{"content":"not a list"}`)
	case "silent":
		// Reads its input and never answers: the handshake times out. It
		// ignores the end of its input and SIGTERM, so only a kill ends
		// it; its pid goes to the mark file.
		signal.Ignore(syscall.SIGTERM)
		if p := os.Getenv(markEnv); p != "" {
			os.WriteFile(p, []byte(strconv.Itoa(os.Getpid())), 0o600)
		}
		in := bufio.NewScanner(os.Stdin)
		for in.Scan() {
		}
		time.Sleep(time.Hour)
	case "exit":
		fmt.Fprintln(os.Stderr, "fatal: the test server refuses to start")
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "unknown mode", mode)
		os.Exit(2)
	}
}

type echoArgs struct {
	Message string `json:"message" jsonschema:"what to echo"`
}

func text(s string) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
}

func serveGood() {
	srv := sdk.NewServer(&sdk.Implementation{Name: "quire-test", Version: "1"}, nil)
	readOnly := &sdk.ToolAnnotations{ReadOnlyHint: true}
	sdk.AddTool(srv, &sdk.Tool{Name: "echo", Description: "Echo a message back.", Annotations: readOnly},
		func(ctx context.Context, req *sdk.CallToolRequest, a echoArgs) (*sdk.CallToolResult, any, error) {
			return text("echo: " + a.Message), nil, nil
		})
	destructive := true
	sdk.AddTool(srv, &sdk.Tool{Name: "delete", Description: "Pretend to delete.", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true, DestructiveHint: &destructive}},
		func(ctx context.Context, req *sdk.CallToolRequest, a struct{}) (*sdk.CallToolResult, any, error) {
			return text("deleted"), nil, nil
		})
	sdk.AddTool(srv, &sdk.Tool{Name: "env", Description: "The server's environment, sorted."},
		func(ctx context.Context, req *sdk.CallToolRequest, a struct{}) (*sdk.CallToolResult, any, error) {
			env := os.Environ()
			sort.Strings(env)
			return text(strings.Join(env, "\n")), nil, nil
		})
	sdk.AddTool(srv, &sdk.Tool{Name: "touch", Description: "Create a file."},
		func(ctx context.Context, req *sdk.CallToolRequest, a struct {
			Path string `json:"path"`
		}) (*sdk.CallToolResult, any, error) {
			if err := os.WriteFile(a.Path, []byte("x"), 0o600); err != nil {
				return text("refused: " + err.Error()), nil, nil
			}
			return text("written"), nil, nil
		})
	sdk.AddTool(srv, &sdk.Tool{Name: "crash", Description: "Exit in the middle of the call."},
		func(ctx context.Context, req *sdk.CallToolRequest, a struct{}) (*sdk.CallToolResult, any, error) {
			fmt.Fprintln(os.Stderr, "panic: the test server crashed on purpose")
			os.Exit(3)
			return nil, nil, nil
		})
	sdk.AddTool(srv, &sdk.Tool{Name: "hang", Description: "Never answer; note a cancel."},
		func(ctx context.Context, req *sdk.CallToolRequest, a struct{}) (*sdk.CallToolResult, any, error) {
			<-ctx.Done()
			if p := os.Getenv(markEnv); p != "" {
				os.WriteFile(p, []byte("cancelled"), 0o600)
			}
			return nil, nil, ctx.Err()
		})
	sdk.AddTool(srv, &sdk.Tool{Name: "huge", Description: "A result of a megabyte."},
		func(ctx context.Context, req *sdk.CallToolRequest, a struct{}) (*sdk.CallToolResult, any, error) {
			return text("BEGIN" + strings.Repeat("x", 1<<20) + "END"), nil, nil
		})
	sdk.AddTool(srv, &sdk.Tool{Name: "media", Description: "Text, an image and an embedded resource."},
		func(ctx context.Context, req *sdk.CallToolRequest, a struct{}) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{
				&sdk.TextContent{Text: "a picture:"},
				&sdk.ImageContent{MIMEType: "image/png", Data: []byte{1, 2, 3}},
				&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "test://note", MIMEType: "text/plain", Text: "the note"}},
			}}, nil, nil
		})
	sdk.AddTool(srv, &sdk.Tool{Name: "fail", Description: "A tool error."},
		func(ctx context.Context, req *sdk.CallToolRequest, a struct{}) (*sdk.CallToolResult, any, error) {
			r := text("it went wrong")
			r.IsError = true
			return r, nil, nil
		})
	sdk.AddTool(srv, &sdk.Tool{Name: "add_tool", Description: "Add a tool named late."},
		func(ctx context.Context, req *sdk.CallToolRequest, a struct{}) (*sdk.CallToolResult, any, error) {
			sdk.AddTool(srv, &sdk.Tool{Name: "late", Description: "Added later."},
				func(ctx context.Context, req *sdk.CallToolRequest, a struct{}) (*sdk.CallToolResult, any, error) {
					return text("late"), nil, nil
				})
			return text("added"), nil, nil
		})
	schema := json.RawMessage(`{"type":"object","properties":{}}`)
	for _, name := range []string{escapeName, "dotted.name"} {
		srv.AddTool(&sdk.Tool{Name: name, Description: "A tool with an awkward name.\x1b]0;pwned\x07", InputSchema: schema},
			func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				return text("awkward " + req.Params.Name), nil
			})
	}
	srv.AddPrompt(&sdk.Prompt{Name: "greet", Description: "Greet someone.", Arguments: []*sdk.PromptArgument{
		{Name: "name", Required: true}, {Name: "style"},
	}}, func(ctx context.Context, req *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
		a := req.Params.Arguments
		return &sdk.GetPromptResult{Messages: []*sdk.PromptMessage{
			{Role: "user", Content: &sdk.TextContent{Text: "Say hello to " + a["name"] + "."}},
			{Role: "user", Content: &sdk.TextContent{Text: "Style: " + a["style"]}},
		}}, nil
	})
	srv.AddResource(&sdk.Resource{URI: "test://readme", Name: "readme", MIMEType: "text/plain"},
		func(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: "test://readme", MIMEType: "text/plain", Text: "read me first"}}}, nil
		})
	if err := srv.Run(context.Background(), &sdk.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
	}
}

// serveRaw speaks just enough JSON-RPC by hand to list one tool, "bad",
// and answer every call of it with result, whatever that is.
func serveRaw(result string) {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 1<<20)
	for in.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(in.Bytes(), &req) != nil || req.ID == nil {
			continue
		}
		var res string
		switch req.Method {
		case "initialize":
			res = `{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"raw","version":"1"}}`
		case "tools/list":
			res = `{"tools":[{"name":"bad","inputSchema":{"type":"object"}}]}`
		case "tools/call":
			res = result
		default:
			res = `{}`
		}
		fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", req.ID, res)
	}
}
