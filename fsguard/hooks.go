package fsguard

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"

	"github.com/quire-sh/quire/internal/pathx"
	"github.com/quire-sh/quire/sandbox"
)

// hookDirs lists the directories git runs hooks from for the repository
// at dir: its git dir's hooks (following a .git file to a worktree's or
// submodule's git dir, and commondir to the shared one) and core.hooksPath
// from the repository's, the user's and the system's git config. Paths
// are given both as written and resolved.
func hookDirs(dir string) []string {
	if dir == "" {
		return nil
	}
	var out []string
	add := func(p string) {
		if p == "" {
			return
		}
		p = filepath.Clean(p)
		out = appendUnique(out, p)
		if r, err := sandbox.Resolve(p); err == nil {
			out = appendUnique(out, r)
		}
	}
	gitDir := filepath.Join(dir, ".git")
	if b, err := os.ReadFile(gitDir); err == nil {
		if s, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:"); ok {
			gitDir = relTo(dir, strings.TrimSpace(s))
		}
	}
	gitDirs := []string{gitDir}
	if b, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		gitDirs = append(gitDirs, relTo(gitDir, strings.TrimSpace(string(b))))
	}
	home, _ := os.UserHomeDir()
	configs := []string{"/etc/gitconfig"}
	if home != "" {
		configs = append(configs, filepath.Join(home, ".gitconfig"))
	}
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" {
		configs = append(configs, filepath.Join(x, "git", "config"))
	} else if home != "" {
		configs = append(configs, filepath.Join(home, ".config", "git", "config"))
	}
	for _, g := range gitDirs {
		add(filepath.Join(g, "hooks"))
		configs = append(configs, filepath.Join(g, "config"))
	}
	for _, c := range configs {
		if hp := hooksPath(c); hp != "" {
			if strings.HasPrefix(hp, "~/") && home != "" {
				hp = filepath.Join(home, hp[2:])
			}
			add(relTo(dir, hp)) // a relative hooksPath is relative to the worktree
		}
	}
	return out
}

// hooksPath reads core.hooksPath from a git config file; "" if unset.
// Includes are not followed.
func hooksPath(file string) string {
	f, err := os.Open(file)
	if err != nil {
		return ""
	}
	defer f.Close()
	var val string
	inCore := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			name, _, _ := strings.Cut(strings.Trim(line, "[]"), " ")
			inCore = strings.EqualFold(strings.TrimSpace(name), "core") && !strings.Contains(line, "\"")
			continue
		}
		if !inCore {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok || !strings.EqualFold(strings.TrimSpace(k), "hooksPath") {
			continue
		}
		v = strings.TrimSpace(v)
		if i := strings.IndexAny(v, "#;"); i >= 0 && !strings.HasPrefix(v, "\"") {
			v = strings.TrimSpace(v[:i])
		}
		val = strings.Trim(v, "\"")
	}
	return val
}

// inGitHooks reports whether path lies in a hooks directory of any git
// dir: one of the listed hook dirs, or a "hooks" component somewhere
// below a ".git" (or "*.git") component, as in nested repositories and
// submodules (.git/modules/NAME/hooks).
func inGitHooks(path string, hooks []string) bool {
	for _, h := range hooks {
		if pathx.Within(path, h) {
			return true
		}
	}
	parts := strings.Split(filepath.Dir(path), string(filepath.Separator))
	git := false
	for _, p := range parts {
		if p == ".git" || strings.HasSuffix(p, ".git") {
			git = true
			continue
		}
		if git && p == "hooks" {
			return true
		}
	}
	return false
}

func relTo(base, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(base, p)
}

func appendUnique(list []string, s string) []string {
	for _, have := range list {
		if have == s {
			return list
		}
	}
	return append(list, s)
}
