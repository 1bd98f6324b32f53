//go:build !linux

package store

import "os"

// releaseMappings is a no-op where the process's mappings cannot be
// listed: a damaged file that made bbolt.Open panic stays mapped (and
// locked) until the process exits.
func releaseMappings(f *os.File) {}
