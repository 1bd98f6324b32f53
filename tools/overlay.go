package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"strings"
)

// Overlay is the state of the files as the calls planned so far in one
// batch will leave them: for each path an earlier call changes, its planned
// content (or its planned absence). The engine plans the calls of a batch
// in the model's order against one Overlay, so a call that relies on an
// earlier one (two edits of one file, a write then an edit) is planned
// against what the earlier call will write, and its preview is the diff
// that will really be applied. An Overlay is used from one goroutine.
type Overlay struct {
	files map[string]overlayFile
	// used collects, while one call is planned, the earlier calls whose
	// planned content it read.
	used map[string]bool
}

type overlayFile struct {
	exists bool
	data   []byte
	mode   fs.FileMode
	id     string // the call that planned this content
	label  string // that call as the model knows it: "edit_file call c1"
}

// NewOverlay returns an overlay in which every file is as on disk.
func NewOverlay() *Overlay {
	return &Overlay{files: map[string]overlayFile{}}
}

// PlanCall plans the call id of tool t against the overlay and, when the
// plan is valid, adds the call's planned file changes to it, so the calls
// planned after it see them. It also returns the ids of the earlier calls
// whose planned changes the plan builds on: if one of them does not run,
// neither may this one. When planning fails on a file an earlier call
// changes, the error says so.
func (o *Overlay) PlanCall(t Tool, env *Env, id string, args json.RawMessage) (Plan, []string, error) {
	o.used = map[string]bool{}
	defer func() { o.used = nil }()
	p, err := t.Plan(env, o, args)
	var labels, deps []string
	for _, f := range o.files {
		if o.used[f.id] {
			labels = append(labels, f.label)
			o.used[f.id] = false
			deps = append(deps, f.id)
		}
	}
	sort.Strings(labels)
	sort.Strings(deps)
	if err != nil {
		if len(labels) > 0 {
			err = fmt.Errorf("%w (this call was checked against the files as the earlier %s of this batch will leave them)", err, strings.Join(labels, " and "))
		}
		return Plan{}, deps, err
	}
	if fc, ok := p.Action.(fileChanger); ok {
		label := t.Spec().Name + " call " + id
		for _, c := range fc.fileChanges() {
			o.files[c.path] = overlayFile{exists: !c.remove, data: c.new, mode: c.mode, id: id, label: label}
		}
	}
	return p, deps, nil
}

// load reads path for a change as the earlier calls of the batch will
// leave it; a nil overlay reads the disk.
func (o *Overlay) load(path string) (fileChange, error) {
	if o != nil {
		if f, ok := o.files[path]; ok {
			if o.used != nil {
				o.used[f.id] = true
			}
			c := fileChange{path: path, mode: f.mode}
			if c.mode == 0 {
				c.mode = 0o644
			}
			if f.exists {
				c.existed, c.old = true, f.data
			}
			return c, nil
		}
	}
	return loadForChange(path)
}

// fileChanger is an Action that changes files; the overlay records its
// changes.
type fileChanger interface {
	fileChanges() []fileChange
}

// fileAction is what the plan of a file tool (write_file, edit_file,
// apply_patch) applies: its changes, computed against the files as the
// plan saw them, and the sentence Run reports.
type fileAction struct {
	changes []fileChange
	done    string
}

func (a *fileAction) fileChanges() []fileChange { return a.changes }

// runFileAction applies a file tool's approved plan: exactly the changes
// its preview showed, or nothing. The diff it reports is the preview the
// user approved.
func runFileAction(env *Env, call Call, tool string) Result {
	a, ok := call.Plan.Action.(*fileAction)
	if !ok {
		return unplanned(tool)
	}
	if err := commitChanges(env, call.Turn, a.changes); err != nil {
		return errorResult("%v", err)
	}
	return Result{Output: a.done, Diff: call.Plan.Preview}
}

// stillAsPlanned checks, just before a change is written, that its file is
// what the plan saw: a shell command of the same batch, the user's editor
// or any other program may have changed it since it was planned, and
// writing then would apply a change the user never saw.
func stillAsPlanned(env *Env, c fileChange) error {
	now, err := loadForChange(c.path)
	if err == nil && now.existed == c.existed && bytes.Equal(now.old, c.old) {
		return nil
	}
	what := "changed"
	switch {
	case err != nil:
		what = "can no longer be read (" + err.Error() + ")"
	case c.existed && !now.existed:
		what = "was deleted"
	case !c.existed && now.existed:
		what = "was created"
	}
	return fmt.Errorf("%s %s after this call was planned and approved (by an earlier call of this batch, such as a shell command, or by another program), so no file was written: the change that was shown no longer fits it. Read the file again and redo the change", env.display(c.path), what)
}
