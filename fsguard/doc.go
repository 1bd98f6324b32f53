// Package fsguard is the one path every write quire makes for the model
// goes through: the file tools (write_file, edit_file, apply_patch) and the
// restores of /rewind. A Writer creates or replaces a file atomically,
// makes directories, removes a file and changes a mode, and each of them
//
//   - asks the sandbox profile first (Profile.CanWrite: the writable trees,
//     the deny list, the protected git hooks, git config and quire config),
//   - refuses a path that has a symbolic link at any component, even one
//     pointing inside the working directory: a link is never followed, so
//     a directory swapped for a link after the check cannot redirect the
//     write,
//   - and limits the mode: permission bits only (never setuid, setgid or
//     sticky), and no execute bits for a file in a git hooks directory
//     (.git/hooks, any .git/.../hooks, and core.hooksPath), so a write can
//     never plant a hook git would run outside the sandbox.
//
// The path is resolved beneath the writable tree that holds it (the
// working directory, a temp dir, the state dir; "/" when nothing is
// confined). Where the kernel has openat2 (Linux 5.6 and later) each
// directory is opened with RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS; otherwise
// (older kernels, other systems, or a seccomp filter refusing the call)
// the path is walked component by component from the tree's root with
// O_NOFOLLOW | O_DIRECTORY. The file itself is written to a temporary file
// created (O_EXCL | O_NOFOLLOW) in the directory held open, then renamed
// over the target with renameat on that same directory, so a crash never
// leaves half a file and the rename cannot land anywhere else.
//
// What it does not do: it does not stop a command already running in the
// sandbox from changing files itself (the kernel sandbox does that), and
// it judges only the path it is given: callers that accept symlinks from
// the model (a tool editing link.go that points to real.go) resolve them
// first and hand the Writer the real path, which is what the profile
// checks and what the user approved.
package fsguard
