package pathx

import "path/filepath"

// Display is how a notice names path: relative to cwd when it lies
// inside it, else with the home directory written as ~, else as it is.
// An empty cwd or home is skipped, and so is a home of "/", under which
// every path would read as ~.
func Display(path, cwd, home string) string {
	if cwd != "" {
		if rel, ok := Rel(cwd, path); ok {
			return rel
		}
	}
	if home != "" && filepath.Clean(home) != string(filepath.Separator) {
		if rel, ok := Rel(home, path); ok {
			return filepath.Join("~", rel)
		}
	}
	return path
}
