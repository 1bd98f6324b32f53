package pathx

import (
	"path/filepath"
	"strings"
)

// Within reports whether path is dir or lies beneath it. Both are cleaned
// first, so "a/./b" is within "a" and "a/../b" is not; a path is never
// within a dir whose name merely starts like it ("/ab" is not within
// "/a"), and an absolute path is never within a relative dir or the other
// way round.
func Within(path, dir string) bool {
	path, dir = filepath.Clean(path), filepath.Clean(dir)
	if filepath.IsAbs(path) != filepath.IsAbs(dir) {
		return false
	}
	if filepath.IsAbs(dir) {
		// The common case, without allocating: a clean absolute path is
		// below dir when dir is a prefix ending at a separator.
		if dir == string(filepath.Separator) || path == dir {
			return true
		}
		return len(path) > len(dir) && path[len(dir)] == filepath.Separator && strings.HasPrefix(path, dir)
	}
	_, ok := Rel(dir, path)
	return ok
}

// Rel returns path relative to dir ("." for dir itself) and true when path
// is Within dir, or "" and false when it is not.
func Rel(dir, path string) (string, bool) {
	rel, err := filepath.Rel(dir, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return rel, true
}
