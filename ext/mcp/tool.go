package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quire-sh/quire/tools"
)

// Tool is one tool of an MCP server, offered to the model under its
// mapped name (ToolName). Every call goes through the approval gate like
// a built-in tool: its Kind is other and it Writes (the server may do
// anything), so ask and auto-edit ask, yolo does not; auto-edit runs it
// unasked when the server annotates it readOnlyHint and not
// destructiveHint (Spec.ReadOnlyHint).
type Tool struct {
	srv  *server
	real string // the server's own name for the tool
	spec tools.Spec
	// schema validates the arguments in Plan; nil when the server's
	// schema could not be resolved, and then required is checked alone.
	schema   *jsonschema.Resolved
	required []string
}

// callArgs is what Plan decided and Run applies.
type callArgs struct {
	args map[string]any
}

func newTool(s *server, t *sdk.Tool) (*Tool, error) {
	raw, err := json.Marshal(t.InputSchema)
	if err != nil || t.InputSchema == nil {
		raw = []byte(`{"type":"object"}`)
	}
	if len(raw) > maxSchema {
		return nil, fmt.Errorf("its input schema is %d bytes, more than the %d quire passes on", len(raw), maxSchema)
	}
	var shape struct {
		Type     any      `json:"type"`
		Required []string `json:"required"`
	}
	if err := json.Unmarshal(raw, &shape); err != nil {
		return nil, errors.New("its input schema is not a JSON object")
	}
	if shape.Type != nil && shape.Type != "object" {
		return nil, errors.New(`its input schema is not of type "object"`)
	}
	name, _ := ToolName(s.name, t.Name)
	desc := cleanText(t.Description, maxDescription)
	if desc == "" {
		desc = "(no description)"
	}
	readOnly := false
	if a := t.Annotations; a != nil {
		readOnly = a.ReadOnlyHint && (a.DestructiveHint == nil || !*a.DestructiveHint)
	}
	tool := &Tool{srv: s, real: t.Name, required: shape.Required, spec: tools.Spec{
		Name:         name,
		Description:  fmt.Sprintf("[MCP server %s, tool %s] %s", s.name, oneLine(t.Name, 80), desc),
		Schema:       raw,
		Kind:         tools.KindOther,
		Writes:       true,
		ReadOnlyHint: readOnly,
	}}
	var schema jsonschema.Schema
	if json.Unmarshal(raw, &schema) == nil {
		if rs, err := schema.Resolve(nil); err == nil {
			tool.schema = rs
		}
	}
	return tool, nil
}

func (t *Tool) Spec() tools.Spec { return t.spec }

// Server and RealName say where the tool comes from.
func (t *Tool) Server() string   { return t.srv.name }
func (t *Tool) RealName() string { return t.real }

// maxPreview bounds the arguments the approval shows.
const maxPreview = 8 << 10

// Plan checks the arguments against the tool's input schema (every
// problem the validator finds, in its words) and decides the call: the
// approval shows the server, the tool and the arguments.
func (t *Tool) Plan(_ *tools.Env, _ *tools.Overlay, raw json.RawMessage) (tools.Plan, error) {
	var args map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if len(bytes.TrimSpace(raw)) == 0 {
		args = map[string]any{}
	} else if err := dec.Decode(&args); err != nil || args == nil {
		return tools.Plan{}, &tools.ArgError{Problems: []string{"the arguments must be a JSON object"}}
	}
	var problems []string
	for _, k := range t.required {
		if _, ok := args[k]; !ok {
			problems = append(problems, fmt.Sprintf("field %q is required", k))
		}
	}
	if len(problems) == 0 && t.schema != nil {
		var generic map[string]any
		if json.Unmarshal(raw, &generic) == nil && generic != nil {
			if err := t.schema.Validate(generic); err != nil {
				problems = append(problems, "the arguments do not fit the tool's input schema: "+oneLine(err.Error(), 1000))
			}
		}
	}
	if len(problems) > 0 {
		return tools.Plan{}, &tools.ArgError{Problems: problems}
	}
	pretty, _ := json.MarshalIndent(args, "", "  ")
	preview := string(pretty)
	if len(preview) > maxPreview {
		preview = preview[:maxPreview] + "\n… (arguments cut for display; the whole of them is sent)"
	}
	compact, _ := json.Marshal(args)
	return tools.Plan{
		Target:  oneLine(string(compact), 120),
		Preview: fmt.Sprintf("MCP server %s, tool %s, with:\n%s", t.srv.name, Printable(t.real), preview),
		Action:  callArgs{args: args},
	}, nil
}

// Run calls the tool on the server, within the server's tool timeout; a
// cancel reaches the server as notifications/cancelled.
func (t *Tool) Run(ctx context.Context, _ *tools.Env, call tools.Call) tools.Result {
	a, ok := call.Plan.Action.(callArgs)
	if !ok {
		return tools.Result{Output: "internal error: the MCP tool was run without its plan; nothing was done", IsError: true}
	}
	c := t.srv.live()
	if c == nil {
		return tools.Result{Output: "error: " + t.srv.down(), IsError: true}
	}
	callCtx, cancel := context.WithTimeout(ctx, t.srv.cfg.ToolTimeout)
	defer cancel()
	res, err := c.sess.CallTool(callCtx, &sdk.CallToolParams{Name: t.real, Arguments: a.args})
	switch {
	case ctx.Err() != nil:
		return tools.Result{Output: "cancelled: the user cancelled the call (the server was told)", IsError: true}
	case errors.Is(callCtx.Err(), context.DeadlineExceeded):
		return tools.Result{Output: fmt.Sprintf("error: MCP server %s did not answer within %s (its tool_timeout); the call was cancelled", t.srv.name, t.srv.cfg.ToolTimeout), IsError: true}
	case err != nil:
		if c.ended(500 * time.Millisecond) {
			return tools.Result{Output: fmt.Sprintf("error: MCP server %s stopped during the call (%s); the user can start it again with /mcp restart %s", t.srv.name, c.why(), t.srv.name), IsError: true}
		}
		return tools.Result{Output: fmt.Sprintf("error: MCP server %s: %s", t.srv.name, oneLine(err.Error(), 2000)), IsError: true}
	}
	text, truncated := resultText(res)
	return tools.Result{Output: text, IsError: res.IsError, Truncated: truncated}
}

// resultText is what the model sees of a result: text parts joined,
// embedded text resources inlined, other media as a short placeholder,
// structured content when there is nothing else; bounded.
func resultText(res *sdk.CallToolResult) (string, bool) {
	var b strings.Builder
	for i, c := range res.Content {
		if i > 0 {
			b.WriteString("\n")
		}
		writeContent(&b, c)
	}
	if b.Len() == 0 && res.StructuredContent != nil {
		if j, err := json.Marshal(res.StructuredContent); err == nil {
			b.Write(j)
		}
	}
	if b.Len() == 0 {
		b.WriteString("(no output)")
	}
	return bound(b.String())
}

func writeContent(b *strings.Builder, c sdk.Content) {
	switch c := c.(type) {
	case *sdk.TextContent:
		b.WriteString(c.Text)
	case *sdk.ImageContent:
		fmt.Fprintf(b, "[image: %s, %d bytes, not shown]", oneLine(c.MIMEType, 60), len(c.Data))
	case *sdk.AudioContent:
		fmt.Fprintf(b, "[audio: %s, %d bytes, not shown]", oneLine(c.MIMEType, 60), len(c.Data))
	case *sdk.ResourceLink:
		fmt.Fprintf(b, "[resource link: %s", c.URI)
		if c.Name != "" {
			fmt.Fprintf(b, " (%s)", c.Name)
		}
		b.WriteString("; mcp_read_resource reads it]")
	case *sdk.EmbeddedResource:
		writeResource(b, c.Resource)
	default:
		fmt.Fprintf(b, "[content of type %T, not shown]", c)
	}
}

func writeResource(b *strings.Builder, r *sdk.ResourceContents) {
	switch {
	case r == nil:
		b.WriteString("[empty resource]")
	case r.Blob != nil && r.Text == "":
		fmt.Fprintf(b, "[resource %s: %s, %d bytes of binary data, not shown]", r.URI, oneLine(r.MIMEType, 60), len(r.Blob))
	default:
		b.WriteString(r.Text)
	}
}

// Output limit of one call, kept as head plus tail like shell output.
const (
	outputLimit = 30_000
	outputHead  = 20_000
)

// bound cuts text longer than outputLimit to its head and tail, saying
// so.
func bound(s string) (string, bool) {
	if len(s) <= outputLimit {
		return strings.ToValidUTF8(s, "\uFFFD"), false
	}
	head, tail := s[:outputHead], s[len(s)-(outputLimit-outputHead):]
	head = strings.ToValidUTF8(trimToRune(head), "")
	tail = strings.ToValidUTF8(tail, "")
	return fmt.Sprintf("%s\n[… output truncated: %d of %d bytes omitted; showing the first %d and last %d bytes. Ask the tool for less at a time if it can page.]\n%s",
		head, len(s)-len(head)-len(tail), len(s), len(head), len(tail), tail), true
}

func trimToRune(s string) string {
	for i := len(s) - 1; i >= 0 && i >= len(s)-4; i-- {
		if s[i] < 0x80 {
			return s
		}
		if s[i] >= 0xc0 {
			// A leading byte: keep it only if its sequence is whole.
			n := 2
			if s[i] >= 0xe0 {
				n = 3
			}
			if s[i] >= 0xf0 {
				n = 4
			}
			if len(s)-i < n {
				return s[:i]
			}
			return s
		}
	}
	return s
}
