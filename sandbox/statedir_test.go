package sandbox

import (
	"os"
	"path/filepath"
	"testing"
)

// A state dir that cannot be resolved (here a symlink loop) leaves an
// empty entry among the writable trees. It must make nothing writable:
// the profile's check once compared paths by string prefix, under which
// "" held every absolute path; it now asks pathx.Within, under which ""
// is the relative ".", holding no absolute path.
func TestUnresolvableStateDirMakesNothingElseWritable(t *testing.T) {
	f := newFixture(t)
	loop := filepath.Join(f.base, "loop")
	if err := os.Symlink(loop, loop); err != nil {
		t.Fatal(err)
	}
	t.Setenv("QUIRE_HOME", loop)
	p := f.profile(t, Workspace)
	if _, err := p.CanWrite(filepath.Join(f.out, "x")); err == nil {
		t.Errorf("a file outside the working directory is writable; writable trees %q", p.Write)
	}
	if _, err := p.CanWrite(filepath.Join(f.ws, "x")); err != nil {
		t.Errorf("the working directory is not writable: %v", err)
	}
}
