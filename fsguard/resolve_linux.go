package fsguard

import (
	"sync"

	"golang.org/x/sys/unix"
)

// dirFlags open a directory only to name things inside it.
const dirFlags = unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC

// openat2Resolver resolves with openat2: RESOLVE_BENEATH keeps the lookup
// inside the directory it starts from, RESOLVE_NO_SYMLINKS refuses a link
// at any component (and RESOLVE_NO_MAGICLINKS the /proc kind).
type openat2Resolver struct{}

func (openat2Resolver) name() string { return "openat2" }

func (openat2Resolver) openRoot(root string) (int, error) {
	how := &unix.OpenHow{Flags: dirFlags, Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS}
	return retryAgain(func() (int, error) { return unix.Openat2(unix.AT_FDCWD, root, how) })
}

func (openat2Resolver) openBeneath(dirfd int, rel string) (int, error) {
	how := &unix.OpenHow{Flags: dirFlags, Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS}
	return retryAgain(func() (int, error) { return unix.Openat2(dirfd, rel, how) })
}

// haveOpenat2 probes once per process whether openat2 works here: it is
// missing before Linux 5.6 and some seccomp profiles refuse it. This
// cached answer is the package's only state.
var haveOpenat2 = sync.OnceValue(func() bool {
	fd, err := openat2Resolver{}.openRoot("/")
	if err != nil {
		return false
	}
	unix.Close(fd)
	return true
})

func defaultResolver() resolver {
	if haveOpenat2() {
		return openat2Resolver{}
	}
	return walkResolver{}
}

// Resolution says how paths are resolved on this machine, for `quire
// doctor`.
func Resolution() string {
	if haveOpenat2() {
		return "openat2 with RESOLVE_BENEATH and RESOLVE_NO_SYMLINKS"
	}
	return "an O_NOFOLLOW walk from the workspace root, component by component (no openat2 here: Linux before 5.6, or a seccomp profile refuses it)"
}
