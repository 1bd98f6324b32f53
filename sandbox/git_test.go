//go:build linux

package sandbox

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"
)

// git runs git in dir for test setup.
func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.email=t@t", "-c", "user.name=t", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

func requireGit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
}

// treeState is every path under the roots with its type, mode and
// content hash (symlinks by target), so any change shows.
func treeState(t *testing.T, roots ...string) map[string]string {
	t.Helper()
	state := map[string]string{}
	for _, root := range roots {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				state[p] = "missing"
				return nil
			}
			fi, err := os.Lstat(p)
			if err != nil {
				return nil
			}
			v := fi.Mode().String()
			switch {
			case fi.Mode()&fs.ModeSymlink != 0:
				target, _ := os.Readlink(p)
				v += " -> " + target
			case fi.Mode().IsRegular():
				b, _ := os.ReadFile(p)
				v += fmt.Sprintf(" %x", sha256.Sum256(b))
			}
			state[p] = v
			return nil
		})
	}
	return state
}

func diffState(before, after map[string]string) string {
	var out []string
	for p, v := range before {
		if after[p] != v {
			out = append(out, fmt.Sprintf("%s: %q -> %q", p, v, after[p]))
		}
	}
	for p, v := range after {
		if _, ok := before[p]; !ok {
			out = append(out, fmt.Sprintf("%s: new %q", p, v))
		}
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

// plantAttempts are the ways a command tries to get code run by git
// outside the sandbox: write the metadata, or move it aside and put a
// writable copy in its place (at every level: the git dir, the .git file,
// the hooks, the working dir and its parents).
const plantAttempts = `
try() { echo "+ $*"; eval "$@" 2>&1; }
try 'echo PLANTED >> .git/config'
try 'git config core.fsmonitor "echo PLANTED"'
try 'echo PLANTED > .git/hooks/pre-commit'
try 'ln -s /tmp/x .git/hooks/post-checkout'
try 'mv .git/hooks .git/hooks-aside'
try 'mv .git .git-aside && cp -a .git-aside .git && echo PLANTED > .git/hooks/pre-commit'
try 'rm -rf .git'
try 'echo "gitdir: /tmp/planted" > .git'
try 'git init -q .'
try 'here=$(pwd); cd .. && mv "$here" "$here-aside" && mkdir "$here" && cp -a "$here-aside/.git" "$here/.git" && echo PLANTED > "$here/.git/hooks/pre-commit"'
try 'here=$(pwd); up=$(dirname "$here"); cd "$up/.." && mv "$up" "$up-aside" && mkdir -p "$here" && cp -a "$up-aside/$(basename "$here")/.git" "$here/" && echo PLANTED > "$here/.git/hooks/pre-commit"'
echo DONE
`

func TestGitMetadataCannotBeChangedOrMovedAside(t *testing.T) {
	requireGit(t)
	bothUsers(t, func(t *testing.T) {
		s := requireLandlock(t, false)
		for _, c := range []struct {
			name string
			// setup builds the repository; it returns the working
			// directory quire runs in and the trees that must not change.
			setup func(t *testing.T, f fixture) (dir string, frozen []string)
			// extra is an attack specific to the layout.
			extra string
		}{
			{"git dir", func(t *testing.T, f fixture) (string, []string) {
				git(t, f.ws, "init", "-q")
				return f.ws, []string{filepath.Join(f.ws, ".git")}
			}, ""},
			{"working dir inside a temp dir", func(t *testing.T, f fixture) (string, []string) {
				ws := filepath.Join(t.TempDir(), "parent", "ws")
				os.MkdirAll(ws, 0o755)
				git(t, ws, "init", "-q")
				return ws, []string{filepath.Join(ws, ".git")}
			}, ""},
			{"linked worktree", func(t *testing.T, f fixture) (string, []string) {
				main := filepath.Join(f.ws, "main")
				os.MkdirAll(main, 0o755)
				git(t, main, "init", "-q")
				git(t, main, "commit", "-q", "--allow-empty", "-m", "x")
				wt := filepath.Join(f.ws, "wt")
				git(t, main, "worktree", "add", "-q", wt)
				// quire runs in the worktree; the profile lets it write
				// the main repository too (say, a custom write entry).
				return wt, []string{filepath.Join(wt, ".git"), filepath.Join(main, ".git")}
			}, `try 'echo PLANTED >> ../main/.git/config'; try 'echo PLANTED > ../main/.git/worktrees/wt/config.worktree'; try 'mv ../main/.git ../main/.git-aside'`},
			{"linked worktree inside", func(t *testing.T, f fixture) (string, []string) {
				git(t, f.ws, "init", "-q")
				git(t, f.ws, "commit", "-q", "--allow-empty", "-m", "x")
				git(t, f.ws, "worktree", "add", "-q", "wt")
				return f.ws, []string{filepath.Join(f.ws, ".git"), filepath.Join(f.ws, "wt", ".git")}
			}, `try 'echo "gitdir: /tmp/planted" > wt/.git'; try 'rm wt/.git'; try 'mv wt wt-aside && mkdir wt && echo "gitdir: /tmp/planted" > wt/.git'`},
			{"submodule", func(t *testing.T, f fixture) (string, []string) {
				git(t, f.ws, "init", "-q")
				mod := filepath.Join(f.ws, ".git", "modules", "sub")
				for _, d := range []string{filepath.Join(mod, "objects"), filepath.Join(mod, "refs"), filepath.Join(f.ws, "sub")} {
					os.MkdirAll(d, 0o755)
				}
				os.WriteFile(filepath.Join(mod, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
				os.WriteFile(filepath.Join(mod, "config"), []byte("[core]\n"), 0o644)
				os.WriteFile(filepath.Join(f.ws, "sub", ".git"), []byte("gitdir: ../.git/modules/sub\n"), 0o644)
				os.WriteFile(filepath.Join(f.ws, ".gitmodules"), []byte("[submodule \"sub\"]\n\tpath = sub\n\turl = x\n"), 0o644)
				return f.ws, []string{filepath.Join(f.ws, ".git"), filepath.Join(f.ws, "sub", ".git")}
			}, `try 'echo "gitdir: /tmp/planted" > sub/.git'; try 'echo PLANTED >> .git/modules/sub/config'; try 'mv sub sub-aside && mkdir sub && echo "gitdir: /tmp/planted" > sub/.git'`},
			{"core.hooksPath in the working dir", func(t *testing.T, f fixture) (string, []string) {
				git(t, f.ws, "init", "-q")
				hooks := filepath.Join(f.ws, "tools", "hooks")
				os.MkdirAll(hooks, 0o755)
				os.WriteFile(filepath.Join(hooks, "pre-commit"), []byte("#!/bin/sh\n"), 0o755)
				git(t, f.ws, "config", "core.hooksPath", "tools/hooks")
				return f.ws, []string{filepath.Join(f.ws, ".git"), hooks}
			}, `try 'echo PLANTED >> tools/hooks/pre-commit'; try 'mv tools tools-aside && mkdir -p tools/hooks && echo PLANTED > tools/hooks/pre-commit'; try 'mv tools/hooks tools/hooks-aside'`},
			{"included config and fsmonitor program", func(t *testing.T, f fixture) (string, []string) {
				git(t, f.ws, "init", "-q")
				os.WriteFile(filepath.Join(f.ws, "shared.gitconfig"), []byte("[core]\n\tbare = false\n"), 0o644)
				os.WriteFile(filepath.Join(f.ws, "fsmon.sh"), []byte("#!/bin/sh\n"), 0o755)
				git(t, f.ws, "config", "include.path", "../shared.gitconfig")
				git(t, f.ws, "config", "core.fsmonitor", "./fsmon.sh")
				return f.ws, []string{filepath.Join(f.ws, ".git"), filepath.Join(f.ws, "shared.gitconfig"), filepath.Join(f.ws, "fsmon.sh")}
			}, `try 'echo PLANTED >> shared.gitconfig'; try 'mv shared.gitconfig x && echo PLANTED > shared.gitconfig'; try 'echo PLANTED >> fsmon.sh'`},
			{"GIT_DIR", func(t *testing.T, f fixture) (string, []string) {
				meta := filepath.Join(f.ws, "meta")
				git(t, f.ws, "init", "-q", "--separate-git-dir", meta)
				os.Remove(filepath.Join(f.ws, ".git"))
				t.Setenv("GIT_DIR", meta)
				return f.ws, []string{meta}
			}, `try 'echo PLANTED >> meta/config'; try 'mv meta meta-aside && cp -a meta-aside meta && echo PLANTED > meta/hooks/pre-commit'`},
		} {
			t.Run(c.name, func(t *testing.T) {
				f := newFixture(t)
				os.RemoveAll(filepath.Join(f.ws, ".git"))
				dir, frozen := c.setup(t, f)
				dir, _ = filepath.EvalSymlinks(dir)
				for i := range frozen {
					frozen[i], _ = filepath.EvalSymlinks(frozen[i])
				}
				cfg := "[sandbox.profiles.both]\nwrite = [" + fmt.Sprintf("%q", f.ws) + "]\n"
				p, err := settings(t, cfg).Profile("both", dir)
				if err != nil {
					t.Fatal(err)
				}
				before := treeState(t, frozen...)
				_, out := sh(t, p, s, plantAttempts+c.extra+"\necho DONE")
				if !strings.Contains(out, "DONE") {
					t.Fatalf("the attack script did not run through:\n%s", out)
				}
				if d := diffState(before, treeState(t, frozen...)); d != "" {
					t.Fatalf("git metadata changed:\n%s\nattack output:\n%s", d, out)
				}
				// The file tools refuse the same paths.
				for _, fr := range frozen {
					for _, target := range []string{fr, filepath.Join(fr, "config"), filepath.Join(fr, "hooks", "pre-commit")} {
						if _, err := p.CanWrite(target); err == nil {
							t.Errorf("the file tools may write %s", target)
						}
					}
				}
			})
		}
	})
}

func TestGitWritesSettingKeepsHooksAndConfig(t *testing.T) {
	requireGit(t)
	bothUsers(t, func(t *testing.T) {
		s := requireLandlock(t, false)
		f := newFixture(t)
		os.RemoveAll(filepath.Join(f.ws, ".git"))
		git(t, f.ws, "init", "-q")
		os.WriteFile(filepath.Join(f.ws, "a.txt"), []byte("a\n"), 0o644)
		p := f.custom(t, "[sandbox]\ngit_writes = true\n", Workspace)
		if !p.GitWrites {
			t.Fatal("git_writes = true was not applied")
		}
		frozen := []string{filepath.Join(f.ws, ".git", "hooks"), filepath.Join(f.ws, ".git", "config")}
		before := treeState(t, frozen...)
		_, out := sh(t, p, s, `git -c user.email=a@b -c user.name=n add -A && git -c user.email=a@b -c user.name=n commit -qm one && echo COMMITTED
`+plantAttempts)
		if !strings.Contains(out, "COMMITTED") {
			t.Fatalf("git_writes = true should let commands commit:\n%s", out)
		}
		if d := diffState(before, treeState(t, frozen...)); d != "" {
			t.Fatalf("hooks or config changed with git_writes:\n%s\n%s", d, out)
		}
		if _, err := os.Stat(filepath.Join(f.ws, ".git", "HEAD")); err != nil {
			t.Fatalf(".git was moved away: %v\n%s", err, out)
		}
		if _, err := p.CanWrite(filepath.Join(f.ws, ".git", "index")); err != nil {
			t.Errorf("with git_writes the file tools should write the index: %v", err)
		}
		if _, err := p.CanWrite(filepath.Join(f.ws, ".git", "hooks", "pre-commit")); err == nil {
			t.Error("with git_writes the file tools may write hooks")
		}
	})
}

func TestFileToolsRefuseAnyGitDir(t *testing.T) {
	f := newFixture(t)
	p := f.profile(t, Workspace)
	for _, target := range []string{
		filepath.Join(f.ws, "vendor", "lib", ".git", "config"), // a nested repository
		filepath.Join(f.ws, "new", ".git", "hooks", "post-checkout"),
		filepath.Join(f.ws, "sub", ".git"),
	} {
		_, err := p.CanWrite(target)
		if err == nil || !strings.Contains(err.Error(), "git_writes") {
			t.Errorf("CanWrite(%s) = %v, want a refusal naming git_writes", target, err)
		}
	}
	if _, err := p.CanWrite(filepath.Join(f.ws, ".github", "workflows", "ci.yml")); err != nil {
		t.Errorf(".github is not git metadata: %v", err)
	}
}

func TestGitConfigParsing(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config")
	os.WriteFile(cfg, []byte(`# comment
[core]
	hooksPath = "hooks dir" ; trailing comment
	FSMonitor = ./watch.sh --flag
[include]
	path = ~/extra.inc
[includeIf "gitdir:~/work/"]
	path = work.inc
[filter "x"] clean = /opt/filters/clean %f
[alias]
	st = !./scripts/st.sh
[diff "y"]
	textconv = tool \
	  --continued
`), 0o644)
	entries, err := readGitConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, e := range entries {
		got[e.section+"."+e.key] = e.value
	}
	for k, want := range map[string]string{
		"core.hookspath": "hooks dir", "core.fsmonitor": "./watch.sh --flag", "include.path": "~/extra.inc",
		"includeif.path": "work.inc", "filter.clean": "/opt/filters/clean %f", "alias.st": "!./scripts/st.sh",
		"diff.textconv": "tool \t  --continued",
	} {
		if got[k] != want {
			t.Errorf("%s = %q, want %q (all: %v)", k, got[k], want, got)
		}
	}
	for v, want := range map[string]string{"./watch.sh --flag": "./watch.sh", "!./scripts/st.sh": "./scripts/st.sh", "tool --x": "", "true": ""} {
		if got := programPath(v); got != want {
			t.Errorf("programPath(%q) = %q, want %q", v, got, want)
		}
	}
}

func TestRepositoryCreatedMidSessionIsProtected(t *testing.T) {
	requireGit(t)
	s := requireLandlock(t, false)
	f := newFixture(t)
	os.RemoveAll(filepath.Join(f.ws, ".git"))
	p := f.profile(t, Workspace) // built before the repository exists
	if _, out := sh(t, p, s, "git init -q . && echo INIT"); !strings.Contains(out, "INIT") {
		t.Fatalf("git init inside the sandbox: %s", out)
	}
	before := treeState(t, filepath.Join(f.ws, ".git"))
	_, out := sh(t, p, s, plantAttempts)
	if d := diffState(before, treeState(t, filepath.Join(f.ws, ".git"))); d != "" {
		t.Fatalf("the repository made by an earlier command was writable:\n%s\n%s", d, out)
	}
}

func TestGitFilesThatAreNotFilesDoNotHang(t *testing.T) {
	f := newFixture(t)
	git := filepath.Join(f.ws, ".git")
	os.WriteFile(filepath.Join(git, "config"), []byte("[include]\n\tpath = ../fifo\n"), 0o644)
	if err := syscall.Mkfifo(filepath.Join(f.ws, "fifo"), 0o644); err != nil {
		t.Skip(err)
	}
	os.Remove(filepath.Join(git, "HEAD"))
	syscall.Mkfifo(filepath.Join(git, "commondir"), 0o644)
	done := make(chan []string, 1)
	go func() { done <- gitProtected(f.ws, false, os.Getenv) }()
	select {
	case got := <-done:
		if !contains(got, git) {
			t.Errorf("the git dir is not protected: %v", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("reading a FIFO left in the git metadata hung")
	}
}

func FuzzGitConfig(f *testing.F) {
	for _, s := range []string{"[core]\n\thooksPath = x\n", "[includeIf \"gitdir:~/w/\"]\npath=a\n", "[a.b]\nc=\"d\\\"e\" ; f\n", "x = \\\n y\n", "[", "k"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		file := filepath.Join(t.TempDir(), "config")
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		entries, _ := readGitConfig(file)
		for _, e := range entries {
			if e.section != strings.ToLower(e.section) || e.key != strings.ToLower(e.key) {
				t.Fatalf("names not folded: %+v", e)
			}
			programPath(e.value)
		}
	})
}
