package tools

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Grep is the grep tool: lines matching a regular expression.
type Grep struct{}

var grepParams = []param{
	{name: "pattern", typ: "string", desc: "regular expression (RE2 syntax, as in Go) to search for", required: true},
	{name: "path", typ: "string", desc: "file or directory to search (default: the working directory)"},
	{name: "glob", typ: "string", desc: "only search files whose path (relative to path) or name matches this glob, e.g. \"*.go\" or \"src/**/*.ts\""},
	{name: "case_insensitive", typ: "boolean", desc: "match letters regardless of case (default false)"},
}

type grepArgs struct {
	Pattern         string `json:"pattern"`
	Path            string `json:"path"`
	Glob            string `json:"glob"`
	CaseInsensitive bool   `json:"case_insensitive"`
}

// grepMaxFileBytes skips files too large to be source code.
const grepMaxFileBytes = 10 << 20

func (Grep) Spec() Spec {
	return Spec{
		Name: "grep",
		Description: fmt.Sprintf("Search file contents with a regular expression. Prints path:line:text for each matching line. "+
			"Skips binary files and files ignored by .gitignore. At most %d matches are shown.", searchLimitEntries),
		Schema: schemaOf(grepParams),
		Kind:   KindSearch,
	}
}

func (t Grep) compile(raw json.RawMessage) (grepArgs, *regexp.Regexp, error) {
	var a grepArgs
	if err := decodeArgs(raw, grepParams, &a); err != nil {
		return a, nil, err
	}
	expr := a.Pattern
	if a.CaseInsensitive {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return a, nil, &ArgError{Problems: []string{fmt.Sprintf("field \"pattern\": not a valid regular expression: %v (escape literal characters such as ( [ { . * + ? with a backslash)", err)}}
	}
	if a.Glob != "" && !doublestar.ValidatePattern(a.Glob) {
		return a, nil, &ArgError{Problems: []string{fmt.Sprintf("field \"glob\": %q is not a valid glob pattern", a.Glob)}}
	}
	return a, re, nil
}

// grepAction is a grep call's plan: its arguments and their compiled
// expression.
type grepAction struct {
	args grepArgs
	re   *regexp.Regexp
}

func (t Grep) Plan(env *Env, _ *Overlay, raw json.RawMessage) (Plan, error) {
	a, re, err := t.compile(raw)
	if err != nil {
		return Plan{}, err
	}
	return Plan{Target: a.Pattern, Reads: []string{env.reach(a.Path)}, Action: grepAction{args: a, re: re}}, nil
}

func (t Grep) Run(ctx context.Context, env *Env, call Call) Result {
	act, ok := call.Plan.Action.(grepAction)
	if !ok {
		return unplanned("grep")
	}
	a, re := act.args, act.re
	if a.Path == "" {
		a.Path = "."
	}
	root, err := env.readPath(a.Path)
	if err != nil {
		return errorResult("%v", err)
	}
	fi, err := os.Stat(root)
	if err != nil {
		return errorResult("%s", describeOpenError(env, root, err))
	}
	g := grepRun{env: env, re: re}
	if !fi.IsDir() {
		g.file(root)
	} else {
		err = walkFiles(ctx, root, func(p string, d fs.DirEntry) error {
			if d.IsDir() || !d.Type().IsRegular() {
				return nil
			}
			if a.Glob != "" {
				rel, _ := filepath.Rel(root, p)
				okPath, _ := doublestar.Match(a.Glob, filepath.ToSlash(rel))
				okName, _ := doublestar.Match(a.Glob, d.Name())
				if !okPath && !okName {
					return nil
				}
			}
			if !g.file(p) {
				return errStopWalk
			}
			return nil
		})
		if err != nil {
			return errorResult("grep stopped: %v", err)
		}
	}
	if g.matches == 0 {
		return Result{Output: fmt.Sprintf("No matches for %q in %s.", a.Pattern, env.display(root))}
	}
	out := g.out.String()
	if g.truncated {
		out += fmt.Sprintf("[stopped after %d matches or %d KB; narrow the pattern, path or glob]\n", g.matches, searchLimitBytes/1000)
	}
	return Result{Output: out, Truncated: g.truncated}
}

type grepRun struct {
	env       *Env
	re        *regexp.Regexp
	out       strings.Builder
	matches   int
	truncated bool
}

// file searches one file and reports whether to go on.
func (g *grepRun) file(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return true
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || fi.Size() > grepMaxFileBytes {
		return true
	}
	br := bufio.NewReaderSize(f, 64<<10)
	if head, _ := br.Peek(8192); bytes.IndexByte(head, 0) >= 0 {
		return true // binary
	}
	name := g.env.display(path)
	for n := 1; ; n++ {
		line, _, err := readLine(br)
		if err == io.EOF {
			return true
		}
		if err != nil {
			return true
		}
		line = strings.TrimSuffix(line, "\r")
		if !g.re.MatchString(line) {
			continue
		}
		entry := fmt.Sprintf("%s:%d:%s\n", name, n, strings.ToValidUTF8(line, "\uFFFD"))
		if g.matches == searchLimitEntries || g.out.Len()+len(entry) > searchLimitBytes {
			g.truncated = true
			return false
		}
		g.out.WriteString(entry)
		g.matches++
	}
}
