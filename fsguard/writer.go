//go:build unix

package fsguard

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/quire-sh/quire/internal/pathx"
	"github.com/quire-sh/quire/sandbox"
)

// ErrSymlink is wrapped by every refusal caused by a symbolic link in a
// path.
var ErrSymlink = errors.New("a component of the path is a symbolic link, which quire never writes through")

// Writer writes files for the model under a sandbox profile. It holds no
// open files between calls and is safe for concurrent use.
type Writer struct {
	profile sandbox.Profile
	roots   []string // writable trees, longest first
	hooks   []string // git hooks directories: no execute bits there
	// resolver opens directories beneath a root: openat2 when the kernel
	// has it, else an O_NOFOLLOW walk.
	resolver resolver
	// checked, when set, runs between the profile's check and the first
	// open: tests swap a directory for a link there, as a racing command
	// would.
	checked func(path string)
}

// New returns the Writer for profile. The profile's zero value confines
// nothing (paths are still never written through links).
func New(profile sandbox.Profile) *Writer {
	w := &Writer{profile: profile, hooks: hookDirs(profile.Dir), resolver: defaultResolver()}
	if profile.Enforced {
		for _, r := range profile.Write {
			w.roots = appendUnique(w.roots, filepath.Clean(r))
		}
	}
	if len(w.roots) == 0 {
		w.roots = []string{"/"}
	}
	// The deepest root holding a path is the one it is resolved beneath.
	for i := 1; i < len(w.roots); i++ {
		for j := i; j > 0 && len(w.roots[j]) > len(w.roots[j-1]); j-- {
			w.roots[j], w.roots[j-1] = w.roots[j-1], w.roots[j]
		}
	}
	return w
}

// Resolution names how w resolves paths: "openat2" or "walk".
func (w *Writer) Resolution() string { return w.resolver.name() }

// Mode is the mode a file written at path gets when asked for mode:
// permission bits only, and no execute bits in a git hooks directory.
func (w *Writer) Mode(path string, mode fs.FileMode) fs.FileMode {
	m := mode.Perm()
	if inGitHooks(filepath.Clean(path), w.hooks) {
		m &^= 0o111
	}
	return m
}

// WriteFile creates or replaces the file at path with data, atomically,
// creating missing parent directories (0755). The file gets Mode(path, mode).
func (w *Writer) WriteFile(path string, data []byte, mode fs.FileMode) error {
	dirfd, name, err := w.parent(path, true)
	if err != nil {
		return err
	}
	defer unix.Close(dirfd)
	tmp := tempName(name)
	fd, err := unix.Openat(dirfd, tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return &fs.PathError{Op: "create", Path: filepath.Join(filepath.Dir(path), tmp), Err: err}
	}
	f := os.NewFile(uintptr(fd), filepath.Join(filepath.Dir(path), tmp))
	_, werr := f.Write(data)
	if werr == nil {
		werr = f.Chmod(w.Mode(path, mode))
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		if err := unix.Renameat(dirfd, tmp, dirfd, name); err != nil {
			werr = &fs.PathError{Op: "rename", Path: path, Err: err}
		}
	}
	if werr != nil {
		unix.Unlinkat(dirfd, tmp, 0)
	}
	return werr
}

// MkdirAll makes the directory path and its missing parents, beneath the
// writable tree that holds it, with Mode(path, mode).
func (w *Writer) MkdirAll(path string, mode fs.FileMode) error {
	root, rel, err := w.check(path)
	if err != nil {
		return err
	}
	rootfd, err := w.resolver.openRoot(root)
	if err != nil {
		return rootError(root, err)
	}
	defer unix.Close(rootfd)
	fd, err := w.openDir(rootfd, root, rel, true, w.Mode(path, mode))
	if err != nil {
		return err
	}
	unix.Close(fd)
	return nil
}

// Remove removes the file at path (not a directory).
func (w *Writer) Remove(path string) error {
	dirfd, name, err := w.parent(path, false)
	if err != nil {
		return err
	}
	defer unix.Close(dirfd)
	if err := unix.Unlinkat(dirfd, name, 0); err != nil {
		return &fs.PathError{Op: "remove", Path: path, Err: err}
	}
	return nil
}

// Chmod sets the mode of the file or directory at path to Mode(path,
// mode); a symbolic link there is refused, not followed.
func (w *Writer) Chmod(path string, mode fs.FileMode) error {
	dirfd, name, err := w.parent(path, false)
	if err != nil {
		return err
	}
	defer unix.Close(dirfd)
	fd, err := unix.Openat(dirfd, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return linkError(path, dirfd, name, &fs.PathError{Op: "chmod", Path: path, Err: err})
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return &fs.PathError{Op: "chmod", Path: path, Err: err}
	}
	if t := st.Mode & unix.S_IFMT; t != unix.S_IFREG && t != unix.S_IFDIR {
		return &fs.PathError{Op: "chmod", Path: path, Err: errors.New("not a regular file or directory")}
	}
	if err := unix.Fchmod(fd, uint32(w.Mode(path, mode))); err != nil {
		return &fs.PathError{Op: "chmod", Path: path, Err: err}
	}
	return nil
}

// check asks the profile about path and finds the writable tree it is
// resolved beneath.
func (w *Writer) check(path string) (root, rel string, err error) {
	if !filepath.IsAbs(path) {
		return "", "", fmt.Errorf("write %q: quire writes only absolute paths", path)
	}
	path = filepath.Clean(path)
	resolved, err := w.profile.CanWrite(path)
	if err != nil {
		return "", "", err
	}
	if resolved != path {
		return "", "", &fs.PathError{Op: "write", Path: path, Err: fmt.Errorf("%w (it leads to %s)", ErrSymlink, resolved)}
	}
	for _, r := range w.roots {
		if rel, ok := pathx.Rel(r, path); ok {
			if w.checked != nil {
				w.checked(path)
			}
			return r, rel, nil
		}
	}
	return "", "", &fs.PathError{Op: "write", Path: path, Err: errors.New("outside every writable tree of the sandbox profile")}
}

// parent opens the directory holding path beneath its writable tree and
// returns it with the file's name.
func (w *Writer) parent(path string, create bool) (int, string, error) {
	root, rel, err := w.check(path)
	if err != nil {
		return -1, "", err
	}
	if rel == "." {
		return -1, "", &fs.PathError{Op: "write", Path: path, Err: errors.New("is the root of a writable tree, not a file")}
	}
	rootfd, err := w.resolver.openRoot(root)
	if err != nil {
		return -1, "", rootError(root, err)
	}
	defer unix.Close(rootfd)
	dir, name := filepath.Split(rel)
	fd, err := w.openDir(rootfd, root, filepath.Clean(dir), create, 0o755)
	if err != nil {
		return -1, "", err
	}
	return fd, name, nil
}

// openDir opens rel beneath rootfd (the tree root) without following a
// link, making missing directories with mode when create is set.
func (w *Writer) openDir(rootfd int, root, rel string, create bool, mode fs.FileMode) (int, error) {
	if rel == "." || rel == "" {
		return unix.Dup(rootfd)
	}
	fd, err := w.resolver.openBeneath(rootfd, rel)
	if err == nil || !create || !errors.Is(err, unix.ENOENT) {
		if err != nil {
			return -1, dirError(root, rel, rootfd, err)
		}
		return fd, nil
	}
	// Make what is missing, one component at a time.
	cur, err := unix.Dup(rootfd)
	if err != nil {
		return -1, err
	}
	done := ""
	for _, c := range strings.Split(rel, string(filepath.Separator)) {
		next, err := w.resolver.openBeneath(cur, c)
		if errors.Is(err, unix.ENOENT) {
			if merr := unix.Mkdirat(cur, c, uint32(mode.Perm())); merr != nil && !errors.Is(merr, unix.EEXIST) {
				unix.Close(cur)
				return -1, &fs.PathError{Op: "mkdir", Path: filepath.Join(root, done, c), Err: merr}
			}
			next, err = w.resolver.openBeneath(cur, c)
		}
		if err != nil {
			e := dirError(filepath.Join(root, done), c, cur, err)
			unix.Close(cur)
			return -1, e
		}
		unix.Close(cur)
		cur = next
		done = filepath.Join(done, c)
	}
	return cur, nil
}

// dirError explains a failure to open rel beneath dirfd: a link on the
// way is named as such.
func dirError(base, rel string, dirfd int, err error) error {
	path := filepath.Join(base, rel)
	perr := &fs.PathError{Op: "open", Path: path, Err: err}
	if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.EXDEV) {
		return &fs.PathError{Op: "write", Path: path, Err: ErrSymlink}
	}
	if errors.Is(err, unix.ENOTDIR) {
		// O_DIRECTORY on a link (walk) says ENOTDIR: tell the two apart.
		p := ""
		for _, c := range strings.Split(rel, string(filepath.Separator)) {
			p = filepath.Join(p, c)
			var st unix.Stat_t
			if unix.Fstatat(dirfd, p, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK {
				return &fs.PathError{Op: "write", Path: filepath.Join(base, p), Err: ErrSymlink}
			}
		}
	}
	return perr
}

// linkError turns an ELOOP from O_NOFOLLOW on name into ErrSymlink.
func linkError(path string, dirfd int, name string, err error) error {
	var st unix.Stat_t
	if errors.Is(err, unix.ELOOP) || unix.Fstatat(dirfd, name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK {
		return &fs.PathError{Op: "write", Path: path, Err: ErrSymlink}
	}
	return err
}

func rootError(root string, err error) error {
	if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) {
		return &fs.PathError{Op: "open", Path: root, Err: ErrSymlink}
	}
	return &fs.PathError{Op: "open", Path: root, Err: err}
}

// tempName is a fresh name for the temporary file beside name, short
// enough for any file system.
func tempName(name string) string {
	var b [6]byte
	rand.Read(b[:])
	if len(name) > 200 {
		name = name[:200]
	}
	return "." + name + ".quire-" + hex.EncodeToString(b[:])
}
