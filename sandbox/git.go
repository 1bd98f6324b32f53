package sandbox

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/quire-sh/quire/internal/pathx"
)

// gitProtected lists what a command must not change for git run later,
// outside the sandbox, to stay the user's: every way git reaches the
// repository of dir and finds code to run.
//
//   - The git dir, found as git finds it: $GIT_DIR, else the first .git
//     (a directory, or a file pointing elsewhere with "gitdir:", as in
//     worktrees and submodules) in dir or above, else dir itself when it
//     is a bare repository; and its common dir (a worktree's main git
//     dir). With gitWrites only their hooks, config and config.worktree,
//     and the same in every submodule's git dir under modules/.
//   - The .git files themselves (of dir's repository, of its submodules
//     listed in .gitmodules, and of its linked worktrees), which name the
//     git dir.
//   - Every config file git reads (the repository's, the user's global
//     ones, the system's, those named by $GIT_CONFIG*), every file they
//     include (include.path and includeIf.*.path, whatever the
//     condition), core.hooksPath, and programs named by a path in keys
//     that run one (core.fsmonitor, core.pager, filters, diff drivers…).
//
// Paths that do not exist are left out; symlinks are resolved.
func gitProtected(dir string, gitWrites bool, getenv func(string) string) []string {
	var out []string
	add := func(p string) {
		if r, err := Resolve(p); err == nil {
			if _, err := os.Lstat(r); err == nil {
				out = appendUnique(out, r)
			}
		}
	}
	top, gitDir, dotGit := findGitDir(dir, getenv)
	common := gitDir
	if gitDir != "" {
		if b, err := readSmall(filepath.Join(gitDir, "commondir")); err == nil {
			common = relTo(strings.TrimSpace(string(b)), gitDir)
		}
		if c := getenv("GIT_COMMON_DIR"); c != "" {
			common = relTo(c, dir)
		}
	}
	if dotGit != "" {
		add(dotGit)
	}
	var configs []string
	for _, g := range appendUnique(nil, gitDir, common) {
		if g == "" {
			continue
		}
		if gitWrites {
			add(filepath.Join(g, "hooks"))
			for _, m := range submoduleGitDirs(filepath.Join(g, "modules"), 4) {
				add(filepath.Join(m, "hooks"))
				add(filepath.Join(m, "config"))
			}
		} else {
			add(g)
		}
		configs = append(configs, filepath.Join(g, "config"), filepath.Join(g, "config.worktree"))
		// Linked worktrees' .git files point back here; a command that
		// rewrites one redirects git in that worktree.
		if wts, err := os.ReadDir(filepath.Join(g, "worktrees")); err == nil {
			for _, wt := range wts {
				if b, err := readSmall(filepath.Join(g, "worktrees", wt.Name(), "gitdir")); err == nil {
					add(relTo(strings.TrimSpace(string(b)), filepath.Join(g, "worktrees", wt.Name())))
				}
			}
		}
	}
	if top != "" {
		for _, sub := range submodulePaths(filepath.Join(top, ".gitmodules")) {
			add(filepath.Join(top, sub, ".git"))
		}
	}
	home := homeDirFrom(getenv)
	xdg := getenv("XDG_CONFIG_HOME")
	if xdg == "" {
		xdg = filepath.Join(home, ".config")
	}
	global := []string{filepath.Join(home, ".gitconfig"), filepath.Join(xdg, "git", "config")}
	if g := getenv("GIT_CONFIG_GLOBAL"); g != "" {
		global = []string{g}
	}
	system := "/etc/gitconfig"
	if s := getenv("GIT_CONFIG_SYSTEM"); s != "" {
		system = s
	}
	configs = append(configs, global...)
	configs = append(configs, system)
	if c := getenv("GIT_CONFIG"); c != "" {
		configs = append(configs, relTo(c, dir))
	}
	base := top
	if base == "" {
		base = dir
	}
	seen := map[string]bool{}
	var walk func(file string, depth int)
	walk = func(file string, depth int) {
		if depth > 10 || seen[file] {
			return
		}
		seen[file] = true
		entries, err := readGitConfig(file)
		if err != nil {
			return
		}
		add(file)
		for _, e := range entries {
			switch {
			case e.key == "path" && (e.section == "include" || e.section == "includeif"):
				walk(expandGitPath(e.value, filepath.Dir(file), home), depth+1)
			case e.section == "core" && e.key == "hookspath":
				add(expandGitPath(e.value, base, home))
			case runsProgram(e.section, e.key):
				if prog := programPath(e.value); prog != "" {
					add(expandGitPath(prog, base, home))
				}
			}
		}
	}
	for _, c := range configs {
		walk(c, 0)
	}
	return outermost(out)
}

// outermost drops the paths that lie inside another path of the list.
func outermost(paths []string) []string {
	var out []string
	for i, p := range paths {
		inside := false
		for j, q := range paths {
			if i != j && p != q && pathx.Within(p, q) {
				inside = true
				break
			}
		}
		if !inside {
			out = append(out, p)
		}
	}
	return out
}

// findGitDir finds the repository of dir the way git does: $GIT_DIR, else
// the nearest .git in dir or above it (dotGit is the .git file when it
// is one), else dir itself when it is a bare repository. top is the
// worktree's top directory, "" for a bare repository.
func findGitDir(dir string, getenv func(string) string) (top, gitDir, dotGit string) {
	if g := getenv("GIT_DIR"); g != "" {
		top = dir
		if w := getenv("GIT_WORK_TREE"); w != "" {
			top = relTo(w, dir)
		}
		return top, relTo(g, dir), ""
	}
	for d := dir; ; d = filepath.Dir(d) {
		p := filepath.Join(d, ".git")
		if fi, err := os.Stat(p); err == nil {
			if fi.IsDir() {
				return d, p, ""
			}
			if b, err := readSmall(p); err == nil {
				if s, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:"); ok {
					return d, relTo(strings.TrimSpace(s), d), p
				}
			}
			// A .git file git cannot use: git stops here with an error.
			return d, "", p
		}
		if d == filepath.Dir(d) {
			break
		}
	}
	if isGitDir(dir) {
		return "", dir, ""
	}
	return "", "", ""
}

func isGitDir(d string) bool {
	for _, p := range []string{"HEAD", "objects", "refs"} {
		if _, err := os.Stat(filepath.Join(d, p)); err != nil {
			return false
		}
	}
	return true
}

// submoduleGitDirs lists the git dirs under a modules directory (nested
// submodules have their own modules/ inside).
func submoduleGitDirs(modules string, depth int) []string {
	if depth == 0 {
		return nil
	}
	entries, err := os.ReadDir(modules)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		d := filepath.Join(modules, e.Name())
		if !e.IsDir() {
			continue
		}
		if isGitDir(d) {
			out = append(out, d)
			out = append(out, submoduleGitDirs(filepath.Join(d, "modules"), depth-1)...)
		} else {
			// Submodule names may contain slashes.
			out = append(out, submoduleGitDirs(d, depth-1)...)
		}
	}
	return out
}

// submodulePaths reads the path = entries of a .gitmodules file.
func submodulePaths(file string) []string {
	entries, err := readGitConfig(file)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if e.section == "submodule" && e.key == "path" && e.value != "" && !strings.Contains(e.value, "..") {
			out = append(out, e.value)
		}
	}
	return out
}

// runsProgram reports whether a config key names a program git runs.
func runsProgram(section, key string) bool {
	switch section + "." + key {
	case "core.fsmonitor", "core.pager", "core.editor", "core.sshcommand", "core.askpass",
		"sequence.editor", "gpg.program", "diff.external", "credential.helper":
		return true
	}
	if section == "pager" || section == "alias" {
		return true
	}
	switch key {
	case "textconv", "clean", "smudge", "process", "driver", "command", "cmd", "program", "helper", "tool":
		return true
	}
	return false
}

// programPath is the first word of a command line when it names a file by
// path; "" for a program looked up in PATH, a shell snippet or a boolean.
func programPath(value string) string {
	v := strings.TrimSpace(value)
	v = strings.TrimPrefix(v, "!")
	first, _, _ := strings.Cut(v, " ")
	first = strings.Trim(first, `"'`)
	if !strings.Contains(first, "/") {
		return ""
	}
	return first
}

// expandGitPath resolves a path from git config: "~/" and "~" are the home
// directory, relative paths are relative to base.
func expandGitPath(p, base, home string) string {
	switch {
	case p == "~":
		return home
	case strings.HasPrefix(p, "~/"):
		return filepath.Join(home, p[2:])
	case strings.HasPrefix(p, "%(prefix)/"):
		return "/" + strings.TrimPrefix(p, "%(prefix)/")
	}
	return relTo(p, base)
}

// relTo makes p absolute relative to base.
func relTo(p, base string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(base, p)
}

type gitConfigEntry struct {
	section string // lower case; "includeif" for [includeIf "..."]
	key     string // lower case
	value   string
}

// readGitConfig reads a git config file's entries leniently: what it
// cannot parse it skips, since the point is only to find paths to protect.
func readGitConfig(file string) ([]gitConfigEntry, error) {
	data, err := readSmall(file)
	if err != nil {
		return nil, err
	}
	var out []gitConfigEntry
	section := ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), maxGitFile)
	var pending string
	for sc.Scan() {
		line := sc.Text()
		if pending != "" {
			line = pending + line
			pending = ""
		}
		if strings.HasSuffix(line, `\`) && !strings.HasSuffix(line, `\\`) {
			pending = strings.TrimSuffix(line, `\`)
			continue
		}
		line = strings.TrimSpace(line)
		for strings.HasPrefix(line, "[") {
			end := strings.IndexByte(line, ']')
			if end < 0 {
				line = ""
				break
			}
			header := strings.TrimSpace(line[1:end])
			name, _, _ := strings.Cut(header, " ")
			name, _, _ = strings.Cut(name, ".")
			name, _, _ = strings.Cut(name, `"`)
			section = strings.ToLower(name)
			line = strings.TrimSpace(line[end+1:])
		}
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		key, value, hasValue := strings.Cut(line, "=")
		key = strings.ToLower(strings.TrimSpace(key))
		if !hasValue {
			out = append(out, gitConfigEntry{section, key, "true"})
			continue
		}
		out = append(out, gitConfigEntry{section, key, gitValue(value)})
	}
	return out, sc.Err()
}

// maxGitFile bounds what is read of one git file.
const maxGitFile = 1 << 20

// readSmall reads a regular file of at most maxGitFile bytes. A command
// may have left a FIFO or a device where git keeps a file: opening without
// blocking and refusing anything but a regular file keeps quire from
// hanging on it.
func readSmall(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	return io.ReadAll(io.LimitReader(f, maxGitFile))
}

// gitValue unquotes a config value and drops a trailing comment.
func gitValue(v string) string {
	var b strings.Builder
	quoted := false
	v = strings.TrimSpace(v)
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '"':
			quoted = !quoted
		case c == '\\' && i+1 < len(v):
			i++
			switch v[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				b.WriteByte(v[i])
			}
		case (c == '#' || c == ';') && !quoted:
			return strings.TrimSpace(b.String())
		default:
			b.WriteByte(c)
		}
	}
	return strings.TrimSpace(b.String())
}
