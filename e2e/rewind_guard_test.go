package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/testserver"
)

// Class 1 through the interactive /rewind: after a turn that changed
// scripts/deploy.sh, a command replaces the scripts directory by a link
// to a directory outside the working dir (one the workspace profile may
// write: a temp dir) holding a deploy.sh just like the one quire left, so
// the rewind sees no conflict. Rewinding must not follow the link: the
// file outside keeps its content and mode (no execute bit from the
// recorded 0755), and the user is told why.
func TestRewindDoesNotFollowALinkSwappedIn(t *testing.T) {
	p := newPane(t, 160, 30)
	outside := filepath.Join(p.home, "outside")
	os.MkdirAll(outside, 0o755)
	victim := filepath.Join(outside, "deploy.sh")
	os.WriteFile(victim, []byte("#!/bin/sh\necho v1\n"), 0o644)
	scripts := filepath.Join(p.dir, "scripts")
	os.MkdirAll(scripts, 0o755)
	os.WriteFile(filepath.Join(scripts, "deploy.sh"), []byte("#!/bin/sh\necho v0\n"), 0o755)
	srv := startServer(t, testserver.Script{Responses: []testserver.Response{
		testserver.Call("w1", "write_file", `{"path":"scripts/deploy.sh","content":"#!/bin/sh\necho v1\n"}`),
		textResponse("Wrote v1.\n", 0),
		testserver.Call("s1", "shell", fmt.Sprintf(`{"command":"rm -rf scripts && ln -s %s scripts"}`, outside)),
		textResponse("Linked.\n", 0),
	}})
	p.run(srv.URL(), "--approval", "yolo")
	p.waitText("Ask anything", 10*time.Second)
	p.literal("write v1")
	p.keys("Enter")
	p.waitText("Wrote v1", 10*time.Second)
	p.literal("swap the directory")
	p.keys("Enter")
	p.waitText("Linked", 10*time.Second)
	if fi, err := os.Lstat(scripts); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the setup did not swap in the link: %v, %v", fi, err)
	}
	p.literal("/rewind 1 files")
	p.keys("Enter")
	s := p.waitFor("the rewind to answer", 10*time.Second, func(s string) bool {
		return strings.Contains(s, "restoring files") || strings.Contains(s, "files restored")
	})
	if b, _ := os.ReadFile(victim); string(b) != "#!/bin/sh\necho v1\n" {
		t.Errorf("the rewind wrote through the link: %s holds %q\n%s", victim, b, s)
	}
	if fi, _ := os.Stat(victim); fi.Mode().Perm() != 0o644 {
		t.Errorf("the rewind changed the mode of %s to %v", victim, fi.Mode())
	}
	if !strings.Contains(s, "restoring files") {
		t.Errorf("the refusal is not shown:\n%s", s)
	}
	quit(p)
}
