package mcp

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quire-sh/quire/internal/ring"
	"github.com/quire-sh/quire/sandbox"
)

// closeWait is how long a stdio server gets to exit on its own once its
// input is closed, before it and everything it started are killed (spec
// §2.3: close stdin, wait, kill the process group).
const closeWait = 2 * time.Second

// conn is one live connection to a server.
type conn struct {
	sess *sdk.ClientSession
	// cancel ends the connection's context (the SSE transport's stream).
	cancel context.CancelFunc
	proc   *sandbox.Process // stdio servers only
	// done is closed when the session has ended, however it ended.
	done      chan struct{}
	closeOnce sync.Once
	stderr    *tailBuffer
}

// close ends the connection: for a stdio server its input is closed, it
// gets closeWait to exit, then its whole process tree is killed.
func (c *conn) close() {
	c.closeOnce.Do(func() {
		if c.proc != nil {
			c.proc.Close(closeWait)
		}
		c.sess.Close()
		c.cancel()
		<-c.done
	})
}

// ended reports whether the connection ends within d: a call that
// failed because its server died learns so before the server's
// goroutine does.
func (c *conn) ended(d time.Duration) bool {
	select {
	case <-c.done:
		return true
	case <-time.After(d):
		return false
	}
}

// why says how a connection that ended by itself ended.
func (c *conn) why() string {
	var parts []string
	if c.proc != nil {
		select {
		case <-c.proc.Done():
			e := c.proc.Exit()
			if e.Signal != "" {
				parts = append(parts, "killed by "+e.Signal)
			} else {
				parts = append(parts, fmt.Sprintf("exit status %d", e.Code))
			}
		case <-time.After(time.Second):
			parts = append(parts, "it closed its output")
		}
	} else if err := c.sess.Wait(); err != nil {
		parts = append(parts, oneLine(err.Error(), 200))
	} else {
		parts = append(parts, "the connection closed")
	}
	if c.stderr != nil {
		if last := c.stderr.lastLine(); last != "" {
			parts = append(parts, "last words: "+oneLine(last, 160))
		}
	}
	return strings.Join(parts, "; ")
}

// connect starts or reaches the server and completes the handshake
// within the server's startup timeout.
func (s *server) connect(parent context.Context) (*conn, error) {
	// The context outlives the handshake: the older SSE transport keeps
	// its event stream on it. The startup timeout cancels it only while
	// the handshake runs.
	ctx, cancel := context.WithCancel(parent)
	timedOut := false
	var timerMu sync.Mutex
	timer := time.AfterFunc(s.cfg.StartupTimeout, func() {
		timerMu.Lock()
		timedOut = true
		timerMu.Unlock()
		cancel()
	})
	// No capabilities: quire answers no sampling, elicitation or roots
	// requests (roots are deprecated; a server is told its directories in
	// its arguments).
	client := sdk.NewClient(&sdk.Implementation{Name: "quire", Version: s.m.opt.Version}, &sdk.ClientOptions{
		Capabilities:               &sdk.ClientCapabilities{},
		ToolListChangedHandler:     func(context.Context, *sdk.ToolListChangedRequest) { s.poke() },
		PromptListChangedHandler:   func(context.Context, *sdk.PromptListChangedRequest) { s.poke() },
		ResourceListChangedHandler: func(context.Context, *sdk.ResourceListChangedRequest) { s.poke() },
	})
	c := &conn{done: make(chan struct{}), cancel: cancel}
	fail := func(err error) (*conn, error) {
		timer.Stop()
		cancel()
		return nil, err
	}
	var transport sdk.Transport
	switch s.cfg.Transport {
	case "stdio":
		proc, stderr, err := s.start()
		if err != nil {
			return fail(err)
		}
		c.proc, c.stderr = proc, stderr
		transport = &sdk.IOTransport{Reader: proc.Stdout, Writer: proc.Stdin}
	case "http", "sse":
		hc, err := s.httpClient()
		if err != nil {
			return fail(err)
		}
		if s.cfg.Transport == "sse" {
			transport = &sdk.SSEClientTransport{Endpoint: s.cfg.URL, HTTPClient: hc}
		} else {
			// Few retries of a dropped event stream inside the SDK: past
			// them the connection counts as lost and the manager
			// reconnects it whole, with the backoff of spec §2.2.
			transport = &sdk.StreamableClientTransport{Endpoint: s.cfg.URL, HTTPClient: hc, MaxRetries: 2}
		}
	default:
		return fail(fmt.Errorf("transport %q is not stdio, http or sse", s.cfg.Transport))
	}
	sess, err := client.Connect(ctx, transport, nil)
	timer.Stop()
	timerMu.Lock()
	late := timedOut
	timerMu.Unlock()
	if err == nil && late {
		sess.Close()
		err = context.DeadlineExceeded
	}
	if err != nil {
		cancel()
		if c.proc != nil {
			c.proc.Close(0)
		}
		switch {
		case late:
			err = fmt.Errorf("no answer to the handshake within %s (startup_timeout)", s.cfg.StartupTimeout)
		default:
			err = fmt.Errorf("handshake failed: %s", oneLine(err.Error(), 300))
		}
		if c.stderr != nil {
			if last := c.stderr.lastLine(); last != "" {
				err = fmt.Errorf("%w; last words: %s", err, oneLine(last, 160))
			}
		}
		return nil, err
	}
	c.sess = sess
	go func() {
		sess.Wait()
		close(c.done)
	}()
	return c, nil
}

// start launches a stdio server through the sandbox launcher, under the
// session's profile or the one its settings name.
func (s *server) start() (*sandbox.Process, *tailBuffer, error) {
	opt := s.m.opt
	profile := opt.Profile
	if s.cfg.Sandbox != "" {
		p, err := opt.ProfileFor(s.cfg.Sandbox)
		if err != nil {
			return nil, nil, fmt.Errorf("sandbox %q: %w", s.cfg.Sandbox, err)
		}
		profile = p
	}
	dir := opt.Dir
	if s.cfg.Cwd != "" {
		dir = s.cfg.Cwd
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(opt.Dir, dir)
		}
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return nil, nil, fmt.Errorf("cwd %s is not a directory", dir)
		}
	}
	env := serverEnv(opt.Environ, profile, s.cfg, opt.Identity)
	if err := findCommand(s.cfg.Command, dir, env); err != nil {
		return nil, nil, err
	}
	stderr := newTailBuffer(4096)
	proc, err := sandbox.Start(profile, opt.Support, sandbox.Command{
		Argv:   append([]string{s.cfg.Command}, s.cfg.Args...),
		Dir:    dir,
		Env:    env,
		Output: stderr,
	})
	if err != nil {
		return nil, nil, err
	}
	return proc, stderr, nil
}

// findCommand checks that the program exists before it is launched, so
// a typo is one clear line instead of a handshake that never comes.
func findCommand(cmd, dir string, env []string) error {
	if strings.Contains(cmd, "/") {
		p := cmd
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		if fi, err := os.Stat(p); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
			return fmt.Errorf("command %s is not an executable file", Printable(cmd))
		}
		return nil
	}
	path := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
		}
	}
	for _, d := range filepath.SplitList(path) {
		if d == "" {
			d = "."
		}
		if !filepath.IsAbs(d) {
			d = filepath.Join(dir, d)
		}
		if fi, err := os.Stat(filepath.Join(d, cmd)); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return nil
		}
	}
	return fmt.Errorf("command %q is not found in PATH", Printable(cmd))
}

// httpClient is the client of an HTTP server: the configured headers on
// every request, and the reconnect backoff on its event streams.
func (s *server) httpClient() (*http.Client, error) {
	headers, err := resolveHeaders(s.cfg, s.m.opt.Getenv)
	if err != nil {
		return nil, err
	}
	base := s.m.opt.HTTPTransport
	if base == nil {
		base = http.DefaultTransport
	}
	return &http.Client{Transport: &streamGate{
		base: base, headers: headers, bo: &s.streams,
		warn: func(wait time.Duration) {
			s.m.notify("warn", fmt.Sprintf("MCP server %s: its event stream keeps dropping; reconnecting after %s each time (said once an hour)", s.name, wait))
		},
	}}, nil
}

// resolveHeaders are the headers an HTTP server gets: the configured
// ones, those read from the environment and the bearer token.
func resolveHeaders(c ServerConfig, getenv func(string) string) (http.Header, error) {
	h := http.Header{}
	for k, v := range c.Headers {
		h.Set(k, v)
	}
	for _, k := range sortedKeys(c.EnvHeaders) {
		name := c.EnvHeaders[k]
		v := getenv(name)
		if v == "" {
			return nil, fmt.Errorf("env_headers %s: $%s is not set", k, Printable(name))
		}
		h.Set(k, v)
	}
	if c.BearerTokenEnv != "" {
		v := getenv(c.BearerTokenEnv)
		if v == "" {
			return nil, fmt.Errorf("bearer_token_env: $%s is not set", Printable(c.BearerTokenEnv))
		}
		h.Set("Authorization", "Bearer "+v)
	}
	return h, nil
}

// tailBuffer keeps the last bytes written to it: a stdio server's
// stderr, for saying why it failed. The server's output is written from
// the launcher's copier while a failure reads it, hence the lock.
type tailBuffer struct {
	mu   sync.Mutex
	tail *ring.Tail
}

func newTailBuffer(n int) *tailBuffer { return &tailBuffer{tail: ring.NewTail(n)} }

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.tail.Write(p)
}

// lastLine is the last non-empty line written.
func (t *tailBuffer) lastLine() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(strings.TrimRight(string(t.tail.Text()), "\r\n\t "), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}
