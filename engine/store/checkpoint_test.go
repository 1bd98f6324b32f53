package store

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// ckFixture is a session plus a working directory whose files the "tools"
// change through the checkpoint hook, as the engine wires it.
type ckFixture struct {
	t    *testing.T
	st   *Store
	w    *Writer
	cp   *Checkpoints
	root string
}

func newCkFixture(t *testing.T) *ckFixture {
	st := newTestStore(t, Options{})
	root := t.TempDir()
	w, err := st.Create("", root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return &ckFixture{t: t, st: st, w: w, cp: w.Checkpoints(root, plainFiles{}), root: root}
}

func (f *ckFixture) path(name string) string { return filepath.Join(f.root, name) }

// write is a tool writing a file in a turn.
func (f *ckFixture) write(turn int, name, content string) {
	f.t.Helper()
	p := f.path(name)
	if err := f.cp.Hook(turn)(p); err != nil {
		f.t.Fatal(err)
	}
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

func (f *ckFixture) remove(turn int, name string) {
	f.t.Helper()
	if err := f.cp.BeforeWrite(turn, f.path(name)); err != nil {
		f.t.Fatal(err)
	}
	os.Remove(f.path(name))
}

func (f *ckFixture) endTurn(turn int) {
	f.t.Helper()
	if err := f.cp.EndTurn(turn); err != nil {
		f.t.Fatal(err)
	}
}

// disk lists the files under root with their content, "name=content".
func (f *ckFixture) disk() string {
	var out []string
	filepath.WalkDir(f.root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(f.root, p)
			out = append(out, rel+"="+string(b))
		}
		return nil
	})
	sort.Strings(out)
	return strings.Join(out, " ")
}

func (f *ckFixture) rewind(turn int, opts RewindOptions) RewindReport {
	f.t.Helper()
	rep, err := f.cp.Rewind(turn, opts)
	if err != nil {
		f.t.Fatal(err)
	}
	return rep
}

func actions(rep RewindReport) string {
	var out []string
	for _, x := range rep.Files {
		s := filepath.Base(x.Path) + ":" + string(x.Action)
		if x.Conflict != NoConflict {
			s += "!" + string(x.Conflict)
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

func TestRewindRestoresFirstSnapshotOfTheTurn(t *testing.T) {
	f := newCkFixture(t)
	os.WriteFile(f.path("f"), []byte("v0"), 0o600)
	f.write(1, "f", "v1")
	f.write(1, "f", "v2") // second write in the turn: the first snapshot wins
	f.write(1, "new.txt", "created")
	f.endTurn(1)
	if got := f.disk(); got != "f=v2 new.txt=created" {
		t.Fatalf("disk = %q", got)
	}
	dry := f.rewind(1, RewindOptions{})
	if got := actions(dry); got != "f:restore new.txt:delete" || dry.Applied {
		t.Fatalf("dry run = %q applied=%v", got, dry.Applied)
	}
	if got := f.disk(); got != "f=v2 new.txt=created" {
		t.Fatalf("a dry run wrote: %q", got)
	}
	rep := f.rewind(1, RewindOptions{Apply: true})
	if !rep.Applied || f.disk() != "f=v0" {
		t.Fatalf("after rewind: disk %q, report %+v", f.disk(), rep)
	}
	st, _ := os.Stat(f.path("f"))
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v not restored", st.Mode())
	}
	if pts, _ := f.cp.Points(); len(pts) != 0 {
		t.Fatalf("checkpoints left after a full rewind: %+v", pts)
	}
}

func TestRewindAcrossTurns(t *testing.T) {
	f := newCkFixture(t)
	os.WriteFile(f.path("a"), []byte("a0"), 0o644)
	f.write(1, "a", "a1")
	f.endTurn(1)
	f.write(2, "a", "a2")
	f.write(2, "b", "b2")
	f.endTurn(2)
	f.write(3, "c", "c3")
	f.remove(3, "a")
	f.endTurn(3)
	pts, err := f.cp.Points()
	if err != nil || len(pts) != 3 || pts[2].Turn != 3 || len(pts[2].Files) != 2 {
		t.Fatalf("points = %+v, %v", pts, err)
	}
	f.rewind(3, RewindOptions{Apply: true})
	if got := f.disk(); got != "a=a2 b=b2" {
		t.Fatalf("rewind to 3: %q", got)
	}
	f.rewind(2, RewindOptions{Apply: true})
	if got := f.disk(); got != "a=a1" {
		t.Fatalf("rewind to 2: %q", got)
	}
	f.rewind(1, RewindOptions{Apply: true})
	if got := f.disk(); got != "a=a0" {
		t.Fatalf("rewind to 1: %q", got)
	}
}

func TestRewindReportsFilesChangedBySomeoneElse(t *testing.T) {
	f := newCkFixture(t)
	os.WriteFile(f.path("mod"), []byte("m0"), 0o644)
	os.WriteFile(f.path("del"), []byte("d0"), 0o644)
	os.WriteFile(f.path("gone"), []byte("g0"), 0o644)
	f.write(1, "mod", "m1")
	f.write(1, "del", "d1")
	f.remove(1, "gone")
	f.write(1, "mine", "x1")
	f.endTurn(1)
	// Someone else, after the turn:
	os.WriteFile(f.path("mod"), []byte("edited by hand"), 0o644)
	os.Remove(f.path("del"))
	os.WriteFile(f.path("gone"), []byte("recreated"), 0o644)

	rep := f.rewind(1, RewindOptions{Apply: true})
	want := "del:restore!deleted gone:restore!created mine:delete mod:restore!modified"
	if got := actions(rep); got != want {
		t.Fatalf("report = %q, want %q", got, want)
	}
	if len(rep.Conflicts()) != 3 {
		t.Fatalf("conflicts = %+v", rep.Conflicts())
	}
	if got := f.disk(); got != "gone=recreated mod=edited by hand" {
		t.Fatalf("someone else's changes were clobbered: %q", got)
	}
	// The conflicted files keep their checkpoints: overwrite on request.
	rep = f.rewind(1, RewindOptions{Apply: true, Overwrite: true})
	if got := f.disk(); got != "del=d0 gone=g0 mod=m0" {
		t.Fatalf("overwrite: disk %q, report %q", got, actions(rep))
	}
}

func TestCheckpointIgnoresPathsOutsideRoot(t *testing.T) {
	f := newCkFixture(t)
	outside := filepath.Join(t.TempDir(), "outside")
	os.WriteFile(outside, []byte("o0"), 0o644)
	if err := f.cp.BeforeWrite(1, outside); err != nil {
		t.Fatal(err)
	}
	if err := f.cp.BeforeWrite(1, f.root+"-sibling/x"); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(outside, []byte("o1"), 0o644)
	f.endTurn(1)
	if pts, _ := f.cp.Points(); len(pts) != 0 {
		t.Fatalf("recorded a path outside the root: %+v", pts)
	}
	f.rewind(1, RewindOptions{Apply: true})
	if b, _ := os.ReadFile(outside); string(b) != "o1" {
		t.Fatal("rewind touched a file outside the root")
	}
	if err := f.cp.BeforeWrite(1, "relative/path"); err == nil {
		t.Fatal("a relative path was accepted")
	}
}

func TestRewindFailureKeepsCheckpoints(t *testing.T) {
	f := newCkFixture(t)
	os.Mkdir(f.path("d"), 0o755)
	os.WriteFile(f.path("d/f"), []byte("v0"), 0o644)
	f.write(1, "d/f", "v1")
	f.endTurn(1)
	// The directory is replaced by a file: nothing can be written under it.
	os.RemoveAll(f.path("d"))
	os.WriteFile(f.path("d"), []byte("in the way"), 0o644)
	if _, err := f.cp.Rewind(1, RewindOptions{Apply: true, Overwrite: true}); err == nil {
		t.Fatal("rewind under a file succeeded")
	}
	if pts, _ := f.cp.Points(); len(pts) != 1 {
		t.Fatalf("a failed rewind dropped checkpoints: %+v", pts)
	}
	os.Remove(f.path("d"))
	f.rewind(1, RewindOptions{Apply: true, Overwrite: true})
	if got := f.disk(); got != "d/f=v0" {
		t.Fatalf("retry: %q", got)
	}
}

func TestCheckpointsSurviveReopen(t *testing.T) {
	f := newCkFixture(t)
	os.WriteFile(f.path("f"), []byte("v0"), 0o644)
	f.write(1, "f", "v1")
	// No EndTurn: the process died mid-turn.
	f.w.Close()
	w, err := f.st.Append(f.w.ID())
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	rep, err := w.Checkpoints(f.root, plainFiles{}).Rewind(1, RewindOptions{Apply: true})
	if err != nil || actions(rep) != "f:restore" {
		t.Fatalf("rewind after reopen: %q, %v", actions(rep), err)
	}
	if got := f.disk(); got != "f=v0" {
		t.Fatalf("disk = %q", got)
	}
}

func TestCheckpointSkipsWhatItCannotKeep(t *testing.T) {
	f := newCkFixture(t)
	os.Symlink("target", f.path("link"))
	if err := f.cp.BeforeWrite(1, f.path("link")); err != nil {
		t.Fatal(err)
	}
	f.endTurn(1)
	rep := f.rewind(1, RewindOptions{Apply: true})
	if len(rep.Files) != 1 || rep.Files[0].Action != Unchanged && rep.Files[0].Action != Skip {
		t.Fatalf("report = %+v", rep)
	}
	if _, err := os.Lstat(f.path("link")); errors.Is(err, fs.ErrNotExist) {
		t.Fatal("the symlink was removed")
	}
}

// A rewind writes only through the FileWriter it was given, and refuses
// to write at all without one.
func TestRewindWritesThroughTheFileWriter(t *testing.T) {
	f := newCkFixture(t)
	os.WriteFile(f.path("kept"), []byte("v0"), 0o644)
	os.WriteFile(f.path("mode"), []byte("same"), 0o644)
	f.write(1, "kept", "v1")
	f.write(1, "new", "n1")
	if err := f.cp.BeforeWrite(1, f.path("mode")); err != nil {
		t.Fatal(err)
	}
	os.Chmod(f.path("mode"), 0o755)
	f.endTurn(1)

	bare := f.w.Checkpoints(f.root, nil)
	if rep, err := bare.Rewind(1, RewindOptions{}); err != nil || len(rep.Files) != 3 {
		t.Fatalf("a dry run without a writer: %+v, %v", rep, err)
	}
	if _, err := bare.Rewind(1, RewindOptions{Apply: true}); !errors.Is(err, ErrNoFileWriter) {
		t.Fatalf("applying without a writer: %v, want ErrNoFileWriter", err)
	}
	if got := f.disk(); got != "kept=v1 mode=same new=n1" {
		t.Fatalf("a refused rewind changed files: %q", got)
	}
	if pts, _ := f.cp.Points(); len(pts) != 1 {
		t.Fatalf("a refused rewind dropped checkpoints: %+v", pts)
	}

	var calls []string
	rep, err := f.w.Checkpoints(f.root, plainFiles{calls: &calls}).Rewind(1, RewindOptions{Apply: true})
	if err != nil || !rep.Applied {
		t.Fatalf("rewind: %+v, %v", rep, err)
	}
	sort.Strings(calls)
	if got := strings.Join(calls, ", "); got != "chmod mode, remove new, write kept" {
		t.Errorf("the writer was asked to %q", got)
	}
	if fi, _ := os.Stat(f.path("mode")); fi.Mode().Perm() != 0o644 {
		t.Errorf("mode not restored: %v", fi.Mode())
	}
}
