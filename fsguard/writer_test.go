package fsguard

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/quire-sh/quire/sandbox"
	"github.com/quire-sh/quire/sandbox/sandboxtest"
)

// tree is a working directory and a directory outside it, symlinks
// resolved.
func tree(t *testing.T) (ws, outside string) {
	t.Helper()
	var err error
	if ws, err = filepath.EvalSymlinks(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	if outside, err = filepath.EvalSymlinks(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	return ws, outside
}

// writers runs f with each way of resolving this machine has: openat2
// (when the kernel has it) and the O_NOFOLLOW walk older kernels get.
func writers(t *testing.T, p sandbox.Profile, f func(t *testing.T, w *Writer)) {
	w := New(p)
	t.Run("openat2", func(t *testing.T) {
		if w.Resolution() != "openat2" {
			t.Skip("this kernel has no usable openat2; the walk below covers it")
		}
		f(t, w)
	})
	t.Run("walk", func(t *testing.T) { f(t, w.WithWalk()) })
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func mustNotExist(t *testing.T, path string) {
	t.Helper()
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("%s exists (err %v); nothing should have been written there", path, err)
	}
}

func TestWriteCreatesAtomicallyWithParents(t *testing.T) {
	writers(t, sandbox.Profile{}, func(t *testing.T, w *Writer) {
		ws, _ := tree(t)
		p := filepath.Join(ws, "a", "b", "c.txt")
		if err := w.WriteFile(p, []byte("hello\n"), 0o640); err != nil {
			t.Fatal(err)
		}
		if got := mustRead(t, p); got != "hello\n" {
			t.Fatalf("content %q", got)
		}
		fi, _ := os.Stat(p)
		if fi.Mode().Perm() != 0o640 {
			t.Errorf("mode %v, want 0640", fi.Mode().Perm())
		}
		if err := w.WriteFile(p, []byte("again"), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := mustRead(t, p); got != "again" {
			t.Fatalf("content %q", got)
		}
		entries, _ := os.ReadDir(filepath.Dir(p))
		if len(entries) != 1 {
			t.Errorf("the directory holds %d entries; a temporary file was left behind", len(entries))
		}
	})
}

func TestRefusesSymlinkedParent(t *testing.T) {
	writers(t, sandbox.Profile{}, func(t *testing.T, w *Writer) {
		ws, outside := tree(t)
		if err := os.Symlink(outside, filepath.Join(ws, "sub")); err != nil {
			t.Fatal(err)
		}
		err := w.WriteFile(filepath.Join(ws, "sub", "x.sh"), []byte("#!/bin/sh\n"), 0o755)
		if !errors.Is(err, ErrSymlink) {
			t.Fatalf("WriteFile through a linked directory: %v, want ErrSymlink", err)
		}
		mustNotExist(t, filepath.Join(outside, "x.sh"))
	})
}

// A directory swapped for a link after the profile's check (a command
// running at the same moment) still does not redirect the write: the
// kernel refuses the link at open time.
func TestRefusesParentSwappedAfterCheck(t *testing.T) {
	writers(t, sandbox.Profile{}, func(t *testing.T, w *Writer) {
		for _, op := range []string{"write", "remove", "chmod", "mkdir"} {
			t.Run(op, func(t *testing.T) {
				ws, outside := tree(t)
				sub := filepath.Join(ws, "sub")
				os.MkdirAll(sub, 0o755)
				os.WriteFile(filepath.Join(outside, "x"), []byte("outside"), 0o644)
				os.WriteFile(filepath.Join(sub, "x"), []byte("inside"), 0o644)
				c := *w
				c.checked = func(string) {
					os.RemoveAll(sub)
					if err := os.Symlink(outside, sub); err != nil {
						t.Fatal(err)
					}
				}
				target := filepath.Join(sub, "x")
				var err error
				switch op {
				case "write":
					err = c.WriteFile(target, []byte("pwned"), 0o755)
				case "remove":
					err = c.Remove(target)
				case "chmod":
					err = c.Chmod(target, 0o777)
				case "mkdir":
					err = c.MkdirAll(filepath.Join(sub, "d"), 0o755)
				}
				if !errors.Is(err, ErrSymlink) {
					t.Fatalf("%s: %v, want ErrSymlink", op, err)
				}
				if got := mustRead(t, filepath.Join(outside, "x")); got != "outside" {
					t.Errorf("the file outside now holds %q", got)
				}
				if fi, _ := os.Stat(filepath.Join(outside, "x")); fi.Mode().Perm() != 0o644 {
					t.Errorf("the file outside has mode %v", fi.Mode().Perm())
				}
				mustNotExist(t, filepath.Join(outside, "d"))
			})
		}
	})
}

func TestRefusesLinkInsideWorkspace(t *testing.T) {
	writers(t, sandbox.Profile{}, func(t *testing.T, w *Writer) {
		ws, _ := tree(t)
		os.MkdirAll(filepath.Join(ws, "real"), 0o755)
		os.Symlink("real", filepath.Join(ws, "alias"))
		err := w.WriteFile(filepath.Join(ws, "alias", "f"), []byte("x"), 0o644)
		if !errors.Is(err, ErrSymlink) {
			t.Fatalf("WriteFile through a link inside the working dir: %v, want ErrSymlink", err)
		}
		mustNotExist(t, filepath.Join(ws, "real", "f"))
		// The real path is fine.
		if err := w.WriteFile(filepath.Join(ws, "real", "f"), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	})
}

// A link at the last component swapped in after the check is replaced,
// never written through.
func TestFinalLinkIsReplacedNotFollowed(t *testing.T) {
	writers(t, sandbox.Profile{}, func(t *testing.T, w *Writer) {
		ws, outside := tree(t)
		target := filepath.Join(ws, "f")
		os.WriteFile(target, []byte("old"), 0o644)
		os.WriteFile(filepath.Join(outside, "victim"), []byte("victim"), 0o644)
		c := *w
		c.checked = func(string) {
			os.Remove(target)
			os.Symlink(filepath.Join(outside, "victim"), target)
		}
		if err := c.WriteFile(target, []byte("new"), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := mustRead(t, filepath.Join(outside, "victim")); got != "victim" {
			t.Errorf("the link's target was written: %q", got)
		}
		if fi, _ := os.Lstat(target); !fi.Mode().IsRegular() {
			t.Errorf("%s is %v, want the regular file written", target, fi.Mode())
		}
	})
}

func TestModeIsLimited(t *testing.T) {
	writers(t, sandbox.Profile{}, func(t *testing.T, w *Writer) {
		ws, _ := tree(t)
		w2 := *w
		w2.hooks = hookDirs(ws)
		p := filepath.Join(ws, "tool")
		if err := w2.WriteFile(p, []byte("x"), fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky|0o4755); err != nil {
			t.Fatal(err)
		}
		fi, _ := os.Stat(p)
		if fi.Mode()&(fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky) != 0 || fi.Mode().Perm() != 0o755 {
			t.Errorf("mode %v, want -rwxr-xr-x without setuid, setgid or sticky", fi.Mode())
		}
		if err := w2.Chmod(p, fs.ModeSetuid|0o755); err != nil {
			t.Fatal(err)
		}
		if fi, _ := os.Stat(p); fi.Mode()&fs.ModeSetuid != 0 {
			t.Errorf("Chmod set setuid: %v", fi.Mode())
		}
		for _, hook := range []string{".git/hooks/pre-commit", ".git/modules/sub/hooks/post-checkout", "vendor/lib/.git/hooks/pre-push"} {
			p := filepath.Join(ws, hook)
			if err := w2.WriteFile(p, []byte("#!/bin/sh\nid\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			if fi, _ := os.Stat(p); fi.Mode().Perm()&0o111 != 0 {
				t.Errorf("%s was written with execute bits: %v", hook, fi.Mode())
			}
			if err := w2.Chmod(p, 0o755); err != nil {
				t.Fatal(err)
			}
			if fi, _ := os.Stat(p); fi.Mode().Perm()&0o111 != 0 {
				t.Errorf("Chmod gave %s execute bits: %v", hook, fi.Mode())
			}
		}
	})
}

func TestCoreHooksPath(t *testing.T) {
	ws, _ := tree(t)
	os.MkdirAll(filepath.Join(ws, ".git"), 0o755)
	os.WriteFile(filepath.Join(ws, ".git", "config"), []byte("[core]\n\tbare = false\n\thooksPath = tools/githooks ; shared hooks\n[remote \"origin\"]\n\turl = x\n"), 0o644)
	w := New(sandbox.Profile{Dir: ws})
	p := filepath.Join(ws, "tools", "githooks", "pre-commit")
	if err := w.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm()&0o111 != 0 {
		t.Errorf("a file in core.hooksPath got execute bits: %v", fi.Mode())
	}
	if m := w.Mode(filepath.Join(ws, "tools", "build.sh"), 0o755); m != 0o755 {
		t.Errorf("a script outside the hooks lost its execute bits: %v", m)
	}
}

func TestWorktreeHooks(t *testing.T) {
	ws, other := tree(t)
	common := filepath.Join(other, "repo.git")
	wt := filepath.Join(common, "worktrees", "feature")
	os.MkdirAll(wt, 0o755)
	os.WriteFile(filepath.Join(wt, "commondir"), []byte("../..\n"), 0o644)
	os.WriteFile(filepath.Join(ws, ".git"), []byte("gitdir: "+wt+"\n"), 0o644)
	dirs := hookDirs(ws)
	if !inGitHooks(filepath.Join(common, "hooks", "pre-commit"), dirs) {
		t.Errorf("the shared hooks dir of a worktree is not recognised: %v", dirs)
	}
}

func TestProfileIsAsked(t *testing.T) {
	base := sandboxtest.Dir(t, "fsguard-*")
	base, _ = filepath.EvalSymlinks(base)
	t.Cleanup(func() { os.RemoveAll(base) })
	ws := filepath.Join(base, "ws")
	os.MkdirAll(filepath.Join(ws, ".git", "hooks"), 0o755)
	p, err := sandbox.ProfileByName(sandbox.Workspace, ws)
	if err != nil {
		t.Fatal(err)
	}
	writers(t, p, func(t *testing.T, w *Writer) {
		var denied *sandbox.DeniedError
		if err := w.WriteFile(filepath.Join(base, "outside.txt"), []byte("x"), 0o644); !errors.As(err, &denied) {
			t.Errorf("a write outside the profile's trees: %v, want a DeniedError", err)
		}
		mustNotExist(t, filepath.Join(base, "outside.txt"))
		if err := w.WriteFile(filepath.Join(ws, ".git", "hooks", "pre-commit"), []byte("x"), 0o644); !errors.As(err, &denied) {
			t.Errorf("a write to the protected hooks: %v, want a DeniedError", err)
		}
		if err := w.WriteFile(filepath.Join(ws, "ok.txt"), []byte("x"), 0o644); err != nil {
			t.Errorf("a write inside the working dir: %v", err)
		}
	})
}

func TestRemove(t *testing.T) {
	writers(t, sandbox.Profile{}, func(t *testing.T, w *Writer) {
		ws, outside := tree(t)
		os.WriteFile(filepath.Join(ws, "f"), []byte("x"), 0o644)
		if err := w.Remove(filepath.Join(ws, "f")); err != nil {
			t.Fatal(err)
		}
		mustNotExist(t, filepath.Join(ws, "f"))
		if err := w.Remove(filepath.Join(ws, "f")); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("removing a missing file: %v, want ErrNotExist", err)
		}
		os.WriteFile(filepath.Join(outside, "keep"), []byte("x"), 0o644)
		os.Symlink(outside, filepath.Join(ws, "link"))
		if err := w.Remove(filepath.Join(ws, "link", "keep")); !errors.Is(err, ErrSymlink) {
			t.Errorf("removing through a link: %v, want ErrSymlink", err)
		}
		if _, err := os.Stat(filepath.Join(outside, "keep")); err != nil {
			t.Errorf("the file outside is gone: %v", err)
		}
	})
}
