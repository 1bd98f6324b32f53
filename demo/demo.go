package demo

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/quire-sh/quire/app"
	"github.com/quire-sh/quire/config"
	"github.com/quire-sh/quire/engine/testserver"
	"github.com/quire-sh/quire/ext/mcp"
	"github.com/quire-sh/quire/session"
)

//go:embed demoproject
var demoProject embed.FS

// Prompt is what the demo submits on start.
const Prompt = "Fix the bug in greet.go and show me what you changed."

// Options configure `quire demo`.
type Options struct {
	Config *config.Config
	// Pace is the delay between streamed chunks (default 15 ms), so the
	// stream is watchable; tests set it lower.
	Pace time.Duration
}

// Demo is a real session, with the real engine, tools and sandbox,
// against the built-in test server on 127.0.0.1 playing a scripted model,
// in a temporary copy of a small sample project. No API key is needed,
// and nothing is stored.
type Demo struct {
	// Session is the running session, for app.Run.
	Session *session.Handle
	srv     *testserver.Server
	dir     string
	closed  bool
}

// Open starts the demo: the project, the scripted model and the session.
func Open(opt Options) (*Demo, error) {
	dir, err := os.MkdirTemp("", "quire-demo-*")
	if err != nil {
		return nil, fmt.Errorf("creating the demo project: %w", err)
	}
	d := &Demo{dir: dir}
	if err := copyDemoProject(dir); err != nil {
		d.Close()
		return nil, err
	}
	pace := opt.Pace
	if pace <= 0 {
		pace = 15 * time.Millisecond
	}
	if d.srv, err = testserver.Start(testserver.Script{Respond: demoScript(pace)}); err != nil {
		d.Close()
		return nil, fmt.Errorf("starting the demo model: %w", err)
	}
	cfg := *opt.Config
	cfg.BaseURL, cfg.APIKey, cfg.Model, cfg.Provider = d.srv.URL(), "demo", "demo", ""
	cfg.MCP = mcp.Settings{} // the demo starts none of the user's MCP servers
	if d.Session, err = session.Open(session.Options{Config: &cfg, Version: "demo", Cwd: dir, NoStore: true}); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// AppOptions are the app's options for the demo: the demo's prompt is
// sent at once, and the status line names the scripted model.
func (d *Demo) AppOptions() app.Options {
	opt := d.Session.AppOptions()
	opt.Prompt = Prompt
	opt.Status.Model, opt.Status.Demo = "demo model", true
	return opt
}

// Close stops the session and the model and removes the project.
func (d *Demo) Close() {
	if d.closed {
		return
	}
	d.closed = true
	if d.Session != nil {
		d.Session.Close()
	}
	if d.srv != nil {
		d.srv.Close()
	}
	os.RemoveAll(d.dir)
}

func copyDemoProject(dir string) error {
	return fs.WalkDir(demoProject, "demoproject", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := demoProject.ReadFile(path)
		if err != nil {
			return err
		}
		name := strings.TrimSuffix(strings.TrimPrefix(path, "demoproject/"), ".txt")
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return fmt.Errorf("creating the demo project: %w", err)
		}
		return nil
	})
}

// demoAnswer is the final answer: a heading, a list, a table, a
// diagram and a highlighted code block, streamed.
const demoAnswer = "## Fixed: a typo in `Greeting`\n\n" +
	"The function referred to `nam`, which does not exist, so the package did not compile.\n\n" +
	"What I did:\n\n" +
	"- read `greet.go` and found the undefined identifier;\n" +
	"- replaced `nam` with the parameter `name` (you approved the edit);\n" +
	"- checked the result with `grep` **inside the sandbox**, which also refused a write outside the project.\n\n" +
	"| step | tool | result |\n" +
	"|------|------|--------|\n" +
	"| read | `read_file` | found `nam` on line 7 |\n" +
	"| edit | `edit_file` | 1 line changed |\n" +
	"| check | `shell` | fixed; outside write denied |\n\n" +
	"```mermaid\n" +
	"flowchart LR\n" +
	"  read[read greet.go] --> edit[edit line 7] -->|approved| check[grep in the sandbox]\n" +
	"```\n\n" +
	"The function now reads:\n\n" +
	"```go\n" +
	"// Greeting returns the line printed for name.\n" +
	"func Greeting(name string) string {\n" +
	"\treturn fmt.Sprintf(\"Hello, %s!\", name)\n" +
	"}\n" +
	"```\n\n" +
	"Run `go vet ./...` in your own project to catch this kind of slip early.\n"

// demoScript plays the demo model: read the file, propose an edit, run a
// sandboxed check, answer. It reacts to what it is sent, so a denied edit
// gets a fitting reply instead of a script that runs off its rails.
func demoScript(pace time.Duration) func(n int, req testserver.Request) testserver.Response {
	text := func(s string) testserver.Response {
		r := testserver.Response{Text: testserver.Chunks(s, 6), Pace: testserver.Duration(pace)}
		r.Usage = &testserver.Usage{PromptTokens: 900 + 40*len(s)/10, CompletionTokens: len(s) / 4}
		return r
	}
	call := func(id, name string, args any) testserver.Response {
		b, _ := json.Marshal(args)
		r := testserver.Call(id, name, string(b))
		r.Text = testserver.Chunks("Let me take a look.\n", 6)
		r.Pace = testserver.Duration(pace)
		return r
	}
	return func(n int, req testserver.Request) testserver.Response {
		last := req.LastMessage()
		if last.ToolCallID == "demo-edit" && strings.HasPrefix(last.Content, "The user denied") {
			return text("Understood, I left `greet.go` unchanged. The fix is to replace `nam` with `name` on line 7 whenever you want it.\n")
		}
		switch last.ToolCallID {
		case "":
			return call("demo-read", "read_file", map[string]any{"path": "greet.go"})
		case "demo-read":
			r := call("demo-edit", "edit_file", map[string]any{
				"path": "greet.go", "old_string": `fmt.Sprintf("Hello, %s!", nam)`, "new_string": `fmt.Sprintf("Hello, %s!", name)`,
			})
			r.Text = testserver.Chunks("Line 7 uses `nam`, which is undefined. I'll fix it.\n", 6)
			return r
		case "demo-edit":
			r := call("demo-check", "shell", map[string]any{
				"command": "grep -n 'name)' greet.go && (touch /etc/quire-demo 2>&1 || echo 'the sandbox refused a write outside the project')",
			})
			r.Text = testserver.Chunks("Now let me check the fix, and show that the sandbox holds.\n", 6)
			return r
		default:
			return text(demoAnswer)
		}
	}
}
