package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Glob is the glob tool: file paths matching a pattern.
type Glob struct{}

var globParams = []param{
	{name: "pattern", typ: "string", desc: "glob pattern relative to path, e.g. \"**/*.go\" or \"cmd/*/main.go\"; ** matches any number of directories, {a,b} alternatives", required: true},
	{name: "path", typ: "string", desc: "directory to search (default: the working directory)"},
}

type globArgs struct {
	Pattern string `json:"pattern"`
	Path    string `json:"path"`
}

func (Glob) Spec() Spec {
	return Spec{
		Name:        "glob",
		Description: fmt.Sprintf("Find files whose path matches a glob pattern. Files ignored by .gitignore are skipped. At most %d paths are listed, sorted.", searchLimitEntries),
		Schema:      schemaOf(globParams),
		Kind:        KindSearch,
	}
}

func (Glob) Plan(env *Env, _ *Overlay, raw json.RawMessage) (Plan, error) {
	var a globArgs
	if err := decodeArgs(raw, globParams, &a); err != nil {
		return Plan{}, err
	}
	if !doublestar.ValidatePattern(a.Pattern) {
		return Plan{}, &ArgError{Problems: []string{fmt.Sprintf("field \"pattern\": %q is not a valid glob pattern (check brackets and braces)", a.Pattern)}}
	}
	root := a.Path
	if filepath.IsAbs(a.Pattern) {
		root, _ = doublestar.SplitPattern(filepath.ToSlash(a.Pattern))
	}
	return Plan{Target: a.Pattern, Reads: []string{env.reach(root)}, Action: a}, nil
}

func (t Glob) Run(ctx context.Context, env *Env, call Call) Result {
	a, ok := call.Plan.Action.(globArgs)
	if !ok {
		return unplanned("glob")
	}
	if a.Path == "" {
		a.Path = "."
	}
	pattern := strings.TrimPrefix(filepath.ToSlash(a.Pattern), "./")
	if filepath.IsAbs(a.Pattern) {
		// An absolute pattern names its own base directory.
		base, rest := doublestar.SplitPattern(pattern)
		a.Path, pattern = base, rest
	}
	if !doublestar.ValidatePattern(pattern) {
		return errorResult("%q is not a valid glob pattern (check brackets and braces)", a.Pattern)
	}
	root, err := env.readPath(a.Path)
	if err != nil {
		return errorResult("%v", err)
	}
	var matches []string
	truncated := false
	err = walkFiles(ctx, root, func(p string, d fs.DirEntry) error {
		rel, _ := filepath.Rel(root, p)
		if ok, _ := doublestar.Match(pattern, filepath.ToSlash(rel)); ok && !d.IsDir() {
			if len(matches) == searchLimitEntries {
				truncated = true
				return errStopWalk
			}
			matches = append(matches, env.display(p))
		}
		return nil
	})
	if err != nil {
		return errorResult("glob stopped: %v", err)
	}
	if len(matches) == 0 {
		return Result{Output: fmt.Sprintf("No files match %q under %s.", a.Pattern, env.display(root))}
	}
	out := strings.Join(matches, "\n") + "\n"
	if truncated {
		out += fmt.Sprintf("[stopped after %d paths; use a narrower pattern or path]\n", searchLimitEntries)
	}
	return Result{Output: out, Truncated: truncated}
}
