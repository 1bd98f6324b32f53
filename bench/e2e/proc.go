package e2e

import (
	"os"
	"strconv"
	"strings"
	"time"
)

// clockTick is the unit of /proc's CPU times (USER_HZ, 100 on Linux).
const clockTick = 10 * time.Millisecond

// treeCPU is the CPU time (user and system) spent so far by process pid
// and every descendant still running, plus the children each of them
// has already waited for, read from /proc. Peers that run helpers (a
// language server, a node worker) are charged for them too.
func treeCPU(pid int) time.Duration {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	type proc struct {
		ppid int
		cpu  int64
	}
	procs := map[int]proc{}
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// The command name is in parentheses and may hold spaces: the
		// fields we want come after the last ')'.
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		// f[0] is field 3 (state); ppid is field 4, utime..cstime 14..17.
		if len(f) < 15 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		var cpu int64
		for _, k := range []int{11, 12, 13, 14} {
			v, _ := strconv.ParseInt(f[k], 10, 64)
			cpu += v
		}
		procs[p] = proc{ppid: ppid, cpu: cpu}
	}
	var total int64
	for p, pr := range procs {
		for q := p; q > 1; q = procs[q].ppid {
			if q == pid {
				total += pr.cpu
				break
			}
			if _, ok := procs[q]; !ok {
				break
			}
		}
	}
	return time.Duration(total) * clockTick
}
