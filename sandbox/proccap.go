package sandbox

// How a command's process cap is enforced (ProcessCap.Method).
const (
	CapCgroupV2 = "cgroup v2 pids.max"
	CapCgroupV1 = "cgroup v1 pids.max"
	CapRlimit   = "RLIMIT_NPROC in a user namespace"
)

// ProcessCap is how many processes and threads a command and everything it
// started could have at once, and whether it ran into the cap.
type ProcessCap struct {
	// Limit is the cap; 0 means the command ran without one (see Why).
	Limit int
	// Method is CapCgroupV2, CapCgroupV1 or CapRlimit.
	Method string
	// Measured reports that Reached is known: cgroups count refused
	// forks, RLIMIT_NPROC does not.
	Measured bool
	// Reached reports that at least one fork or clone was refused
	// because of the cap.
	Reached bool
	// Why explains a missing cap.
	Why string
}
