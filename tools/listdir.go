package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// ListDir is the list_dir tool: one directory's entries.
type ListDir struct{}

var listDirParams = []param{
	{name: "path", typ: "string", desc: "directory to list, relative to the working directory or absolute (\".\" for the working directory)", required: true},
}

type listDirArgs struct {
	Path string `json:"path"`
}

func (ListDir) Spec() Spec {
	return Spec{
		Name:        "list_dir",
		Description: "List a directory's entries, directories first with a trailing '/'. Entries matched by .gitignore and the .git directory are left out (the output says how many).",
		Schema:      schemaOf(listDirParams),
		Kind:        KindRead,
	}
}

func (ListDir) Plan(env *Env, _ *Overlay, raw json.RawMessage) (Plan, error) {
	var a listDirArgs
	if err := decodeArgs(raw, listDirParams, &a); err != nil {
		return Plan{}, err
	}
	return Plan{Target: env.display(env.abs(a.Path)), Reads: []string{env.reach(a.Path)}, Action: a}, nil
}

func (ListDir) Run(ctx context.Context, env *Env, call Call) Result {
	a, ok := call.Plan.Action.(listDirArgs)
	if !ok {
		return unplanned("list_dir")
	}
	dir, err := env.readPath(a.Path)
	if err != nil {
		return errorResult("%v", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		if fi, serr := os.Stat(dir); serr == nil && !fi.IsDir() {
			return errorResult("%s is a file, not a directory; use read_file to read it", env.display(dir))
		}
		return errorResult("%s", describeOpenError(env, dir, err))
	}
	ign := ignoresFor(dir)
	var dirs, files []string
	hidden := 0
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		isDir := e.IsDir()
		if e.Type()&os.ModeSymlink != 0 {
			if fi, err := os.Stat(p); err == nil && fi.IsDir() {
				isDir = true
			}
		}
		if ign.ignored(p, isDir) {
			hidden++
			continue
		}
		name := e.Name()
		if e.Type()&os.ModeSymlink != 0 {
			if target, err := os.Readlink(p); err == nil {
				name += " -> " + target
			}
		}
		if isDir {
			dirs = append(dirs, name+"/")
		} else {
			files = append(files, name)
		}
	}
	sort.Strings(dirs)
	sort.Strings(files)
	all := append(dirs, files...)
	var b strings.Builder
	res := Result{}
	for i, n := range all {
		if i == searchLimitEntries || b.Len()+len(n) > searchLimitBytes {
			fmt.Fprintf(&b, "[… %d more entries not shown; use glob with a narrower pattern]\n", len(all)-i)
			res.Truncated = true
			break
		}
		b.WriteString(n)
		b.WriteByte('\n')
	}
	if len(all) == 0 {
		b.WriteString("(empty directory)\n")
	}
	if hidden > 0 {
		fmt.Fprintf(&b, "[%d entries hidden by .gitignore or .git]\n", hidden)
	}
	res.Output = b.String()
	return res
}
