package skills

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/quire-sh/quire/internal/pathx"
)

// Bounds on what discovery keeps of a file.
const (
	// maxName is the longest skill or command name.
	maxName = 64
	// maxDescription is the longest description, in characters.
	maxDescription = 1024
	// maxEntries is how many entries of one directory are looked at.
	maxEntries = 1000
)

// checkName reports what is wrong with a skill or command name, or nil:
// lowercase letters, digits and single hyphens between them, at most
// maxName characters. Commands also allow underscores.
func checkName(name string, underscore bool) error {
	if name == "" {
		return fmt.Errorf("the name is empty")
	}
	if len(name) > maxName {
		return fmt.Errorf("the name is longer than %d characters", maxName)
	}
	for i, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
		case r == '-' || underscore && r == '_':
			if i == 0 || i == len(name)-1 || name[i-1] == '-' || name[i-1] == '_' {
				return fmt.Errorf("the name %q has a %q at its start or end, or two in a row", clip(name), r)
			}
		default:
			if underscore {
				return fmt.Errorf("the name %q may hold only lowercase letters, digits, hyphens and underscores", clip(name))
			}
			return fmt.Errorf("the name %q may hold only lowercase letters, digits and hyphens", clip(name))
		}
	}
	return nil
}

// oneLine folds a description onto one line: every run of white space
// (newlines of a block scalar included) becomes one space, and control
// characters are dropped, so what reaches the system prompt and the
// screen is one plain line.
func oneLine(s string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.TrimSpace(s) {
		switch {
		case unicode.IsSpace(r):
			space = true
			continue
		case unicode.IsControl(r) || r == utf8.RuneError:
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}

// clip shortens a value quoted in a notice.
func clip(s string) string {
	if utf8.RuneCountInString(s) <= 40 {
		return s
	}
	r := []rune(s)
	return string(r[:39]) + "…"
}

// shower says where a file is, for notices and listings: relative to the
// working directory inside it, with ~ for the home directory, absolute
// otherwise.
type shower struct{ cwd, home string }

func (s shower) path(p string) string { return pathx.Display(p, s.cwd, s.home) }

// expandHome resolves a leading ~/ against home.
func expandHome(p, home string) (string, bool) {
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home == "" {
			return p, false
		}
		return filepath.Join(home, p[1:]), true
	}
	return p, true
}

// repoRoot is the nearest directory at or above dir that holds .git (a
// directory, or the file a worktree has); "" when there is none.
func repoRoot(dir string) string {
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}
