// Package tools holds what the model can do: the Tool interface, the
// registry, the built-in tools (read_file, list_dir, glob, grep,
// write_file, edit_file, apply_patch, shell) and the approval Policy.
//
// Every tool validates its arguments against the same parameter list its
// JSON schema is generated from, and reports every problem at once in
// words the model can act on. Paths are relative to Env.Dir; symlinks
// and ".." are resolved before the sandbox profile (package sandbox) is
// consulted, so a link pointing outside the working directory is judged by
// its target. Edits are computed in memory first, shown as a unified diff
// (Plan.Preview for approval, Result.Diff afterwards), checkpointed with
// Env.BeforeWrite, then written atomically; apply_patch changes all of its
// files or none. Output is bounded: read_file shows a window of 2,000 lines
// or 48 KB, search results stop at 1,000 entries or 50 KB, shell output
// keeps the first and last 15,000 bytes; every cut says so and how to see
// more.
package tools
