package sandbox

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"

	"github.com/quire-sh/quire/internal/pathx"
)

// cgroupSeq numbers the cgroups this process creates.
var cgroupSeq atomic.Int64

// pidsCgroup is a cgroup created for one command, capping its tasks.
type pidsCgroup struct {
	dir    string
	method string
}

// newPidsCgroup creates a cgroup with pids.max = limit for one command:
// under the root of a cgroup v2 hierarchy whose root enables the pids
// controller (a child elsewhere would break v2's rule that a cgroup with
// controllers for its children holds no processes), else under quire's
// own cgroup in a cgroup v1 pids hierarchy. It needs write access there,
// which in practice means root outside a container.
func newPidsCgroup(limit int) (*pidsCgroup, error) {
	v2, v1, err := pidsHierarchies()
	if err != nil {
		return nil, err
	}
	name := fmt.Sprintf("quire-%d-%d", os.Getpid(), cgroupSeq.Add(1))
	var errs []error
	if v2 != "" {
		ctl, _ := os.ReadFile(filepath.Join(v2, "cgroup.subtree_control"))
		if hasWord(string(ctl), "pids") {
			if cg, err := makePidsCgroup(filepath.Join(v2, name), limit, CapCgroupV2); err == nil {
				return cg, nil
			} else {
				errs = append(errs, err)
			}
		} else {
			errs = append(errs, fmt.Errorf("the cgroup v2 root %s does not enable the pids controller", v2))
		}
	}
	if v1 != "" {
		if cg, err := makePidsCgroup(filepath.Join(v1, name), limit, CapCgroupV1); err == nil {
			return cg, nil
		} else {
			errs = append(errs, err)
		}
	}
	if len(errs) == 0 {
		return nil, errors.New("no cgroup hierarchy with the pids controller is mounted")
	}
	return nil, errors.Join(errs...)
}

func makePidsCgroup(dir string, limit int, method string) (*pidsCgroup, error) {
	removeStaleCgroups(filepath.Dir(dir))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create a cgroup for the command: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pids.max"), []byte(strconv.Itoa(limit)), 0); err != nil {
		os.Remove(dir)
		return nil, fmt.Errorf("set pids.max: %w", err)
	}
	return &pidsCgroup{dir: dir, method: method}, nil
}

// removeStaleCgroups removes empty cgroups left by quire processes that
// died before removing theirs.
func removeStaleCgroups(parent string) {
	entries, _ := os.ReadDir(parent)
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), "quire-")
		if !ok || !e.IsDir() {
			continue
		}
		pidText, _, _ := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid == os.Getpid() || unix.Kill(pid, 0) == nil {
			continue
		}
		os.Remove(filepath.Join(parent, e.Name())) // fails while not empty
	}
}

// finish reports whether a fork was refused at the cap and removes the
// cgroup once its last process is gone.
func (c *pidsCgroup) finish() (reached bool) {
	if b, err := os.ReadFile(filepath.Join(c.dir, "pids.events")); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if f := strings.Fields(line); len(f) == 2 && f[0] == "max" && f[1] != "0" {
				reached = true
			}
		}
	}
	for deadline := time.Now().Add(2 * time.Second); ; {
		err := os.Remove(c.dir)
		if err == nil || errors.Is(err, os.ErrNotExist) || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	return reached
}

// pidsHierarchies finds where the cgroup v2 hierarchy is mounted (if its
// root offers the pids controller) and where quire's own cgroup is in a
// cgroup v1 pids hierarchy.
func pidsHierarchies() (v2, v1 string, err error) {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return "", "", err
	}
	defer f.Close()
	own := ownCgroups()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPEROPTIONS
		fields := strings.Fields(sc.Text())
		sep := -1
		for i, x := range fields {
			if x == "-" {
				sep = i
				break
			}
		}
		if sep < 0 || sep+3 >= len(fields) || len(fields) < 5 {
			continue
		}
		root, mnt, fstype, super := fields[3], unescapeMount(fields[4]), fields[sep+1], fields[sep+3]
		switch {
		case fstype == "cgroup2" && root == "/" && v2 == "":
			ctl, _ := os.ReadFile(filepath.Join(mnt, "cgroup.controllers"))
			if hasWord(string(ctl), "pids") {
				v2 = mnt
			}
		case fstype == "cgroup" && v1 == "" && hasWord(strings.ReplaceAll(super, ",", " "), "pids"):
			if path, ok := own["pids"]; ok && (root == "/" || pathx.Within(path, root)) {
				rel := strings.TrimPrefix(path, root)
				v1 = filepath.Join(mnt, rel)
			}
		}
	}
	return v2, v1, sc.Err()
}

// ownCgroups maps each v1 controller to quire's cgroup path in it.
func ownCgroups() map[string]string {
	out := map[string]string{}
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return out
	}
	for _, line := range strings.Split(string(b), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		for _, ctl := range strings.Split(parts[1], ",") {
			if ctl != "" {
				out[ctl] = parts[2]
			}
		}
	}
	return out
}

func hasWord(s, w string) bool {
	for _, f := range strings.Fields(s) {
		if f == w {
			return true
		}
	}
	return false
}

// unescapeMount undoes the octal escapes of /proc/self/mountinfo.
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// setProcessRlimit caps the tasks of the calling process's user in its
// user namespace: RLIMIT_NPROC counts per user and namespace, so in the
// namespace made for one command it caps exactly that command's tree
// (the launcher included). Root in the initial namespace is exempt from
// it, which is why root gets a cgroup instead.
func setProcessRlimit(limit int) error {
	lim := unix.Rlimit{Cur: uint64(limit), Max: uint64(limit)}
	if err := unix.Setrlimit(unix.RLIMIT_NPROC, &lim); err != nil {
		return fmt.Errorf("set RLIMIT_NPROC: %w", err)
	}
	return nil
}
