// Package tools holds what the model can do: the Tool interface, the
// registry, the built-in tools (read_file, list_dir, glob, grep,
// write_file, edit_file, apply_patch, shell) and the approval Policy.
// The registry's list changes while a session runs: a source of tools
// (an MCP server, package ext/mcp) replaces its own group of tools, and
// Settle waits for sources still starting.
//
// A call is planned once and run once: Plan validates the arguments
// against the same parameter list the tool's JSON schema is generated from
// (reporting every problem at once, in words the model can act on) and
// decides what the call will do; Run applies that Plan.Action and never
// decodes the arguments again. Paths are relative to Env.Dir; symlinks
// and ".." are resolved before the sandbox profile (package sandbox) is
// consulted, so a link pointing outside the working directory is judged by
// its target. Edits are computed in memory at planning time, against the
// files as the earlier calls of the batch will leave them (Overlay), so
// dependent edits of one file work and the unified diff the user approves
// (Plan.Preview, Result.Diff afterwards) is the one applied. Just before
// writing, each file is checked to be still what the plan saw — a shell
// command or an editor may have changed it — and if it is not, nothing is
// written and the model is told to read it again. Then the files are
// checkpointed with Env.BeforeWrite (given the call's turn) and written
// atomically; apply_patch changes all of its files or none. Output is bounded: read_file shows a window of 2,000 lines
// or 48 KB, search results stop at 1,000 entries or 50 KB, shell output
// keeps the first and last 15,000 bytes; every cut says so and how to see
// more.
package tools
