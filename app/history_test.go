package app

import (
	"os"
	"path/filepath"
	"testing"
)

func TestHistoryPersistsAcrossSessions(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "history.jsonl")
	h, err := LoadHistory(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"first", "multi\nline", "multi\nline", "third"} {
		if err := h.Add(p); err != nil {
			t.Fatal(err)
		}
	}
	// A torn last line (a crash mid-write) must not lose the rest.
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`"unterminated`)
	f.Close()

	h2, err := LoadHistory(path)
	if err != nil {
		t.Fatal(err)
	}
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

func TestHistorySearch(t *testing.T) {
	h, _ := LoadHistory("")
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
