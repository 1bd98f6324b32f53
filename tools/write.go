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

func (t WriteFile) Plan(env *Env, files *Overlay, raw json.RawMessage) (Plan, error) {
	var a writeFileArgs
	if err := decodeArgs(raw, writeFileParams, &a); err != nil {
		return Plan{}, err
	}
	path, err := env.writePath(a.Path)
	if err != nil {
		return Plan{}, err
	}
	c, err := files.load(path)
	if err != nil {
		return Plan{}, fmt.Errorf("cannot write %s: %w", env.display(path), err)
	}
	c.new = []byte(a.Content)
	verb := "Created"
	if c.existed {
		verb = "Overwrote"
	}
	done := fmt.Sprintf("%s %s (%d bytes, %d lines).", verb, env.display(c.path), len(c.new), len(splitLines(string(c.new))))
	return Plan{Target: env.display(c.path), Preview: c.diff(env), Writes: []string{c.path}, InDir: env.inDir([]string{c.path}),
		Action: &fileAction{changes: []fileChange{c}, done: done}}, nil
}

func (t WriteFile) Run(ctx context.Context, env *Env, call Call) Result {
	return runFileAction(env, call, "write_file")
}
