// Package sandbox confines what quire's tools may do. A Profile names the
// trees a command may read and write and whether it may use the network;
// the shell tool runs commands through a re-exec launcher that enforces
// the profile in the kernel, and the file tools, which run inside quire,
// check the same profile in Go after resolving symlinks and "..".
//
// # Profiles
//
//   - off: nothing is confined.
//   - workspace (default): read everything; write the working directory,
//     the temp dirs ($TMPDIR, /tmp, /var/tmp, /dev/shm) and quire's state
//     dir; the network is open.
//   - read-only: read everything; write only temp dirs and the state dir;
//     no child network.
//   - strict: read system paths (/usr, /bin, /lib*, /etc, /opt, /proc,
//     /sys) and the writable trees only, so ~/.ssh, ~/.aws, ~/.gnupg,
//     browser profiles and tool credentials are unreadable; write the
//     working dir, temp and state; no child network; credential-looking
//     environment variables and SSH_AUTH_SOCK are dropped.
//   - custom profiles from [sandbox.profiles.NAME] in
//     ${XDG_CONFIG_HOME:-~/.config}/quire/config.toml extend a built-in
//     one with read, write and deny lists and a network switch. Entries
//     are plain paths; globs and control characters are refused. Package
//     config reads the file and hands the table over as Settings.
//
// In every enforced profile the repository's hooks and config
// (.git/hooks, .git/config) and quire's configuration directory are
// never writable.
//
// # Tool caches
//
// Build tools cache in the home directory (~/.cache/go-build, ~/go/pkg/mod,
// ~/.npm, ~/.cache/pip, ~/.cargo), which no enforced profile may write.
// Those caches are deliberately not opened to commands: a command could
// plant objects there that builds run outside the sandbox would later
// trust. Instead CommandEnv points the tools at quire-owned caches under
// CacheRoot, $STATE/sandbox-cache:
//
//	XDG_CACHE_HOME    the root itself (every tool following XDG: yarn, uv, ...)
//	GOCACHE           go-build
//	GOMODCACHE        gomod; GOFLAGS gains -modcacherw so the cache can be deleted,
//	                  and GOPROXY gains the user's module cache as a file:// proxy
//	npm_config_cache  npm (NPM_CONFIG_CACHE is replaced too)
//	PIP_CACHE_DIR     pip
//	CARGO_HOME        cargo
//
// A variable changes only when the location the tool would use (the
// variable's value when it is an absolute path, for Go also a value set with
// `go env -w`, else the tool's default) is not writable under the profile.
// A GOCACHE in the working dir or in /tmp is thus kept under workspace and
// moved under read-only; the off profile changes nothing.
//
// All enforced profiles share the root: each built-in one can write the
// state dir, and sharing lets read-only and strict, which have no network,
// build with modules a workspace command downloaded. The root is private
// (0700) and nothing outside the sandbox runs from it, so what one command
// plants there reaches only later sandboxed commands. A custom profile that
// cannot write the state dir uses $TMPDIR/quire-UID/sandbox-cache instead,
// but only if that directory belongs to this user and is closed to others;
// otherwise the variables stay as they are. What follows from this:
//
//   - The first build inside the sandbox is cold. Modules come from the
//     user's own module cache, read through the file:// proxy placed in
//     front of the user's GOPROXY (and checked against go.sum and the
//     checksum database like any download), so they need no network, except
//     under strict, which cannot read the home directory: there, and for
//     modules the user never fetched, they are downloaded (workspace) or
//     missing (read-only and strict have no network) until a workspace
//     command fetches them. npm, pip and cargo start empty.
//   - `go install` writes $GOBIN or $GOPATH/bin (~/go/bin), which stays
//     unwritable: a sandboxed command must not replace a program the user
//     runs outside it. Set GOBIN to a directory in the working dir or temp
//     for such a command.
//   - CARGO_HOME is more than a cache. Cargo still finds ~/.cargo/config.toml
//     through the project's parent directories when the project is in the
//     home directory, and rustup's proxies keep working (toolchains live
//     in RUSTUP_HOME), but credentials.toml is out of sight, so publishing
//     fails, and `cargo install` puts programs in the root's cargo/bin, off
//     PATH.
//   - A moved variable overrides the tool's own configuration files other
//     than Go's (cache= in .npmrc, pip.conf); `pip install --user` still
//     fails (~/.local is not writable), virtual environments work.
//   - Caches other tools keep in the home directory (Gradle's ~/.gradle,
//     Maven's ~/.m2, pnpm's store) are not moved: point them at a writable
//     directory (GRADLE_USER_HOME, -Dmaven.repo.local), or, accepting the
//     risk above, add them to a custom profile's write list.
//   - Only Go trims its build cache; delete the root to reclaim space.
//
// # Enforcement
//
// Run starts `quire __quire-sandbox-exec SPEC_JSON bash -c CMD` in a new
// session (Start does the same for a long-lived program that talks over
// its stdin and stdout, an MCP server, and Process.Close ends it: stdin
// closed, a wait, then the whole tree as below). The launcher (Launch) confines itself and then starts the
// command as its child, so everything the command starts inherits the
// confinement, which cannot be lifted:
//
//  1. When protected paths exist inside writable trees, the launcher runs
//     in a private mount namespace (plus a user namespace when quire is
//     not root) and bind-mounts each over itself read-only; the ambient
//     CAP_SYS_ADMIN used for that is dropped before the command.
//  2. Landlock, with the exact configuration of the kernel's ABI (never
//     go-landlock's best-effort mode): file rules for every access right
//     the ABI knows, TCP bind/connect rules when the network is off (ABI 4
//     and later), and IPC scopes (ABI 6 and later: signals always,
//     abstract UNIX sockets when the network is off). Landlock also sets
//     no_new_privs and forbids mount changes and ptrace of processes
//     outside the sandbox.
//  3. When the network is off, a seccomp filter refuses (EPERM) creating
//     any socket but AF_UNIX, AF_NETLINK and plain TCP (so UDP, raw,
//     SCTP and MPTCP sockets fail), and io_uring_setup; syscalls of a
//     foreign architecture (32-bit x86 on x86_64) fail with ENOSYS.
//
// Fail closed: Profile.Check refuses a profile this machine cannot
// enforce (Landlock ABI below 3, which cannot refuse truncate; no
// seccomp for a network-off profile; no user namespace when one is
// needed), naming the missing feature and pointing at --sandbox and
// `quire doctor`; the command is then not run. The launcher re-checks and
// exits 125 without running anything if any step fails. SelfTest proves
// enforcement with real commands for `quire doctor`.
//
// # What stays open
//
//   - Reading: workspace and read-only read the whole filesystem except
//     raw device nodes, including secrets in the home directory; only
//     strict and deny lists hide files. Approval, not the sandbox, stands
//     between a prompt injection and `curl -d @~/.ssh/id_rsa` there.
//   - Network in workspace and in custom profiles with network = true:
//     everything.
//   - With the network off: pathname UNIX sockets (docker.sock, an SSH or
//     GPG agent, D-Bus) stay reachable, because seccomp cannot read
//     socket addresses and Landlock only restricts them from ABI 9; abstract
//     UNIX sockets are reachable below ABI 6; AF_NETLINK stays open (it
//     reaches only the local kernel; glibc's getaddrinfo needs it);
//     and so do sockets inherited from quire (none besides the output
//     pipe is passed).
//   - Below ABI 6, signals to any process of the same user (quire
//     included) are allowed.
//   - Landlock does not restrict metadata: chmod, chown, utimes, xattrs,
//     flock and stat work on any path the process can reach; nor does it
//     restrict chdir or reading /proc (other processes' environ and memory
//     are still protected by its ptrace rules).
//   - Only the working directory's own repository is protected: nested
//     repositories and submodules keep writable hooks and config, and
//     the working directory is writable as a whole, so running quire in
//     the home directory makes ~/.bashrc, ~/.gitconfig and the caches in
//     it (which then stay where they are, see Tool caches) writable too.
//   - Protected paths are bound read-only only if they exist at launch: a
//     repository created by the command itself (git init) has writable
//     hooks until the next command.
//   - Deny lists are expanded at launch: the directories between a
//     granted tree and a denied path only allow listing, so new entries
//     cannot be created in them, and a denied directory's names stay
//     listable while its contents do not.
//   - Root: Landlock and seccomp bind root too, but root keeps its
//     capabilities for everything they do not cover, so running quire as
//     root is weaker confinement.
//   - Process scope: the launcher stays as the command's parent and a
//     child subreaper, so orphans, including processes that left the
//     command's group with setsid(2), are re-parented to it. When the
//     command exits, is cancelled or times out, or when quire dies (the
//     kernel sends the launcher SIGTERM), every descendant gets SIGTERM,
//     then SIGKILL after the grace period; the command's group only while
//     its leader is unreaped, others through pidfds, so a reused pid is
//     never signalled. A process that escapes the launcher's subtree
//     entirely (none can without a privileged program) or a launcher killed
//     with SIGKILL would leave survivors.
//   - File tools check a path, then write it: a command running at the
//     same moment could swap a directory for a symlink in between.
package sandbox
