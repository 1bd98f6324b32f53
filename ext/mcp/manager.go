package mcp

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quire-sh/quire/sandbox"
	"github.com/quire-sh/quire/tools"
)

// Options configure a Manager.
type Options struct {
	// Servers are the configured servers (see Servers).
	Servers []Server
	// Registry receives each server's tools, as a group of its own.
	Registry *tools.Registry
	// Dir is the project: a stdio server's working directory (unless
	// its cwd says otherwise) and QUIRE_PROJECT_DIR.
	Dir string
	// Profile is the session's sandbox profile, which stdio servers run
	// under; ProfileFor builds the profile a server's sandbox setting
	// names. Support is what the kernel enforces.
	Profile    sandbox.Profile
	ProfileFor func(name string) (sandbox.Profile, error)
	Support    sandbox.Support
	// Environ is quire's environment and Getenv reads it (for env_vars,
	// env_headers and bearer_token_env).
	Environ []string
	Getenv  func(string) string
	// Identity are quire's variables (QUIRE_SESSION_ID=…), set last in a
	// stdio server's environment.
	Identity []string
	// Notify tells the user what happened to a server (it failed, it
	// stopped); it must not block.
	Notify func(level, text string)
	// Changed is called, from any goroutine, after a server's state or
	// lists changed; it must not block.
	Changed func()
	// Version is quire's version, told to servers in the handshake.
	Version string
	// HTTPTransport carries HTTP servers' requests (default
	// http.DefaultTransport).
	HTTPTransport http.RoundTripper
}

// Manager runs a session's MCP servers. Each enabled server connects in
// a goroutine of its own, so the session is usable at once; the manager
// owns those goroutines and Close stops and waits for them.
type Manager struct {
	opt    Options
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	servers []*server // sorted by name
	byName  map[string]*server
	// resources is the registry group of the resource tools, offered
	// while a ready server has resources.
	resMu      sync.Mutex
	resOffered bool
}

// State is where a server is.
type State string

const (
	Starting State = "starting"
	Ready    State = "ready"
	Failed   State = "failed"
	// Off: disabled in its settings, or its settings are wrong (Error
	// says why).
	Off State = "off"
)

// Status is what /mcp and the status line show of one server.
type Status struct {
	Name      string
	Origin    string
	Transport string
	State     State
	// Error is why the server failed or is off.
	Error string
	// Tools are the names the model sees; Hidden says which of the
	// server's tools are not offered, and why.
	Tools     []string
	Hidden    []string
	Prompts   int
	Resources bool
	// Since is when the server entered State.
	Since time.Time
}

// Start starts the servers' goroutines and returns at once.
func Start(opt Options) *Manager {
	if opt.Getenv == nil {
		opt.Getenv = func(string) string { return "" }
	}
	ctx, cancel := context.WithCancel(context.Background())
	m := &Manager{opt: opt, ctx: ctx, cancel: cancel, byName: map[string]*server{}}
	for _, sv := range opt.Servers {
		s := &server{m: m, name: sv.Name, cfg: sv.Config, origin: sv.Origin,
			group: "mcp:" + sv.Name, restart: make(chan struct{}, 1), refresh: make(chan struct{}, 1), since: time.Now()}
		switch {
		case sv.Config.Problem != "":
			s.state, s.err = Off, sv.Config.Problem
		case !sv.Config.Enabled:
			s.state, s.err = Off, "disabled (enabled = false)"
		default:
			s.state = Starting
			opt.Registry.Starting(s.group)
		}
		m.servers = append(m.servers, s)
		m.byName[s.name] = s
	}
	sort.Slice(m.servers, func(i, j int) bool { return m.servers[i].name < m.servers[j].name })
	for _, s := range m.servers {
		if s.state == Starting {
			m.wg.Add(1)
			go func() {
				defer m.wg.Done()
				s.run(ctx)
			}()
		}
	}
	return m
}

// Close stops every server (a stdio server's input is closed, it gets a
// moment to exit, then its process tree is killed), waits for them and
// takes their tools out of the registry, which may outlive the manager
// (a session starts its servers again on it once the user trusts the
// project's .mcp.json). Calling it again does nothing more.
func (m *Manager) Close() {
	m.cancel()
	m.wg.Wait()
	for _, s := range m.servers {
		m.opt.Registry.SetGroup(s.group, nil)
	}
	m.resMu.Lock()
	defer m.resMu.Unlock()
	if m.resOffered {
		m.opt.Registry.SetGroup(resourcesGroup, nil)
		m.resOffered = false
	}
}

// Status lists the servers, sorted by name.
func (m *Manager) Status() []Status {
	out := make([]Status, 0, len(m.servers))
	for _, s := range m.servers {
		out = append(out, s.status())
	}
	return out
}

// Wait waits until no server is starting, or ctx ends.
func (m *Manager) Wait(ctx context.Context) error { return m.opt.Registry.Settle(ctx) }

// Restart reconnects a server: a failed or stopped one starts again, a
// running one is closed and started again.
func (m *Manager) Restart(name string) error {
	s := m.byName[name]
	if s == nil {
		return fmt.Errorf("there is no MCP server %q (/mcp lists them)", Printable(name))
	}
	s.mu.Lock()
	state, why := s.state, s.err
	s.mu.Unlock()
	if state == Off {
		return fmt.Errorf("MCP server %s is off: %s", name, why)
	}
	select {
	case s.restart <- struct{}{}:
	default:
	}
	return nil
}

func (m *Manager) notify(level, text string) {
	if m.opt.Notify != nil {
		m.opt.Notify(level, text)
	}
}

func (m *Manager) changed() {
	if m.opt.Changed != nil {
		m.opt.Changed()
	}
}

// server is one configured server and its connection.
type server struct {
	m      *Manager
	name   string
	cfg    ServerConfig
	origin string
	group  string

	restart chan struct{}
	refresh chan struct{}
	// reconnects and streams are the backoffs of the whole connection
	// (HTTP servers reconnect by themselves) and of its event stream.
	reconnects backoff
	streams    backoff
	// everConnected is owned by the server's goroutine.
	everConnected bool

	mu        sync.Mutex
	state     State
	err       string
	since     time.Time
	conn      *conn
	tools     []string
	hidden    []string
	prompts   []*sdk.Prompt
	resources bool
}

func (s *server) status() Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	return Status{Name: s.name, Origin: s.origin, Transport: s.cfg.Transport, State: s.state, Error: s.err,
		Tools: append([]string(nil), s.tools...), Hidden: append([]string(nil), s.hidden...),
		Prompts: len(s.prompts), Resources: s.resources, Since: s.since}
}

func (s *server) set(st State, why string) {
	s.mu.Lock()
	s.state, s.err, s.since = st, why, time.Now()
	s.mu.Unlock()
	s.m.changed()
}

// live is the connection of a ready server, or nil.
func (s *server) live() *conn {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conn == nil || s.state != Ready {
		return nil
	}
	return s.conn
}

// session is the live connection's session, or nil.
func (s *server) session() *sdk.ClientSession {
	if c := s.live(); c != nil {
		return c.sess
	}
	return nil
}

// down says why a server cannot take calls now.
func (s *server) down() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch s.state {
	case Starting:
		return fmt.Sprintf("MCP server %s is still starting; try again in a moment", s.name)
	case Off:
		return fmt.Sprintf("MCP server %s is off: %s", s.name, s.err)
	}
	return fmt.Sprintf("MCP server %s is not running (%s); the user can start it again with /mcp restart %s", s.name, s.err, s.name)
}

// poke asks the server's goroutine to list its tools, prompts and
// resources again (a list_changed notification arrived).
func (s *server) poke() {
	select {
	case s.refresh <- struct{}{}:
	default:
	}
}

// run is the server's goroutine: connect, serve until the connection
// ends or a restart is asked for, and again. The first start and a
// restart the user asks for are "starting" (a request waits for them)
// and their failure is announced; an HTTP server's own reconnects after
// a loss stay "failed" until they succeed, and are announced once per
// loss, so a server that is down neither floods the transcript nor
// holds up every request.
func (s *server) run(ctx context.Context) {
	reg := s.m.opt.Registry
	defer reg.Settled(s.group)
	announce := true
	for {
		c, err := s.connect(ctx)
		if ctx.Err() != nil {
			if c != nil {
				c.close()
			}
			return
		}
		if err != nil {
			// Failed before the group settles: whoever waited for the
			// start (Wait, a request) sees why it ended.
			s.clearLists()
			s.set(Failed, err.Error())
			reg.SetGroup(s.group, nil)
			s.m.syncResourceTools()
			if announce {
				s.m.notify("warn", fmt.Sprintf("MCP server %s did not start: %s (/mcp restart %s tries again)", s.name, err, s.name))
			}
			announce = false
			explicit, ok := s.waitRetry(ctx, time.Now())
			if !ok {
				return
			}
			if explicit {
				announce = true
				s.starting()
			}
			continue
		}
		announce = true
		s.everConnected = true
		s.reconnects.connected(time.Now())
		// Ready before the tools are offered: a request that waited for
		// them may call one at once.
		s.mu.Lock()
		s.conn = c
		s.state, s.err, s.since = Ready, "", time.Now()
		s.mu.Unlock()
		s.load(ctx, c)
		s.m.syncResourceTools()
		explicit, again := s.serve(ctx, c)
		s.mu.Lock()
		s.conn = nil
		s.mu.Unlock()
		if !again {
			return
		}
		if explicit {
			s.starting()
		} else {
			announce = false // the loss was announced
		}
	}
}

// starting marks the server as starting again, at the user's request.
func (s *server) starting() {
	s.m.opt.Registry.Starting(s.group)
	s.set(Starting, "")
}

// serve handles a live connection until it ends; it reports whether to
// connect again, and whether the user asked for it.
func (s *server) serve(ctx context.Context, c *conn) (explicit, again bool) {
	for {
		select {
		case <-ctx.Done():
			c.close()
			return false, false
		case <-s.restart:
			c.close()
			return true, true
		case <-s.refresh:
			s.load(ctx, c)
			s.m.syncResourceTools()
		case <-c.done:
			why := c.why()
			c.close()
			s.set(Failed, "stopped: "+why)
			s.m.syncResourceTools()
			if s.cfg.Transport == "stdio" {
				// Its tools stay offered and answer with an error that
				// says how to restart it, so the model is told why.
				s.m.notify("warn", fmt.Sprintf("MCP server %s stopped (%s); its tools answer with an error until /mcp restart %s", s.name, why, s.name))
			} else {
				s.m.notify("warn", fmt.Sprintf("MCP server %s lost its connection (%s); reconnecting", s.name, why))
			}
			return s.waitRetry(ctx, time.Now())
		}
	}
}

// waitRetry waits for a restart (a stdio server) or for the backoff to
// pass (an HTTP server reconnects by itself); explicit says the user
// asked, ok is false when ctx ended.
func (s *server) waitRetry(ctx context.Context, now time.Time) (explicit, ok bool) {
	var retry <-chan time.Time
	if s.cfg.Transport != "stdio" {
		wait, warn := s.reconnects.plan(now)
		// A server that never came up was announced as such already.
		if warn && s.everConnected {
			s.m.notify("warn", fmt.Sprintf("MCP server %s keeps dropping the connection; reconnecting after %s each time (said once an hour)", s.name, wait))
		}
		t := time.NewTimer(wait)
		defer t.Stop()
		retry = t.C
	}
	select {
	case <-ctx.Done():
		return false, false
	case <-s.restart:
		return true, true
	case <-retry:
		return false, true
	}
}

func (s *server) clearLists() {
	s.mu.Lock()
	s.tools, s.hidden, s.prompts, s.resources = nil, nil, nil, false
	s.mu.Unlock()
}

// Limits on what one server may put in front of the model.
const (
	maxTools       = 200
	maxPrompts     = 200
	maxDescription = 4096
	maxSchema      = 32 << 10
	listTimeout    = 30 * time.Second
)

// load lists the server's tools, prompts and resources and offers its
// tools in the registry.
func (s *server) load(ctx context.Context, c *conn) {
	ctx, cancel := context.WithTimeout(ctx, listTimeout)
	defer cancel()
	caps := c.sess.InitializeResult().Capabilities
	var ts []tools.Tool
	var names, hidden []string
	if caps == nil || caps.Tools != nil {
		ts, names, hidden = s.listTools(ctx, c.sess)
	}
	var prompts []*sdk.Prompt
	if caps != nil && caps.Prompts != nil {
		for p, err := range c.sess.Prompts(ctx, nil) {
			if err != nil {
				hidden = append(hidden, "prompts: listing failed: "+oneLine(err.Error(), 200))
				break
			}
			if len(prompts) == maxPrompts {
				hidden = append(hidden, fmt.Sprintf("prompts beyond the first %d", maxPrompts))
				break
			}
			if p != nil {
				prompts = append(prompts, p)
			}
		}
	}
	resources := caps != nil && caps.Resources != nil
	// The lists first, then the registry: once the tools are offered (a
	// waiting request goes on) the status says what they are.
	s.mu.Lock()
	s.tools, s.hidden, s.prompts, s.resources = names, hidden, prompts, resources
	s.mu.Unlock()
	s.m.syncResourceTools()
	if clashes := s.m.opt.Registry.SetGroup(s.group, ts); len(clashes) > 0 {
		s.mu.Lock()
		for _, clash := range clashes {
			s.hidden = append(s.hidden, clash+": another tool has this name")
			s.tools = without(s.tools, clash)
		}
		s.mu.Unlock()
	}
	s.m.changed()
}

func without(list []string, x string) []string {
	out := list[:0:0]
	for _, e := range list {
		if e != x {
			out = append(out, e)
		}
	}
	return out
}

// listTools turns the server's tools into quire's, keeping those its
// settings allow and that fit the limits.
func (s *server) listTools(ctx context.Context, sess *sdk.ClientSession) (ts []tools.Tool, names, hidden []string) {
	var all []*sdk.Tool
	for t, err := range sess.Tools(ctx, nil) {
		if err != nil {
			hidden = append(hidden, "tools: listing failed: "+oneLine(err.Error(), 200))
			break
		}
		if t != nil {
			all = append(all, t)
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Name < all[j].Name })
	allowed := func(name string) bool {
		if len(s.cfg.EnabledTools) > 0 && !contains(s.cfg.EnabledTools, name) {
			return false
		}
		return !contains(s.cfg.DisabledTools, name)
	}
	taken := map[string]string{}
	for _, t := range all {
		shown := oneLine(t.Name, 80)
		if !allowed(t.Name) {
			continue
		}
		if len(ts) == maxTools {
			hidden = append(hidden, fmt.Sprintf("%d more tools beyond the first %d", len(all)-maxTools, maxTools))
			break
		}
		tool, err := newTool(s, t)
		if err != nil {
			hidden = append(hidden, shown+": "+err.Error())
			continue
		}
		name := tool.spec.Name
		if other, ok := taken[name]; ok {
			hidden = append(hidden, fmt.Sprintf("%s: its name maps to %s, as %s's does", shown, name, oneLine(other, 80)))
			continue
		}
		taken[name] = t.Name
		ts = append(ts, tool)
		names = append(names, name)
	}
	return ts, names, hidden
}

func contains(list []string, x string) bool {
	for _, e := range list {
		if e == x {
			return true
		}
	}
	return false
}

// Summary is the status line's word on the servers: "mcp 2/3" (ready of
// enabled), "mcp 1/3 starting" while one is starting, with the first failed
// server named; "" when none is configured.
func Summary(st []Status) string {
	enabled, ready, starting := 0, 0, 0
	var failed []string
	for _, s := range st {
		switch s.State {
		case Off:
			continue
		case Ready:
			ready++
		case Starting:
			starting++
		case Failed:
			failed = append(failed, s.Name)
		}
		enabled++
	}
	if enabled == 0 {
		return ""
	}
	out := fmt.Sprintf("mcp %d/%d", ready, enabled)
	if starting > 0 {
		out += " starting"
	}
	if len(failed) > 0 {
		out += " " + failed[0] + " failed"
		if len(failed) > 1 {
			out += fmt.Sprintf(" (+%d)", len(failed)-1)
		}
	}
	return out
}

// Lines is the /mcp overlay: every server, its state, its tools,
// prompts and resources (listed live, bounded), and how to restart.
func (m *Manager) Lines(ctx context.Context) []string {
	if len(m.servers) == 0 {
		return []string{"No MCP servers are configured.", "", "Add one with `quire mcp add NAME -- COMMAND ARGS…`, or in config.toml:", `  [mcp.servers.NAME]`, `  command = "npx"`, `  args = ["-y", "@modelcontextprotocol/server-everything"]`}
	}
	lines := []string{"MCP servers (/mcp restart NAME reconnects one):", ""}
	for _, st := range m.Status() {
		head := fmt.Sprintf("%s  %s  %s, from %s", st.Name, st.State, st.Transport, st.Origin)
		if st.Error != "" {
			head += ": " + oneLine(st.Error, 300)
		}
		lines = append(lines, head)
		if len(st.Tools) > 0 {
			lines = append(lines, "  tools: "+strings.Join(st.Tools, ", "))
		}
		for _, h := range st.Hidden {
			lines = append(lines, "  not offered: "+h)
		}
		s := m.byName[st.Name]
		for _, p := range s.promptCommands() {
			lines = append(lines, "  prompt: "+p.Usage())
		}
		if st.Resources && st.State == Ready {
			res, more, err := s.listResources(ctx, 20)
			switch {
			case err != nil:
				lines = append(lines, "  resources: "+oneLine(err.Error(), 200))
			default:
				for _, r := range res {
					lines = append(lines, "  resource: "+r)
				}
				if more {
					lines = append(lines, "  … more resources: ask the model to use mcp_list_resources")
				}
			}
		}
	}
	return lines
}
