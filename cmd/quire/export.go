package main

import (
	"os"
	"path/filepath"

	"github.com/quire-sh/quire/config"
	"github.com/quire-sh/quire/engine/store"
)

// runExport is `quire export ID [-o FILE]`: a session as a portable JSONL
// transcript (a versioned header line, then one event per line).
func runExport(std stdio, args []string) int {
	c := newCommandLine("quire export", "Usage: quire export ID [-o FILE]\n\nID may be a unique prefix of a session id (see `quire sessions`).\nThe transcript is for sharing: API keys, tokens, private keys, passwords\nand secret URL parameters in it are replaced by [REDACTED], and your home\ndirectory by ~. The stored session keeps everything.")
	out := c.fs.String("o", "", "write to `FILE` instead of standard output")
	pos, err := c.parse(args)
	if err != nil {
		return c.exit(std, err)
	}
	switch len(pos) {
	case 0:
		return usageExit(std, c.name, usagef("no session id"))
	case 1:
	default:
		return usageExit(std, c.name, usagef("takes one session id, got %d arguments", len(pos)))
	}
	st, err := store.Open(config.StateDir(os.Getenv), store.Options{})
	if err != nil {
		return fail(std, err)
	}
	id, err := st.Resolve(pos[0])
	if err != nil {
		return fail(std, err)
	}
	if *out == "" {
		if err := st.Export(std.out, id); err != nil {
			return fail(std, err)
		}
		return 0
	}
	// Write beside the target and rename, so a failed export never leaves
	// a truncated transcript under the requested name.
	tmp, err := os.CreateTemp(filepath.Dir(*out), "."+filepath.Base(*out)+".*")
	if err != nil {
		return fail(std, err)
	}
	err = st.Export(tmp, id)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), *out)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fail(std, err)
	}
	return 0
}
