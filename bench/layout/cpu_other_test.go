//go:build !unix

package layout

import "time"

func cpuTime() (time.Duration, bool) { return 0, false }
