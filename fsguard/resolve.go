//go:build unix

package fsguard

import (
	"errors"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// resolver opens directories without following links: the root of a
// writable tree from "/", and a relative path beneath an open directory.
// Both return a descriptor the *at calls can use as a directory.
type resolver interface {
	name() string
	openRoot(root string) (int, error)
	openBeneath(dirfd int, rel string) (int, error)
}

// walkResolver opens one component at a time with O_NOFOLLOW |
// O_DIRECTORY, so a link at any component fails (ELOOP or ENOTDIR).
type walkResolver struct{}

func (walkResolver) name() string { return "walk" }

func (r walkResolver) openRoot(root string) (int, error) {
	fd, err := unix.Open("/", dirFlags, 0)
	if err != nil {
		return -1, err
	}
	rel := strings.TrimPrefix(filepath.Clean(root), "/")
	if rel == "" {
		return fd, nil
	}
	defer unix.Close(fd)
	return r.openBeneath(fd, rel)
}

func (walkResolver) openBeneath(dirfd int, rel string) (int, error) {
	cur, err := unix.Dup(dirfd)
	if err != nil {
		return -1, err
	}
	for _, c := range strings.Split(rel, string(filepath.Separator)) {
		if c == "" || c == "." {
			continue
		}
		if c == ".." {
			unix.Close(cur)
			return -1, unix.EXDEV // never climb out of the tree
		}
		next, err := unix.Openat(cur, c, dirFlags|unix.O_NOFOLLOW, 0)
		unix.Close(cur)
		if err != nil {
			return -1, err
		}
		cur = next
	}
	return cur, nil
}

// retryAgain retries a call the kernel answered with EAGAIN (openat2 does
// when a rename raced with the lookup) a few times.
func retryAgain(f func() (int, error)) (int, error) {
	for i := 0; ; i++ {
		fd, err := f()
		if !errors.Is(err, unix.EAGAIN) || i == 8 {
			return fd, err
		}
	}
}
