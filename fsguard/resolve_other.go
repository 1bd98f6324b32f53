//go:build unix && !linux

package fsguard

import "golang.org/x/sys/unix"

// dirFlags open a directory to name things inside it (no O_PATH here).
const dirFlags = unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC

// defaultResolver walks: openat2 is Linux's.
func defaultResolver() resolver { return walkResolver{} }

// Resolution says how paths are resolved on this machine, for `quire
// doctor`.
func Resolution() string {
	return "an O_NOFOLLOW walk from the workspace root, component by component (openat2 is Linux's)"
}
