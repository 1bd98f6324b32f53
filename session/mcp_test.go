package session

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quire-sh/quire/config"
	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/ext/mcp"
	"github.com/quire-sh/quire/trust"
)

const projectMCP = `{"mcpServers": {"fromrepo": {"command": "quire-test-no-such-server"}}}`

// A project's .mcp.json starts nothing until the user trusted its
// content: one notice says how, and no server of it appears. Once a
// decision is recorded for exactly that content, its servers are used.
func TestProjectMCPNeedsTrust(t *testing.T) {
	srv := startServer(t)
	cfg := testConfig(t, srv, "ask")
	dir := t.TempDir()
	dir, _ = filepath.EvalSymlinks(dir)
	if err := os.WriteFile(filepath.Join(dir, ".mcp.json"), []byte(projectMCP), 0o600); err != nil {
		t.Fatal(err)
	}

	h, err := Open(Options{Config: cfg, Cwd: dir, NoStore: true})
	if err != nil {
		t.Fatal(err)
	}
	n := until(t, h.Events(), event.Notice)
	if !strings.Contains(n.Text, ".mcp.json was not used") || !strings.Contains(n.Text, "fromrepo") || !strings.Contains(n.Text, "quire trust") {
		t.Errorf("notice %q", n.Text)
	}
	if st := h.mcp.Status(); len(st) != 0 {
		t.Errorf("an untrusted file's servers: %+v", st)
	}
	h.Close()

	store := trust.Open(config.StateDir(os.Getenv))
	if err := store.Decide(dir, ".mcp.json", []byte(projectMCP), trust.Trusted); err != nil {
		t.Fatal(err)
	}
	h, err = Open(Options{Config: cfg, Cwd: dir, NoStore: true})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	h.mcp.Wait(ctx)
	st := h.mcp.Status()
	if len(st) != 1 || st[0].Name != "fromrepo" || st[0].Origin != ".mcp.json" || st[0].State != mcp.Failed || !strings.Contains(st[0].Error, "not found in PATH") {
		t.Fatalf("a trusted file's servers: %+v", st)
	}
	if s := h.ExtensionSummary(); s != "mcp 0/1 fromrepo failed" {
		t.Errorf("summary %q", s)
	}

	// Changed content is asked about again.
	if err := os.WriteFile(filepath.Join(dir, ".mcp.json"), []byte(strings.Replace(projectMCP, "fromrepo", "changed", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	if servers, notice := projectServers(store, dir); servers != nil || !strings.Contains(notice, "changed") {
		t.Errorf("changed file: %v, %q", servers, notice)
	}
}

// A wrong server in config.toml is one notice, and the session starts
// with the others.
func TestBadMCPConfigIsANotice(t *testing.T) {
	srv := startServer(t)
	cfg := testConfig(t, srv, "ask")
	var s mcp.Settings
	s.UnmarshalTOML(map[string]any{"servers": map[string]any{"typo": map[string]any{"comand": "x"}}})
	cfg.MCP = s
	h, err := Open(Options{Config: cfg, Cwd: t.TempDir(), NoStore: true})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	n := until(t, h.Events(), event.Notice)
	if n.Level != "warn" || !strings.HasPrefix(n.Text, "MCP server typo is off: [mcp.servers.typo]: ") || strings.Contains(n.Text, "\n") {
		t.Errorf("notice %+v", n)
	}
	lines, _, err := h.MCP(context.Background(), nil)
	if err != nil || !strings.Contains(strings.Join(lines, "\n"), "typo  off") {
		t.Errorf("/mcp: %q %v", lines, err)
	}
}
