//go:build !unix

package hooks

import "os/exec"

// ownProcessGroup: without process groups, stopping a hook stops its
// shell only.
func ownProcessGroup(*exec.Cmd) {}
