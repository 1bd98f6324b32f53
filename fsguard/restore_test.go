package fsguard

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/quire-sh/quire/engine/store"
	"github.com/quire-sh/quire/sandbox"
)

// rewindFixture is a session whose checkpoints write through a guarded
// writer, as the session wiring plugs them: a file changed in turn 1
// inside ws, and a directory outside it.
type rewindFixture struct {
	ws, outside string
	cps         *store.Checkpoints
}

func newRewindFixture(t *testing.T, w *Writer, ws, outside string) *rewindFixture {
	t.Helper()
	st, err := store.Open(t.TempDir(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sw, err := st.Create("", ws)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sw.Close() })
	return &rewindFixture{ws: ws, outside: outside, cps: sw.Checkpoints(ws, w)}
}

// change is a tool changing (or creating) rel in turn 1.
func (f *rewindFixture) change(t *testing.T, rel, content string) {
	t.Helper()
	p := filepath.Join(f.ws, rel)
	if err := f.cps.BeforeWrite(1, p); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (f *rewindFixture) rewind(t *testing.T) (store.RewindReport, error) {
	t.Helper()
	if err := f.cps.EndTurn(1); err != nil {
		t.Fatal(err)
	}
	return f.cps.Rewind(1, store.RewindOptions{Apply: true, Overwrite: true})
}

// After the checkpoint, a directory on the recorded path is replaced by a
// link: to a directory outside the working dir, to the repository's
// hooks, or to another directory inside the working dir. The restore
// refuses in each case and writes nothing where the link points.
func TestRewindRefusesLinkSwappedInAfterCheckpoint(t *testing.T) {
	writers(t, sandbox.Profile{}, func(t *testing.T, w *Writer) {
		for _, to := range []string{"outside", "hooks", "inside"} {
			t.Run(to, func(t *testing.T) {
				ws, outside := tree(t)
				f := newRewindFixture(t, w, ws, outside)
				sub := filepath.Join(ws, "scripts")
				os.MkdirAll(sub, 0o755)
				os.WriteFile(filepath.Join(sub, "pre-commit"), []byte("#!/bin/sh\necho v0\n"), 0o755)
				f.change(t, "scripts/pre-commit", "#!/bin/sh\necho v1\n")
				f.change(t, "scripts/added", "new")
				target := map[string]string{
					"outside": outside,
					"hooks":   filepath.Join(ws, ".git", "hooks"),
					"inside":  filepath.Join(ws, "elsewhere"),
				}[to]
				os.MkdirAll(target, 0o755)
				os.WriteFile(filepath.Join(target, "added"), []byte("theirs"), 0o644)
				os.RemoveAll(sub)
				if err := os.Symlink(target, sub); err != nil {
					t.Fatal(err)
				}
				_, err := f.rewind(t)
				if !errors.Is(err, ErrSymlink) {
					t.Fatalf("rewind through a link: %v, want ErrSymlink", err)
				}
				mustNotExist(t, filepath.Join(target, "pre-commit"))
				if got := mustRead(t, filepath.Join(target, "added")); got != "theirs" {
					t.Errorf("the file behind the link was touched: %q", got)
				}
				if pts, _ := f.cps.Points(); len(pts) != 1 {
					t.Errorf("a refused rewind dropped its checkpoints: %+v", pts)
				}
			})
		}
	})
}

// A recorded setuid bit is not restored, nor are execute bits into git's
// hooks directory (here under the off profile, which protects nothing).
func TestRewindLimitsModes(t *testing.T) {
	writers(t, sandbox.Profile{}, func(t *testing.T, w *Writer) {
		ws, outside := tree(t)
		w2 := *w
		w2.hooks = hookDirs(ws)
		f := newRewindFixture(t, &w2, ws, outside)
		tool := filepath.Join(ws, "bin", "tool")
		hook := filepath.Join(ws, ".git", "hooks", "post-checkout")
		for _, p := range []string{tool, hook} {
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, []byte("#!/bin/sh\nv0\n"), 0o755)
		}
		if err := os.Chmod(tool, 0o755|fs.ModeSetuid|fs.ModeSetgid); err != nil {
			t.Fatal(err)
		}
		if fi, _ := os.Stat(tool); fi.Mode()&fs.ModeSetuid == 0 {
			t.Skip("this file system does not keep setuid bits")
		}
		f.change(t, "bin/tool", "v1")
		f.change(t, ".git/hooks/post-checkout", "v1")
		if _, err := f.rewind(t); err != nil {
			t.Fatal(err)
		}
		if fi, _ := os.Stat(tool); fi.Mode()&(fs.ModeSetuid|fs.ModeSetgid) != 0 || fi.Mode().Perm() != 0o755 {
			t.Errorf("restored tool has mode %v, want -rwxr-xr-x without setuid/setgid", fi.Mode())
		}
		if got := mustRead(t, tool); got != "#!/bin/sh\nv0\n" {
			t.Errorf("tool holds %q", got)
		}
		if fi, _ := os.Stat(hook); fi.Mode().Perm()&0o111 != 0 {
			t.Errorf("restored hook has execute bits: %v", fi.Mode())
		}
	})
}
