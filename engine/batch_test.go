package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/testserver"
	"github.com/quire-sh/quire/tools"
)

// fakeShell stands in for the shell tool without a sandbox: its command
// "put PATH TEXT" writes TEXT to PATH. Like the shell, it may write
// anything, so it lists the working directory in its writes.
type fakeShell struct{}

func (fakeShell) Spec() tools.Spec {
	return tools.Spec{Name: "shell", Description: "run", Kind: tools.KindExecute, Writes: true,
		Schema: json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"}}}`)}
}

func (fakeShell) Plan(env *tools.Env, _ *tools.Overlay, raw json.RawMessage) (tools.Plan, error) {
	var a struct {
		Command string `json:"command"`
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		return tools.Plan{}, err
	}
	return tools.Plan{Target: a.Command, Preview: a.Command, Writes: []string{env.Dir}, Command: a.Command, Action: a.Command}, nil
}

func (fakeShell) Run(ctx context.Context, env *tools.Env, call tools.Call) tools.Result {
	f := strings.SplitN(call.Plan.Action.(string), " ", 3)
	if err := os.WriteFile(filepath.Join(env.Dir, f[1]), []byte(f[2]), 0o644); err != nil {
		return tools.Result{Output: err.Error(), IsError: true}
	}
	return tools.Result{Output: "[exit code 0]"}
}

// askEdits asks about every edit, like the ask mode; unattended, it
// denies edits of the paths in deny.
type askEdits struct{ deny map[string]bool }

func (a askEdits) NeedsApproval(spec tools.Spec, plan tools.Plan) bool {
	if a.deny != nil {
		return a.deny[plan.Target]
	}
	return spec.Writes
}
func (askEdits) Remember(tools.Spec, tools.Plan) {}

// fileHarness runs a session with the real file tools in a fresh
// directory.
type fileHarness struct {
	*harness
	dir string
}

func newFileHarness(t *testing.T, approver Approver, mod func(*Config), responses ...testserver.Response) *fileHarness {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, testserver.Script{Responses: append(responses, testserver.Text("done"))}, func(c *Config) {
		c.Env = &tools.Env{Dir: dir}
		c.Tools = tools.NewRegistry(tools.ReadFile{}, tools.WriteFile{}, tools.EditFile{}, tools.ApplyPatch{}, fakeShell{})
		c.Approver = approver
		if mod != nil {
			mod(c)
		}
	})
	return &fileHarness{harness: h, dir: dir}
}

func (f *fileHarness) write(name, content string) {
	f.t.Helper()
	if err := os.WriteFile(filepath.Join(f.dir, name), []byte(content), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fileHarness) read(name string) string {
	f.t.Helper()
	b, err := os.ReadFile(filepath.Join(f.dir, name))
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return string(b)
}

// approve waits for the approval of id, checks its preview and answers.
func (f *fileHarness) approve(id string, preview []string, d event.Decision) {
	f.t.Helper()
	e := f.waitFor("approval of "+id, func(e event.Event) bool { return e.Kind == event.ApprovalRequested && e.CallID == id })
	for _, p := range preview {
		if !strings.Contains(e.Approval.Preview, p) {
			f.t.Errorf("approval of %s shows:\n%s\nwant it to contain %q", id, e.Approval.Preview, p)
		}
	}
	f.s.Answer(id, d, "")
}

func toolCall(id, name string, args map[string]any) testserver.ToolCall {
	b, _ := json.Marshal(args)
	return testserver.ToolCall{ID: id, Name: name, Arguments: string(b)}
}

func edit(id, path, old, new string) testserver.ToolCall {
	return toolCall(id, "edit_file", map[string]any{"path": path, "old_string": old, "new_string": new})
}

func status(t *testing.T, res map[string]*event.ToolResult, want map[string]event.ToolStatus) {
	t.Helper()
	for id, st := range want {
		if res[id] == nil || res[id].Status != st {
			t.Errorf("%s: %+v, want %s", id, res[id], st)
		}
	}
}

// Two edits of one file in one batch, the second relying on the first:
// each approval shows the diff that will be applied, and both apply.
func TestDependentEditsOfOneFile(t *testing.T) {
	f := newFileHarness(t, askEdits{}, nil, calls(
		edit("c1", "a.txt", "one", "two"),
		edit("c2", "a.txt", "two", "three"),
	))
	f.write("a.txt", "one\n")
	f.s.Submit("go")
	f.approve("c1", []string{"-one", "+two"}, event.Approve)
	f.approve("c2", []string{"-two", "+three"}, event.Approve)
	if end := f.turnEnd(1); end.State != event.TurnCompleted {
		t.Fatalf("end %+v", end)
	}
	res := results(f.all())
	status(t, res, map[string]event.ToolStatus{"c1": event.ToolOK, "c2": event.ToolOK})
	if got := f.read("a.txt"); got != "three\n" {
		t.Fatalf("a.txt = %q", got)
	}
	// What each call reports having done is what its approval showed.
	if !strings.Contains(res["c2"].Diff, "-two") || !strings.Contains(res["c2"].Diff, "+three") {
		t.Errorf("c2 diff %q", res["c2"].Diff)
	}
}

func TestWriteThenEdit(t *testing.T) {
	f := newFileHarness(t, askEdits{}, nil, calls(
		toolCall("w", "write_file", map[string]any{"path": "new.txt", "content": "hello world\n"}),
		edit("e", "new.txt", "world", "there"),
	))
	f.s.Submit("go")
	f.approve("w", []string{"+hello world"}, event.Approve)
	f.approve("e", []string{"-hello world", "+hello there"}, event.Approve)
	f.turnEnd(1)
	status(t, results(f.all()), map[string]event.ToolStatus{"w": event.ToolOK, "e": event.ToolOK})
	if got := f.read("new.txt"); got != "hello there\n" {
		t.Fatalf("new.txt = %q", got)
	}
}

// A call that cannot apply to the state the earlier calls leave is refused
// when planned, and says which earlier call it was checked against.
func TestConflictingCallsAreRefusedWithTheReason(t *testing.T) {
	f := newFileHarness(t, nil, nil, calls(
		toolCall("p", "apply_patch", map[string]any{"patch": "*** Begin Patch\n*** Delete File: a.txt\n*** End Patch\n"}),
		edit("e", "a.txt", "one", "two"),
		toolCall("w", "write_file", map[string]any{"path": "b.txt", "content": "fresh\n"}),
		edit("e2", "b.txt", "stale", "x"),
	))
	f.write("a.txt", "one\n")
	f.write("b.txt", "stale\n")
	f.s.Submit("go")
	f.turnEnd(1)
	res := results(f.all())
	status(t, res, map[string]event.ToolStatus{"p": event.ToolOK, "e": event.ToolError, "w": event.ToolOK, "e2": event.ToolError})
	if out := res["e"].Output; !strings.Contains(out, "does not exist") || !strings.Contains(out, "apply_patch call p of this batch") {
		t.Errorf("e: %q", out)
	}
	if out := res["e2"].Output; !strings.Contains(out, "not found") || !strings.Contains(out, "write_file call w of this batch") {
		t.Errorf("e2: %q", out)
	}
	if f.read("b.txt") != "fresh\n" {
		t.Errorf("b.txt = %q", f.read("b.txt"))
	}
}

// An edit and then a shell command that rewrites the file: they run in
// that order. A shell command and then an edit of the file it rewrites:
// the edit was planned on the old content, so it is not written.
func TestEditAndShellOfOneFile(t *testing.T) {
	t.Run("edit then shell", func(t *testing.T) {
		f := newFileHarness(t, nil, nil, calls(
			edit("e", "a.txt", "one", "two"),
			toolCall("s", "shell", map[string]any{"command": "put a.txt formatted\n"}),
		))
		f.write("a.txt", "one\n")
		f.s.Submit("go")
		f.turnEnd(1)
		status(t, results(f.all()), map[string]event.ToolStatus{"e": event.ToolOK, "s": event.ToolOK})
		if got := f.read("a.txt"); got != "formatted\n" {
			t.Fatalf("a.txt = %q", got)
		}
	})
	t.Run("shell then edit", func(t *testing.T) {
		f := newFileHarness(t, askEdits{}, nil, calls(
			toolCall("s", "shell", map[string]any{"command": "put a.txt rewritten one\n"}),
			edit("e", "a.txt", "one", "two"),
		))
		f.write("a.txt", "one\n")
		f.s.Submit("go")
		f.approve("s", nil, event.Approve)
		f.approve("e", []string{"-one", "+two"}, event.Approve)
		f.turnEnd(1)
		res := results(f.all())
		status(t, res, map[string]event.ToolStatus{"s": event.ToolOK, "e": event.ToolError})
		if out := res["e"].Output; !strings.Contains(out, "a.txt changed after this call was planned and approved") || !strings.Contains(out, "Read the file again") {
			t.Errorf("e: %q", out)
		}
		// The user saw "-one +two" on the old content; nothing of it was
		// written over the new content.
		if got := f.read("a.txt"); got != "rewritten one\n" || res["e"].Diff != "" {
			t.Fatalf("a.txt = %q, diff %q", got, res["e"].Diff)
		}
	})
}

// The user's editor changes the file while the approval is on screen.
func TestFileChangedWhileAwaitingApprovalIsNotWritten(t *testing.T) {
	f := newFileHarness(t, askEdits{}, nil, calls(edit("e", "a.txt", "one", "two")))
	f.write("a.txt", "one\nmine\n")
	f.s.Submit("go")
	f.waitFor("approval", func(e event.Event) bool { return e.Kind == event.ApprovalRequested })
	f.write("a.txt", "one\nmine, edited\n")
	f.s.Answer("e", event.Approve, "")
	f.turnEnd(1)
	res := results(f.all())
	if res["e"].Status != event.ToolError || !strings.Contains(res["e"].Output, "changed after") {
		t.Fatalf("e: %+v", res["e"])
	}
	if got := f.read("a.txt"); got != "one\nmine, edited\n" {
		t.Fatalf("a.txt = %q", got)
	}
}

// Edits of two files run at the same time: each reaches the checkpoint
// hook while the other is inside it.
func TestEditsOfTwoFilesRunInParallel(t *testing.T) {
	var mu sync.Mutex
	inside := 0
	both := make(chan struct{})
	hookTurns := map[int]bool{}
	f := newFileHarness(t, nil, func(c *Config) {
		c.Env.BeforeWrite = func(turn int, path string) error {
			mu.Lock()
			hookTurns[turn] = true
			inside++
			if inside == 2 {
				close(both)
			}
			mu.Unlock()
			select {
			case <-both:
				return nil
			case <-time.After(5 * time.Second):
				return fmt.Errorf("%s waited alone", path)
			}
		}
	}, calls(edit("a", "a.txt", "1", "2"), edit("b", "b.txt", "1", "2")))
	f.write("a.txt", "1\n")
	f.write("b.txt", "1\n")
	f.s.Submit("go")
	f.turnEnd(1)
	status(t, results(f.all()), map[string]event.ToolStatus{"a": event.ToolOK, "b": event.ToolOK})
	if f.read("a.txt") != "2\n" || f.read("b.txt") != "2\n" {
		t.Fatalf("a %q b %q", f.read("a.txt"), f.read("b.txt"))
	}
	mu.Lock()
	defer mu.Unlock()
	if len(hookTurns) != 1 || !hookTurns[1] {
		t.Errorf("the checkpoint hook was told turns %v, want only 1", hookTurns)
	}
}

// The user denies the second of three edits of one file: the first is
// applied, the rest are not, and the turn ends cancelled.
func TestDenialInTheMiddleOfABatch(t *testing.T) {
	f := newFileHarness(t, askEdits{}, nil, calls(
		edit("c1", "a.txt", "one", "two"),
		edit("c2", "a.txt", "two", "three"),
		edit("c3", "a.txt", "three", "four"),
	))
	f.write("a.txt", "one\n")
	f.s.Submit("go")
	f.approve("c1", []string{"+two"}, event.Approve)
	f.approve("c2", []string{"-two", "+three"}, event.Deny)
	if end := f.turnEnd(1); end.State != event.TurnCancelled {
		t.Fatalf("end %+v", end)
	}
	status(t, results(f.all()), map[string]event.ToolStatus{"c1": event.ToolOK, "c2": event.ToolDenied, "c3": event.ToolCancelled})
	if got := f.read("a.txt"); got != "two\n" {
		t.Fatalf("a.txt = %q", got)
	}
}

// Unattended, a denied call does not end the turn; a later call planned
// on its changes is not run, while an unrelated one is.
func TestUnattendedDenialRefusesTheCallsBuiltOnIt(t *testing.T) {
	f := newFileHarness(t, askEdits{deny: map[string]bool{"a.txt": true}}, func(c *Config) { c.Unattended = true }, calls(
		toolCall("w", "write_file", map[string]any{"path": "a.txt", "content": "planned\n"}),
		toolCall("p", "apply_patch", map[string]any{"patch": "*** Begin Patch\n*** Update File: a.txt\n-planned\n+patched\n*** End Patch\n"}),
		edit("b", "b.txt", "1", "2"),
	))
	f.write("a.txt", "original\n")
	f.write("b.txt", "1\n")
	f.s.Submit("go")
	if end := f.turnEnd(1); end.State != event.TurnCompleted {
		t.Fatalf("end %+v", end)
	}
	res := results(f.all())
	status(t, res, map[string]event.ToolStatus{"w": event.ToolDenied, "p": event.ToolError, "b": event.ToolOK})
	if !strings.Contains(res["p"].Output, "write_file call w would leave them, and that call was not run") {
		t.Errorf("p: %q", res["p"].Output)
	}
	if f.read("a.txt") != "original\n" || f.read("b.txt") != "2\n" {
		t.Fatalf("a %q b %q", f.read("a.txt"), f.read("b.txt"))
	}
}

// A read in the same batch as an earlier edit of its file sees the edit.
func TestReadAfterEditInOneBatchSeesTheEdit(t *testing.T) {
	f := newFileHarness(t, nil, nil, calls(
		edit("e", "a.txt", "one", "two"),
		toolCall("r", "read_file", map[string]any{"path": "a.txt"}),
	))
	f.write("a.txt", "one\n")
	f.s.Submit("go")
	f.turnEnd(1)
	if out := results(f.all())["r"].Output; !strings.Contains(out, "two") {
		t.Fatalf("read saw %q", out)
	}
}
