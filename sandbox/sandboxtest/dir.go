// Package sandboxtest helps tests that check what a sandbox profile
// refuses: they need directory trees outside every temp dir, because
// every profile may write those.
package sandboxtest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/quire-sh/quire/internal/pathx"
)

// Dir makes a directory for a test tree outside every temp dir,
// because every profile may write those: the package directory, else the
// user cache directory, else the home directory. A checkout that itself
// lives under /tmp therefore still tests confinement for real.
func Dir(t testing.TB, pattern string) string {
	t.Helper()
	wd, _ := os.Getwd()
	cache, _ := os.UserCacheDir()
	home, _ := os.UserHomeDir()
	for _, dir := range []string{wd, cache, home} {
		if dir == "" || UnderTempDir(dir) {
			continue
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			continue
		}
		if base, err := os.MkdirTemp(dir, pattern); err == nil {
			return base
		}
	}
	t.Skip("no writable directory outside the temp dirs for a test tree: every profile may write temp dirs, so confinement cannot be observed here")
	return ""
}

// UnderTempDir reports whether dir is inside $TMPDIR, /tmp, /var/tmp or
// /dev/shm (symlinks resolved).
func UnderTempDir(dir string) bool {
	if d, err := filepath.EvalSymlinks(dir); err == nil {
		dir = d
	}
	for _, tmp := range []string{os.TempDir(), "/tmp", "/var/tmp", "/dev/shm"} {
		if r, err := filepath.EvalSymlinks(tmp); err == nil {
			tmp = r
		}
		if pathx.Within(dir, tmp) {
			return true
		}
	}
	return false
}
