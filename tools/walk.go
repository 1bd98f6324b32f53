package tools

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	gitignore "github.com/sabhiram/go-gitignore"

	"github.com/quire-sh/quire/internal/pathx"
)

// ignoreRule is one directory's .gitignore, matched against paths relative
// to that directory.
type ignoreRule struct {
	dir string
	gi  *gitignore.GitIgnore
}

// ignoreSet is the stack of .gitignore files that apply at one point of a
// walk: those of the enclosing repository's directories from its root
// down, plus .git/info/exclude.
type ignoreSet []ignoreRule

// ignored reports whether path (absolute) is ignored; isDir selects
// directory-only patterns. Only a match on path itself counts: a match
// inherited from an ignored ancestor does not, because the walk never
// enters ignored directories, so such an ancestor is one the caller asked
// to search explicitly (as ripgrep does). A negation ("!pattern") only
// undoes a match from the same file: go-gitignore does not report
// negations across files.
func (s ignoreSet) ignored(path string, isDir bool) bool {
	if filepath.Base(path) == ".git" {
		return true
	}
	for _, r := range s {
		rel, ok := pathx.Rel(r.dir, path)
		if !ok {
			continue
		}
		rel = filepath.ToSlash(rel)
		if isDir {
			rel += "/"
		}
		if !r.gi.MatchesPath(rel) {
			continue
		}
		parent := filepath.ToSlash(filepath.Dir(strings.TrimSuffix(rel, "/")))
		if parent != "." && r.gi.MatchesPath(parent+"/") {
			continue // inherited from an ancestor the caller chose to search
		}
		return true
	}
	return false
}

// with returns s extended by dir's .gitignore, if it has one.
func (s ignoreSet) with(dir string) ignoreSet {
	gi, err := gitignore.CompileIgnoreFile(filepath.Join(dir, ".gitignore"))
	if err != nil {
		return s
	}
	out := make(ignoreSet, len(s), len(s)+1)
	copy(out, s)
	return append(out, ignoreRule{dir, gi})
}

// ignoresFor collects the ignore files that apply to dir: every
// .gitignore from the repository root (the nearest ancestor holding .git)
// down to dir, and the root's .git/info/exclude. Outside a repository only
// dir's own .gitignore applies.
func ignoresFor(dir string) ignoreSet {
	root := ""
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			root = d
			break
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	if root == "" {
		return ignoreSet{}.with(dir)
	}
	var s ignoreSet
	if gi, err := gitignore.CompileIgnoreFile(filepath.Join(root, ".git", "info", "exclude")); err == nil {
		s = append(s, ignoreRule{root, gi})
	}
	rel, _ := filepath.Rel(root, dir)
	cur := root
	s = s.with(cur)
	if rel != "." {
		for _, part := range strings.Split(rel, string(filepath.Separator)) {
			cur = filepath.Join(cur, part)
			s = s.with(cur)
		}
	}
	return s
}

// errStopWalk ends a walk early without an error.
var errStopWalk = errors.New("stop walk")

// walkFiles calls fn for every file and directory under root (not root
// itself) that no .gitignore excludes, in lexical order, skipping .git.
// Symlinks are reported but not followed. It stops early, returning nil,
// when fn returns errStopWalk, and returns ctx's error when cancelled.
func walkFiles(ctx context.Context, root string, fn func(path string, d fs.DirEntry) error) error {
	err := walkDir(ctx, root, ignoresFor(root), fn)
	if errors.Is(err, errStopWalk) {
		return nil
	}
	return err
}

func walkDir(ctx context.Context, dir string, ign ignoreSet, fn func(string, fs.DirEntry) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil // unreadable directories are skipped, as find would
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		if ign.ignored(p, e.IsDir()) {
			continue
		}
		if err := fn(p, e); err != nil {
			if errors.Is(err, fs.SkipDir) {
				continue
			}
			return err
		}
		if e.IsDir() {
			if err := walkDir(ctx, p, ign.with(p), fn); err != nil {
				return err
			}
		}
	}
	return nil
}
