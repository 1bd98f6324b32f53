package trust

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
)

func TestDecisionsFollowTheContent(t *testing.T) {
	s := Open(t.TempDir())
	proj := "/src/p"
	if d, err := s.Check(proj, ".mcp.json", []byte("a")); err != nil || d != Unknown {
		t.Fatalf("fresh store: %q %v", d, err)
	}
	if err := s.Decide(proj, ".mcp.json", []byte("a"), Trusted); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		project, file, content string
		want                   Decision
	}{
		{proj, ".mcp.json", "a", Trusted},
		{proj, ".mcp.json", "a changed", Unknown},
		{proj, ".quire/hooks.json", "a", Unknown},
		{"/src/other", ".mcp.json", "a", Unknown},
	}
	for _, tt := range tests {
		if d, err := s.Check(tt.project, tt.file, []byte(tt.content)); err != nil || d != tt.want {
			t.Errorf("%s %s %q: %q %v, want %q", tt.project, tt.file, tt.content, d, err, tt.want)
		}
	}
	// A new decision about the same file replaces the old one.
	if err := s.Decide(proj, ".mcp.json", []byte("b"), Declined); err != nil {
		t.Fatal(err)
	}
	if d, _ := s.Check(proj, ".mcp.json", []byte("a")); d != Unknown {
		t.Errorf("old content still %q", d)
	}
	if d, _ := s.Check(proj, ".mcp.json", []byte("b")); d != Declined {
		t.Errorf("declined content is %q", d)
	}
	if n, err := s.Forget(proj); err != nil || n != 1 {
		t.Fatalf("forget: %d %v", n, err)
	}
	if d, _ := s.Check(proj, ".mcp.json", []byte("b")); d != Unknown {
		t.Errorf("after forget: %q", d)
	}
	if err := s.Decide(proj, "x", nil, Unknown); err == nil {
		t.Error("Unknown is not a decision to record")
	}
}

func TestTheFileIsPrivateAndADamagedOneTrustsNothing(t *testing.T) {
	dir := t.TempDir()
	s := Open(dir)
	if err := s.Decide("/p", "f", []byte("x"), Trusted); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", st.Mode().Perm())
	}
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if d, err := s.Check("/p", "f", []byte("x")); err == nil || d != Unknown {
		t.Errorf("damaged file: %q %v", d, err)
	}
}

// Two processes deciding at once both keep their decisions: each store
// below opens the lock file itself, as another process would.
func TestConcurrentDecisionsAreAllKept(t *testing.T) {
	dir := t.TempDir()
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			file := string(rune('a' + i))
			if err := Open(dir).Decide("/p", file, []byte(file), Trusted); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	entries, err := Open(dir).Entries()
	if err != nil || len(entries) != 20 {
		t.Fatalf("%d entries, %v", len(entries), err)
	}
}

func TestScanReadsWhatExists(t *testing.T) {
	proj := t.TempDir()
	s := Open(t.TempDir())
	if err := os.MkdirAll(filepath.Join(proj, ".quire"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(proj, ".quire", "hooks.json"), []byte(`{"hooks":{}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(proj, ".mcp.json"), 0o755); err != nil { // not a file
		t.Fatal(err)
	}
	kinds := []Kind{{Name: ".quire/hooks.json", What: "hooks"}, {Name: ".mcp.json", What: "servers"}, {Name: ".quire/config.toml", What: "settings"}}
	files, err := s.Scan(proj, kinds)
	if err == nil {
		t.Error("a directory where a file should be is not reported")
	}
	if len(files) != 1 || files[0].Name != ".quire/hooks.json" || string(files[0].Content) != `{"hooks":{}}` || files[0].Decision != Unknown {
		t.Fatalf("%+v", files)
	}
	if err := s.Decide(proj, ".quire/hooks.json", files[0].Content, Trusted); err != nil {
		t.Fatal(err)
	}
	files, _ = s.Scan(proj, kinds[:1])
	if len(files) != 1 || files[0].Decision != Trusted {
		t.Fatalf("after trusting: %+v", files)
	}
}
