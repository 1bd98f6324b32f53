package app

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestHistoryPersistsAcrossSessions(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "history.jsonl")
	var h History
	for _, p := range []string{"first", "multi\nline", "multi\nline", "third"} {
		if h.Add(p) {
			if err := AppendHistory(path, []string{p}); err != nil {
				t.Fatal(err)
			}
		}
	}
	// A torn last line (a crash mid-write) must not lose the rest.
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`"unterminated`)
	f.Close()

	entries, err := ReadHistory(path)
	if err != nil {
		t.Fatal(err)
	}
	var h2 History
	h2.prepend(entries)
	if h2.Len() != 3 {
		t.Fatalf("loaded %d entries, want 3 (duplicate collapsed, torn line skipped)", h2.Len())
	}
	got, ok := h2.Prev("my draft")
	if !ok || got != "third" {
		t.Fatalf("Prev = %q, %v", got, ok)
	}
	got, _ = h2.Prev("")
	if got != "multi\nline" {
		t.Fatalf("multi-line entry came back as %q", got)
	}
	h2.Next()
	if got, _ := h2.Next(); got != "my draft" {
		t.Fatalf("browsing past the newest entry must restore the draft, got %q", got)
	}
	if _, ok := h2.Next(); ok {
		t.Fatal("Next past the draft must report false")
	}
}

// The file is read after the session starts; prompts sent before it
// arrived stay the newest.
func TestHistoryReadLateKeepsNewerPrompts(t *testing.T) {
	var h History
	h.Add("sent while loading")
	h.prepend([]string{"old one", "old two"})
	want := []string{"old one", "old two", "sent while loading"}
	if !reflect.DeepEqual(h.entries, want) {
		t.Fatalf("entries %q, want %q", h.entries, want)
	}
	if got, _ := h.Prev(""); got != "sent while loading" {
		t.Fatalf("Up shows %q first", got)
	}
}

func TestHistorySearch(t *testing.T) {
	var h History
	for _, p := range []string{"fix the build", "run tests", "fix the docs"} {
		h.Add(p)
	}
	got, i, ok := h.Search("fix", h.Len())
	if !ok || got != "fix the docs" {
		t.Fatalf("first match %q", got)
	}
	got, _, ok = h.Search("fix", i)
	if !ok || got != "fix the build" {
		t.Fatalf("second match %q", got)
	}
	if _, _, ok := h.Search("nothing", h.Len()); ok {
		t.Fatal("matched a missing query")
	}
}

func TestHistoryFileErrorsAreReported(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "file")
	os.WriteFile(blocker, nil, 0o600)
	if err := AppendHistory(filepath.Join(blocker, "history.jsonl"), []string{"x"}); err == nil {
		t.Fatal("an append under a file must fail")
	}
	if _, err := ReadHistory(dir); err == nil {
		t.Fatal("reading a directory as the history must fail")
	}
}
