//go:build !unix

package cputime

import "time"

// Process cannot be read here: it reports false.
func Process() (time.Duration, bool) { return 0, false }
