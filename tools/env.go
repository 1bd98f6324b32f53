package tools

import (
	"fmt"
	"path/filepath"

	"github.com/quire-sh/quire/fsguard"
	"github.com/quire-sh/quire/internal/pathx"
	"github.com/quire-sh/quire/sandbox"
)

// Env is what every call runs in: the working directory, the sandbox
// profile the file tools enforce in-process and the shell tool hands to the
// launcher, and a hook the engine uses to snapshot a file before its first
// change in a turn (checkpoints for /rewind).
type Env struct {
	// Dir is the absolute, symlink-resolved working directory.
	Dir string
	// BeforeWrite, when set, is called with the call's turn and the
	// absolute path of a file before a tool changes or creates it. An
	// error aborts the write.
	BeforeWrite func(turn int, path string) error
	// Profile is the sandbox profile. Its zero value enforces nothing;
	// build Envs with NewEnv.
	Profile sandbox.Profile
	// Support is what this machine's kernel can enforce, detected once by
	// NewEnv; the shell tool refuses to run when Profile.Check(Support)
	// fails.
	Support sandbox.Support
	// Writer is the guarded writer every file tool writes through, built
	// by NewEnv for Profile; the session wiring hands the same one to the
	// checkpoints, so /rewind writes the way the tools do. When nil, one
	// is built for Profile at each write.
	Writer *fsguard.Writer
}

// NewEnv returns an Env for the working directory dir (symlinks resolved)
// under profile. It detects the kernel's sandbox support once.
func NewEnv(dir string, profile sandbox.Profile) (*Env, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("working directory %q: %w", dir, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("working directory %q: %w", dir, err)
	}
	return &Env{Dir: real, Profile: profile, Support: sandbox.Detect(), Writer: fsguard.New(profile)}, nil
}

// writer is the guarded writer for this Env's profile.
func (e *Env) writer() *fsguard.Writer {
	if e.Writer != nil {
		return e.Writer
	}
	return fsguard.New(e.Profile)
}

// abs interprets a path argument relative to the working directory.
func (e *Env) abs(p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(e.Dir, p)
}

// readPath resolves a path argument for reading under the profile.
func (e *Env) readPath(p string) (string, error) {
	return e.Profile.CanRead(e.abs(p))
}

// reach is the absolute path a read-only call reads, symlinks resolved
// where they can be, for ordering it among the calls of a batch; "" is
// the working directory.
func (e *Env) reach(p string) string {
	if p == "" {
		p = "."
	}
	if r, err := e.readPath(p); err == nil {
		return r
	}
	return e.abs(p)
}

// writePath resolves a path argument for writing under the profile.
func (e *Env) writePath(p string) (string, error) {
	return e.Profile.CanWrite(e.abs(p))
}

// beforeWrite runs the checkpoint hook, if any.
func (e *Env) beforeWrite(turn int, path string) error {
	if e.BeforeWrite == nil {
		return nil
	}
	if err := e.BeforeWrite(turn, path); err != nil {
		return fmt.Errorf("checkpoint before writing %s: %w", path, err)
	}
	return nil
}

// inDir reports whether every path lies inside the working directory.
func (e *Env) inDir(paths []string) bool {
	for _, p := range paths {
		if !pathx.Within(p, e.Dir) {
			return false
		}
	}
	return true
}

// display is how a path is shown to the model and the user: relative to
// the working directory when inside it, absolute otherwise.
func (e *Env) display(p string) string {
	if rel, ok := pathx.Rel(e.Dir, p); ok {
		return rel
	}
	return p
}
