// Package tools holds what the model can do: the Tool interface, the
// registry, and the tools themselves (read_file, list_dir, glob, grep,
// write_file, edit_file, apply_patch, shell). Tools validate their own
// arguments and report every problem at once in words the model can act
// on; they never apply sandbox policy themselves but ask package sandbox.
package tools
