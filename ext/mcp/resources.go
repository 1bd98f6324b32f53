package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quire-sh/quire/tools"
)

// The resource tools: mcp_list_resources and mcp_read_resource, offered
// while a ready server has resources. They go through the approval gate
// like a server's tools (a server may do anything on any request) but
// are read-only by nature, so auto-edit runs them unasked.
const (
	listResourcesName = "mcp_list_resources"
	readResourceName  = "mcp_read_resource"
	resourcesGroup    = "mcp:resources"
	maxListed         = 500
)

// syncResourceTools offers the resource tools while a ready server has
// resources, and withdraws them otherwise.
func (m *Manager) syncResourceTools() {
	want := false
	for _, s := range m.servers {
		st := s.status()
		if st.State == Ready && st.Resources {
			want = true
		}
	}
	m.resMu.Lock()
	defer m.resMu.Unlock()
	if want == m.resOffered {
		return
	}
	m.resOffered = want
	if want {
		m.opt.Registry.SetGroup(resourcesGroup, []tools.Tool{listResources{m}, readResource{m}})
	} else {
		m.opt.Registry.SetGroup(resourcesGroup, nil)
	}
}

// listResources lists a server's resources, at most limit; more says
// there were others.
func (s *server) listResources(ctx context.Context, limit int) (lines []string, more bool, err error) {
	sess := s.session()
	if sess == nil {
		return nil, false, errors.New(s.down())
	}
	for r, err := range sess.Resources(ctx, nil) {
		if err != nil {
			return lines, false, fmt.Errorf("listing the resources of %s: %s", s.name, oneLine(err.Error(), 300))
		}
		if len(lines) == limit {
			return lines, true, nil
		}
		if r == nil {
			continue
		}
		line := Printable(r.URI)
		if r.Name != "" {
			line += " (" + oneLine(r.Name, 80) + ")"
		}
		if r.MIMEType != "" {
			line += " " + oneLine(r.MIMEType, 40)
		}
		lines = append(lines, line)
	}
	return lines, false, nil
}

type listResources struct{ m *Manager }

func (l listResources) Spec() tools.Spec {
	return tools.Spec{
		Name:        listResourcesName,
		Description: "List the resources (files, records, documents) the user's MCP servers offer, with their URIs, for mcp_read_resource. Give server to list one server's only.",
		Schema:      json.RawMessage(`{"type":"object","properties":{"server":{"type":"string","description":"the MCP server's name (default: every server with resources)"}},"additionalProperties":false}`),
		Kind:        tools.KindOther, Writes: true, ReadOnlyHint: true,
	}
}

type resourceArgs struct {
	Server string `json:"server"`
	URI    string `json:"uri"`
}

func decodeResourceArgs(raw json.RawMessage, needURI bool) (resourceArgs, error) {
	var a resourceArgs
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		return a, &tools.ArgError{Problems: []string{"the arguments must be an object with string fields server and uri: " + oneLine(err.Error(), 200)}}
	}
	var problems []string
	if needURI && a.Server == "" {
		problems = append(problems, `field "server" is required`)
	}
	if needURI && a.URI == "" {
		problems = append(problems, `field "uri" is required`)
	}
	if len(problems) > 0 {
		return a, &tools.ArgError{Problems: problems}
	}
	return a, nil
}

func (l listResources) Plan(_ *tools.Env, _ *tools.Overlay, raw json.RawMessage) (tools.Plan, error) {
	a, err := decodeResourceArgs(raw, false)
	if err != nil {
		return tools.Plan{}, err
	}
	target := "every server"
	if a.Server != "" {
		if l.m.byName[a.Server] == nil {
			return tools.Plan{}, &tools.ArgError{Problems: []string{fmt.Sprintf("there is no MCP server %q", a.Server)}}
		}
		target = a.Server
	}
	return tools.Plan{Target: target, Preview: "list the resources of " + target, Action: a}, nil
}

func (l listResources) Run(ctx context.Context, _ *tools.Env, call tools.Call) tools.Result {
	a, _ := call.Plan.Action.(resourceArgs)
	var b strings.Builder
	for _, s := range l.m.servers {
		st := s.status()
		if (a.Server != "" && a.Server != s.name) || !st.Resources {
			continue
		}
		lines, more, err := s.listResources(ctx, maxListed)
		fmt.Fprintf(&b, "%s:\n", s.name)
		if err != nil {
			fmt.Fprintf(&b, "  error: %s\n", err)
			continue
		}
		if len(lines) == 0 {
			b.WriteString("  (no resources)\n")
		}
		for _, line := range lines {
			b.WriteString("  " + line + "\n")
		}
		if more {
			fmt.Fprintf(&b, "  … more than %d; only these are listed\n", maxListed)
		}
	}
	if b.Len() == 0 {
		return tools.Result{Output: "no MCP server offers resources", IsError: true}
	}
	out, cut := bound(b.String())
	return tools.Result{Output: out, Truncated: cut}
}

type readResource struct{ m *Manager }

func (r readResource) Spec() tools.Spec {
	return tools.Spec{
		Name:        readResourceName,
		Description: "Read a resource of one of the user's MCP servers by its URI (mcp_list_resources lists them).",
		Schema:      json.RawMessage(`{"type":"object","properties":{"server":{"type":"string","description":"the MCP server's name"},"uri":{"type":"string","description":"the resource's URI"}},"required":["server","uri"],"additionalProperties":false}`),
		Kind:        tools.KindOther, Writes: true, ReadOnlyHint: true,
	}
}

func (r readResource) Plan(_ *tools.Env, _ *tools.Overlay, raw json.RawMessage) (tools.Plan, error) {
	a, err := decodeResourceArgs(raw, true)
	if err != nil {
		return tools.Plan{}, err
	}
	if r.m.byName[a.Server] == nil {
		return tools.Plan{}, &tools.ArgError{Problems: []string{fmt.Sprintf("there is no MCP server %q", a.Server)}}
	}
	return tools.Plan{Target: a.Server + " " + oneLine(a.URI, 120), Preview: fmt.Sprintf("MCP server %s, read resource:\n%s", a.Server, Printable(a.URI)), Action: a}, nil
}

func (r readResource) Run(ctx context.Context, _ *tools.Env, call tools.Call) tools.Result {
	a, _ := call.Plan.Action.(resourceArgs)
	s := r.m.byName[a.Server]
	sess := s.session()
	if sess == nil {
		return tools.Result{Output: "error: " + s.down(), IsError: true}
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.ToolTimeout)
	defer cancel()
	res, err := sess.ReadResource(ctx, &sdk.ReadResourceParams{URI: a.URI})
	if err != nil {
		return tools.Result{Output: fmt.Sprintf("error: MCP server %s: %s", s.name, oneLine(err.Error(), 2000)), IsError: true}
	}
	var b strings.Builder
	for i, c := range res.Contents {
		if i > 0 {
			b.WriteString("\n")
		}
		writeResource(&b, c)
	}
	if b.Len() == 0 {
		b.WriteString("(empty resource)")
	}
	out, cut := bound(b.String())
	return tools.Result{Output: out, Truncated: cut}
}
