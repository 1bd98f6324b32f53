package store

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// releaseMappings unmaps every mapping of f in this process. bbolt maps
// the file before it reads the freelist; when a damaged freelist makes
// bbolt.Open panic, the mapping it made is unreachable, and it keeps the
// file (and so bbolt's flock on it) alive after f is closed. This finds it
// in /proc/self/maps by device and inode.
func releaseMappings(f *os.File) {
	var st syscall.Stat_t
	if err := syscall.Fstat(int(f.Fd()), &st); err != nil {
		return
	}
	maps, err := os.Open("/proc/self/maps")
	if err != nil {
		return
	}
	defer maps.Close()
	dev := fmt.Sprintf("%02x:%02x", unix.Major(st.Dev), unix.Minor(st.Dev))
	ino := strconv.FormatUint(st.Ino, 10)
	type span struct{ start, end uintptr }
	var spans []span
	sc := bufio.NewScanner(maps)
	for sc.Scan() {
		// start-end perms offset dev inode path
		fields := strings.Fields(sc.Text())
		if len(fields) < 5 || fields[3] != dev || fields[4] != ino {
			continue
		}
		lo, hi, ok := strings.Cut(fields[0], "-")
		if !ok {
			continue
		}
		start, err1 := strconv.ParseUint(lo, 16, 64)
		end, err2 := strconv.ParseUint(hi, 16, 64)
		if err1 == nil && err2 == nil && end > start {
			spans = append(spans, span{uintptr(start), uintptr(end)})
		}
	}
	for _, s := range spans {
		syscall.Syscall(syscall.SYS_MUNMAP, s.start, s.end-s.start, 0)
	}
}
