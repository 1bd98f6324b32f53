package tools

import (
	"context"
	"encoding/json"
	"fmt"
)

// WriteFile is the write_file tool: create or replace a whole file.
type WriteFile struct{}

var writeFileParams = []param{
	{name: "path", typ: "string", desc: "file to write, relative to the working directory or absolute; parent directories are created", required: true},
	{name: "content", typ: "string", desc: "the complete new content of the file", required: true},
}

type writeFileArgs struct {
	Path    string `json:"path"`
	Content string `json:"content"`
}

func (WriteFile) Spec() Spec {
	return Spec{
		Name:        "write_file",
		Description: "Create a file, or replace its whole content. To change part of an existing file prefer edit_file or apply_patch.",
		Schema:      schemaOf(writeFileParams),
		Kind:        KindEdit,
		Writes:      true,
	}
}

func (t WriteFile) plan(env *Env, raw json.RawMessage) (fileChange, error) {
	var a writeFileArgs
	if err := decodeArgs(raw, writeFileParams, &a); err != nil {
		return fileChange{}, err
	}
	path, err := env.writePath(a.Path)
	if err != nil {
		return fileChange{}, err
	}
	c, err := loadForChange(path)
	if err != nil {
		return fileChange{}, fmt.Errorf("cannot write %s: %w", env.display(path), err)
	}
	c.new = []byte(a.Content)
	return c, nil
}

func (t WriteFile) Plan(env *Env, raw json.RawMessage) (Plan, error) {
	c, err := t.plan(env, raw)
	if err != nil {
		return Plan{}, err
	}
	return Plan{Target: env.display(c.path), Preview: c.diff(env), Writes: []string{c.path}, InDir: env.inDir([]string{c.path})}, nil
}

func (t WriteFile) Run(ctx context.Context, env *Env, call Call) Result {
	c, err := t.plan(env, call.Args)
	if err != nil {
		return errorResult("%v", err)
	}
	if err := commitChanges(env, []fileChange{c}); err != nil {
		return errorResult("%v", err)
	}
	verb := "Created"
	if c.existed {
		verb = "Overwrote"
	}
	return Result{
		Output: fmt.Sprintf("%s %s (%d bytes, %d lines).", verb, env.display(c.path), len(c.new), len(splitLines(string(c.new)))),
		Diff:   c.diff(env),
	}
}
