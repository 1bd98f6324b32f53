// Package mcptest finds the real MCP servers, written by others, that
// quire's tests run against: @modelcontextprotocol/server-everything and
// @modelcontextprotocol/server-filesystem from npm, which scripts/setup
// installs under the repository's .cache/mcp-servers (gitignored). A
// test that needs them skips, saying why, when they are missing, and
// fails on CI (CI set), where scripts/setup must have installed them.
package mcptest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Servers are the entry points of the installed servers and the node
// that runs them.
type Servers struct {
	Node string
	// Everything is server-everything's index.js: its first argument
	// picks the transport (stdio, sse, streamableHttp; PORT for HTTP).
	Everything string
	// Filesystem is server-filesystem's index.js: its arguments are the
	// directories it may touch.
	Filesystem string
}

// Dir is where scripts/setup installs the servers, relative to the
// repository's root.
const Dir = ".cache/mcp-servers"

// Need returns the servers, or skips (fails on CI) when they are not
// installed.
func Need(t testing.TB) Servers {
	t.Helper()
	why := ""
	node, err := exec.LookPath("node")
	root := repoRoot()
	s := Servers{Node: node,
		Everything: filepath.Join(root, Dir, "node_modules/@modelcontextprotocol/server-everything/dist/index.js"),
		Filesystem: filepath.Join(root, Dir, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"),
	}
	switch {
	case err != nil:
		why = "node is not installed"
	case root == "":
		why = "the repository's root (go.mod) was not found"
	default:
		for _, f := range []string{s.Everything, s.Filesystem} {
			if _, err := os.Stat(f); err != nil {
				why = f + " is missing"
			}
		}
	}
	if why == "" {
		return s
	}
	why += " (scripts/setup installs the MCP servers the tests use)"
	if os.Getenv("CI") != "" {
		t.Fatalf("mcp servers: %s, and CI must run these tests", why)
	}
	t.Skipf("mcp servers: %s", why)
	return s
}

// repoRoot is the directory of go.mod above the working directory.
func repoRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}
