package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/event"
)

// failingDisk makes a writer's commits fail with errno while on is set,
// the way bbolt reports a write the file system refused.
func failingDisk(w *Writer, errno syscall.Errno) *atomic.Bool {
	var on atomic.Bool
	real := w.commit
	w.commit = func(batch []encoded, sum Summary) error {
		if on.Load() {
			return &fs.PathError{Op: "write", Path: filepath.Join(filepath.Dir(w.dir), ".tmp-stale", "events.db"), Err: errno}
		}
		return real(batch, sum)
	}
	return &on
}

func ev(seq uint64, kind event.Kind, text string) event.Event {
	return event.Event{V: event.SchemaVersion, Seq: seq, Time: time.Now(), Kind: kind, Turn: 1, Text: text}
}

func seqs(t *testing.T, w *Writer) string {
	t.Helper()
	events, err := w.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, e := range events {
		fmt.Fprintf(&b, "%d:%s ", e.Seq, e.Text)
	}
	return strings.TrimSpace(b.String())
}

// A commit that fails (ENOSPC, EIO, EROFS) loses nothing: the events wait
// and go out, in order, with the next commit that succeeds; a prompt that
// could not be acknowledged leaves no trace.
func TestFailedCommitKeepsEventsForTheNextOne(t *testing.T) {
	for _, errno := range []syscall.Errno{syscall.ENOSPC, syscall.EIO, syscall.EROFS} {
		t.Run(errno.Error(), func(t *testing.T) {
			st := newTestStore(t, Options{GroupWindow: time.Hour})
			w, err := st.Create("", "/p")
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			disk := failingDisk(w, errno)
			if err := w.Record(ev(1, event.UserMessage, "first"), true); err != nil {
				t.Fatal(err)
			}
			disk.Store(true)
			if err := w.Record(ev(2, event.AssistantDelta, "a"), false); err != nil {
				t.Fatalf("a queued event failed before any commit: %v", err)
			}
			err = w.Flush()
			var serr *SaveError
			if !errors.As(err, &serr) || !errors.Is(err, errno) {
				t.Fatalf("Flush on a failing disk: %v, want a SaveError wrapping %v", err, errno)
			}
			want := "saving the session failed: " + errno.Error() + " (" + w.path + ")"
			if err.Error() != want {
				t.Errorf("the error reads %q, want %q", err, want)
			}
			if err := w.Record(ev(3, event.AssistantDelta, "b"), false); !errors.As(err, &serr) {
				t.Errorf("Record while failing: %v, want the SaveError", err)
			}
			if err := w.Record(ev(4, event.UserMessage, "refused"), true); !errors.As(err, &serr) {
				t.Fatalf("a durable Record on a failing disk: %v", err)
			}
			if w.LastSeq() != 3 {
				t.Errorf("the refused prompt was kept: LastSeq %d", w.LastSeq())
			}
			// The engine did not emit the refused prompt, so its seq comes again.
			if err := w.Record(ev(4, event.AssistantDelta, "c"), false); !errors.As(err, &serr) {
				t.Fatalf("Record after a refused prompt: %v", err)
			}
			disk.Store(false) // space returns
			if err := w.Record(ev(5, event.UserMessage, "second"), true); err != nil {
				t.Fatalf("the disk works again, yet: %v", err)
			}
			if w.Failing() != nil {
				t.Errorf("still failing: %v", w.Failing())
			}
			// Fragments that a failed commit encoded stay apart.
			if got := seqs(t, w); got != "1:first 2:a 3:b 4:c 5:second" {
				t.Errorf("the log holds %q", got)
			}
		})
	}
}

// Nobody needs to write for a failed commit to be retried.
func TestFailedCommitIsRetried(t *testing.T) {
	st := newTestStore(t, Options{GroupWindow: time.Millisecond})
	w, err := st.Create("", "/p")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	disk := failingDisk(w, syscall.ENOSPC)
	disk.Store(true)
	w.Record(ev(1, event.SessionStarted, "s"), false)
	for deadline := time.Now().Add(10 * time.Second); w.Failing() == nil; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the window's commit never failed")
		}
	}
	disk.Store(false)
	for deadline := time.Now().Add(20 * time.Second); w.Failing() != nil; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no retry succeeded: %v", w.Failing())
		}
	}
	if got := seqs(t, w); got != "1:s" {
		t.Errorf("the log holds %q", got)
	}
}

// TestFullDisk fills a real (tmpfs) file system under a session: the
// failure is reported, an earlier session stays readable, and once space
// returns the session goes on with nothing lost. It mounts the tmpfs as
// root, or as an unprivileged user inside `unshare -rm`.
func TestFullDisk(t *testing.T) {
	dir := mountSmallTmpfs(t)
	if dir == "" {
		return // ran in a namespace, or skipped
	}
	st, err := Open(filepath.Join(dir, "state"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	earlier, err := st.Create("", "/p")
	if err != nil {
		t.Fatal(err)
	}
	earlier.Record(ev(1, event.UserMessage, "earlier"), true)
	if err := earlier.Close(); err != nil {
		t.Fatal(err)
	}

	w, err := st.Create("", "/p")
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Record(ev(1, event.UserMessage, "go"), true); err != nil {
		t.Fatal(err)
	}
	filler := filepath.Join(dir, "filler")
	fill(t, filler)

	var seq uint64 = 1
	var failed error
	deltaText := strings.Repeat("x", 1000)
	for i := 0; i < 5000 && failed == nil; i++ {
		seq++
		if err := w.Record(ev(seq, event.AssistantDelta, deltaText), false); err != nil {
			failed = err
		} else if i%100 == 99 {
			failed = w.Flush()
		}
	}
	var serr *SaveError
	if !errors.As(failed, &serr) || !errors.Is(failed, syscall.ENOSPC) {
		t.Fatalf("filling the disk: %v, want a SaveError for ENOSPC", failed)
	}
	if !strings.HasPrefix(failed.Error(), "saving the session failed: no space left on device (") {
		t.Errorf("the error reads %q", failed)
	}
	if err := w.Record(ev(seq+1, event.UserMessage, "refused"), true); err == nil {
		t.Fatal("a prompt was acknowledged on a full disk")
	}
	r, err := st.OpenReader(earlier.ID())
	if err != nil {
		t.Fatalf("an earlier session is unreadable while the disk is full: %v", err)
	}
	if evs, err := r.ReadAll(); err != nil || len(evs) != 1 || evs[0].Text != "earlier" {
		t.Errorf("the earlier session reads %+v, %v", evs, err)
	}
	r.Close()

	os.Remove(filler) // space returns
	seq++
	if err := w.Record(ev(seq, event.UserMessage, "again"), true); err != nil {
		t.Fatalf("the session cannot go on once space returned: %v", err)
	}
	events, err := w.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if n := len(events); n == 0 || events[n-1].Seq != seq {
		t.Fatalf("the log ends %+v, want at seq %d", events[max(n-1, 0):], seq)
	}
	if err := holeFree(events, 0, func(text string) int { return len(text) / len(deltaText) }); err != nil {
		t.Fatal(err)
	}
	id := w.ID()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := st.Append(id)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if evs, err := again.ReadAll(); err != nil || len(evs) != len(events) || evs[len(evs)-1].Text != "again" {
		t.Fatalf("after reopening: %d events, %v", len(evs), err)
	}
}

// fill writes path until the file system is full.
func fill(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 4096)
	for {
		if _, err := f.Write(buf); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			return
		}
	}
}

const inNamespaceEnv = "QUIRE_STORE_TEST_IN_NAMESPACE"

// mountSmallTmpfs returns a fresh 512 KiB tmpfs, unmounted at cleanup. As
// an unprivileged user it reruns the calling test inside `unshare -rm`
// (a user and mount namespace, where mounting is allowed) and returns "".
// It skips the test, saying why, when neither works.
func mountSmallTmpfs(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=512k"); err == nil {
		t.Cleanup(func() { syscall.Unmount(dir, syscall.MNT_DETACH) })
		return dir
	} else if os.Getenv(inNamespaceEnv) != "" {
		t.Fatalf("mounting a tmpfs inside the namespace: %v", err)
	}
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		t.Skip("cannot mount a tmpfs (not root) and unshare(1) is missing: the full-disk path is covered by TestFailedCommitKeepsEventsForTheNextOne's fault injection only")
	}
	cmd := exec.Command(unshare, "-rm", os.Args[0], "-test.run=^"+t.Name()+"$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), inNamespaceEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		if strings.Contains(string(out), "unshare failed") || strings.Contains(string(out), "Operation not permitted") && !strings.Contains(string(out), "--- FAIL") {
			t.Skipf("cannot mount a tmpfs: not root, and user namespaces are not allowed here (%s); the fault injection tests cover the same paths", strings.TrimSpace(string(out)))
		}
		t.Fatalf("in a user namespace: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "--- PASS: "+t.Name()) {
		t.Fatalf("the namespaced run did not pass:\n%s", out)
	}
	return ""
}
