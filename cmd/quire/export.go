package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/quire-sh/quire/app"
	"github.com/quire-sh/quire/engine/store"
)

// runExport is `quire export ID [-o FILE]`: a session as a portable JSONL
// transcript (a versioned header line, then one event per line).
func runExport(args []string) int {
	fs := newFlagSet("quire export")
	out := fs.String("o", "", "write to `FILE` instead of standard output")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: quire export ID [-o FILE]\n\nID may be a unique prefix of a session id (see `quire sessions`).\nThe transcript is for sharing: API keys, tokens, private keys, passwords\nand secret URL parameters in it are replaced by [REDACTED], and your home\ndirectory by ~. The stored session keeps everything.")
		fs.PrintDefaults()
	}
	// Accept flags before and after the id.
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return exitUsage(err)
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(pos) != 1 {
		fs.Usage()
		return 2
	}
	st, err := store.Open(app.StateDir(os.Getenv), store.Options{})
	if err != nil {
		return fail(err)
	}
	id, err := st.Resolve(pos[0])
	if err != nil {
		return fail(err)
	}
	if *out == "" {
		if err := st.Export(os.Stdout, id); err != nil {
			return fail(err)
		}
		return 0
	}
	// Write beside the target and rename, so a failed export never leaves
	// a truncated transcript under the requested name.
	tmp, err := os.CreateTemp(filepath.Dir(*out), "."+filepath.Base(*out)+".*")
	if err != nil {
		return fail(err)
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
		return fail(err)
	}
	return 0
}
