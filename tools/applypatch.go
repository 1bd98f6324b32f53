package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/quire-sh/quire/tools/patch"
)

// ApplyPatch is the apply_patch tool: a multi-file patch in the codex
// format, applied to all files or to none.
type ApplyPatch struct{}

var applyPatchParams = []param{
	{name: "patch", typ: "string", desc: "the whole patch, from '*** Begin Patch' to '*** End Patch'", required: true},
}

type applyPatchArgs struct {
	Patch string `json:"patch"`
}

func (ApplyPatch) Spec() Spec {
	return Spec{
		Name: "apply_patch",
		Description: `Apply a patch to one or more files; either every file changes or none does. Format:
*** Begin Patch
*** Add File: path/new.txt
+line of the new file
*** Delete File: path/old.txt
*** Update File: path/file.go
*** Move to: path/renamed.go   (optional)
@@ func example() {            (optional: a line to find first)
 context line (space prefix)
-removed line
+added line
*** End of File                (optional: the change is at the end of the file)
*** End Patch
Changes in one file must appear in file order. Show about 3 lines of context around each change.`,
		Schema: schemaOf(applyPatchParams),
		Kind:   KindEdit,
		Writes: true,
	}
}

// patchSummaryLine is one "A path" / "M path" / "D path" line of the
// result.
type patchSummaryLine struct {
	tag  byte
	path string
}

func (t ApplyPatch) plan(env *Env, files *Overlay, raw json.RawMessage) ([]fileChange, []patchSummaryLine, error) {
	var a applyPatchArgs
	if err := decodeArgs(raw, applyPatchParams, &a); err != nil {
		return nil, nil, err
	}
	hunks, err := patch.Parse(a.Patch)
	if err != nil {
		return nil, nil, err
	}
	var changes []fileChange
	var summary []patchSummaryLine
	seen := map[string]bool{}
	claim := func(p string) (fileChange, error) {
		path, err := env.writePath(p)
		if err != nil {
			return fileChange{}, err
		}
		if seen[path] {
			return fileChange{}, fmt.Errorf("%s appears in more than one operation of the patch; combine its changes into one Update File", env.display(path))
		}
		seen[path] = true
		c, err := files.load(path)
		if err != nil {
			return fileChange{}, fmt.Errorf("cannot change %s: %w", env.display(path), err)
		}
		return c, nil
	}
	for _, h := range hunks {
		c, err := claim(h.Path)
		if err != nil {
			return nil, nil, err
		}
		name := env.display(c.path)
		switch h.Op {
		case patch.Add:
			c.new = []byte(h.Contents)
			changes = append(changes, c)
			if c.existed {
				summary = append(summary, patchSummaryLine{'M', name + " (replaced by Add File)"})
			} else {
				summary = append(summary, patchSummaryLine{'A', name})
			}
		case patch.Delete:
			if !c.existed {
				return nil, nil, fmt.Errorf("cannot delete %s: it does not exist", name)
			}
			c.remove = true
			changes = append(changes, c)
			summary = append(summary, patchSummaryLine{'D', name})
		case patch.Update:
			if !c.existed {
				return nil, nil, fmt.Errorf("cannot update %s: it does not exist; use '*** Add File: %s' to create it", name, h.Path)
			}
			le := detectCRLF(c.old)
			text, err := patch.Apply(le.toLF(string(c.old)), name, h.Chunks)
			if err != nil {
				return nil, nil, err
			}
			text = le.restore(text)
			if h.MoveTo != "" {
				if dst, err := env.writePath(h.MoveTo); err == nil && dst == c.path {
					h.MoveTo = "" // a move to where the file is
				}
			}
			if h.MoveTo == "" {
				c.new = []byte(text)
				changes = append(changes, c)
				summary = append(summary, patchSummaryLine{'M', name})
				break
			}
			dst, err := claim(h.MoveTo)
			if err != nil {
				return nil, nil, err
			}
			dst.new, dst.mode = []byte(text), c.mode
			c.remove = true
			changes = append(changes, dst, c)
			summary = append(summary, patchSummaryLine{'M', env.display(dst.path) + " (moved from " + name + ")"})
		}
	}
	return changes, summary, nil
}

func (t ApplyPatch) Plan(env *Env, files *Overlay, raw json.RawMessage) (Plan, error) {
	changes, summary, err := t.plan(env, files, raw)
	if err != nil {
		return Plan{}, nothingChanged{err}
	}
	pl := Plan{Preview: diffAll(env, changes)}
	var targets []string
	var b strings.Builder
	b.WriteString("Success. Updated the following files:\n")
	for _, s := range summary {
		targets = append(targets, s.path)
		fmt.Fprintf(&b, "%c %s\n", s.tag, s.path)
	}
	pl.Target = strings.Join(targets, ", ")
	for _, c := range changes {
		pl.Writes = append(pl.Writes, c.path)
	}
	pl.InDir = env.inDir(pl.Writes)
	pl.Action = &fileAction{changes: changes, done: b.String()}
	return pl, nil
}

func (t ApplyPatch) Run(ctx context.Context, env *Env, call Call) Result {
	return runFileAction(env, call, "apply_patch")
}

// nothingChanged is a refused patch: the model is told that no file
// changed, since a patch applies to all of its files or none.
type nothingChanged struct{ err error }

func (e nothingChanged) Error() string { return e.err.Error() + "\nNothing was changed." }
func (e nothingChanged) Unwrap() error { return e.err }

func diffAll(env *Env, changes []fileChange) string {
	var b strings.Builder
	for _, c := range changes {
		b.WriteString(c.diff(env))
	}
	return b.String()
}
