// Package sandbox confines what quire's tools may do: named profiles
// (off, workspace, read-only, strict and custom ones from config.toml),
// the kernel enforcement of a profile for shell commands through a
// re-exec launcher (Landlock for files and TCP, seccomp for the other
// socket families), the same profile's rules checked in Go for the file
// tools, and process-group management so a cancelled command leaves
// nothing behind.
package sandbox
