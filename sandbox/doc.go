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
//     working dir, temp and state; no child network.
//   - custom profiles from [sandbox.profiles.NAME] in
//     ${XDG_CONFIG_HOME:-~/.config}/quire/config.toml extend a built-in
//     one with read, write and deny lists and a network switch. Entries
//     are plain paths; globs and control characters are refused. Package
//     config reads the file and hands the table over as Settings.
//
// Every enforced profile (built-in or custom) also guarantees:
//
//   - Git metadata is read-only to commands and file tools, and cannot be
//     renamed, removed or replaced: the git dir as git finds it ($GIT_DIR,
//     else the nearest .git directory or "gitdir:" file in the working dir
//     or above, with a worktree's common dir), the .git files of linked
//     worktrees and of submodules listed in .gitmodules, every config file
//     git reads (the repository's, ~/.gitconfig, ~/.config/git/config,
//     /etc/gitconfig, $GIT_CONFIG*) and the files they include
//     (include.path, includeIf.*.path), core.hooksPath, and programs named
//     by path in keys that run one (core.fsmonitor, core.pager, filters,
//     diff drivers, aliases). The file tools refuse any path with a .git
//     element. [sandbox] git_writes = true lets commands and file tools
//     write the git dir (commit, fetch, stash) except its hooks and the
//     config files, which stay read-only. The repository is looked up
//     again before every command, so one made by an earlier command
//     (git init) is protected from the next command on.
//   - quire's configuration directory, which may hold API keys, is neither
//     readable nor writable.
//   - quire's own process is out of reach: quire makes itself
//     non-dumpable (Harden, in main before any secret is read), commands
//     started by root keep only CAP_CHOWN, CAP_DAC_OVERRIDE, CAP_FOWNER
//     and CAP_FSETID (plus CAP_NET_BIND_SERVICE and CAP_NET_RAW with the
//     network open), so neither CAP_SYS_PTRACE nor anything that reaches
//     kernel or process memory; an unprivileged quire runs each command in
//     a user namespace of its own. No command reads /proc/<quire>/environ
//     or mem, uses process_vm_readv or ptrace on it; the file tools refuse
//     /proc paths of quire's threads.
//   - The environment loses loader and interpreter hooks (LD_PRELOAD,
//     BASH_ENV, functions exported to bash, NODE_OPTIONS, …), quire's
//     provider keys (ProviderKeyEnv plus Profile.SecretEnv, which the
//     configuration fills with every provider's key variable) and every
//     variable IsCredential matches: a name with a credential word
//     (TOKEN, SECRET, PASSWORD, PASS, PWD, PW, PAT, KEY, AUTH, CREDENTIALS,
//     JWT, DSN, WEBHOOK, …, or APIKEY, PGPASSWORD run together),
//     SSH_AUTH_SOCK and GPG_AGENT_INFO, or a value that is a URL with a
//     password, a private key or a token in a format services issue (ghp_,
//     glpat-, xox?-, sk-, AKIA, AIza, JWTs, …). [sandbox] pass_env names
//     variables passed on purpose. The off profile still drops the hooks
//     and quire's keys.
//   - A command and everything it starts may have at most [sandbox]
//     max_processes (default 4096) processes and threads at once: a pids
//     cgroup when quire is root (cgroup v2 at the hierarchy's root, else
//     v1 under quire's own cgroup), RLIMIT_NPROC counted in the command's
//     user namespace otherwise. A stage between the launcher and the
//     command applies it, so the launcher, which must end the tree, stays
//     outside the cap. The shell result says when the cap refused a fork
//     (cgroups count refusals; under RLIMIT_NPROC it is named when the
//     command fails). Root without a writable cgroup hierarchy (most
//     containers) and an unprivileged user without user namespaces get no
//     cap; `quire doctor` says which applies.
//
// The writes quire makes itself for the model (the file tools, and
// /rewind putting files back) go through one guarded writer, package
// fsguard: Profile.CanWrite is asked, then the file is written beneath the
// writable tree holding it without following a symbolic link at any
// component (openat2 RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS, or an
// O_NOFOLLOW walk on kernels without it), with permission bits only (no
// setuid, setgid or sticky) and no execute bits in any git hooks
// directory, in every profile including off.
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
// closed, a wait, then the whole tree as below). The launcher (Launch)
// confines itself and then starts the command as its child, so
// everything the command starts inherits the confinement, which cannot
// be lifted:
//
//  1. When quire is not root, the launcher starts in a user namespace of
//     its own (when protected paths need binds, or for the process cap)
//     and maps its user to itself there (quire, not dumpable, cannot write
//     the maps). When protected paths exist inside writable trees, it
//     also runs in a private mount namespace, bind-mounts each over itself
//     read-only, and bind-mounts over itself every directory above them a
//     command could rename (one whose parent is writable): a mount point
//     cannot be renamed or removed (EBUSY), so the metadata cannot be
//     moved aside and replaced by a copy. It then enters its working
//     directory again, so the command starts on the new mounts.
//  2. Capabilities: root keeps only the ones listed above, in the bounding
//     set too, on every thread; the namespace's CAP_SYS_ADMIN is dropped.
//  3. Landlock, with the exact configuration of the kernel's ABI (never
//     go-landlock's best-effort mode): file rules for every access right
//     the ABI knows (writable trees get no device-node creation), TCP
//     bind/connect rules when the network is off (ABI 4 and later),
//     pathname UNIX socket rules when the network is off (ABI 9 and
//     later), and IPC scopes (ABI 6 and later: signals always, abstract
//     UNIX sockets when the network is off). Landlock also sets
//     no_new_privs and forbids mount changes and ptrace of processes
//     outside the sandbox.
//  4. When the network is off, a seccomp filter refuses (EPERM) creating
//     any socket but AF_NETLINK and plain TCP: UDP, raw, SCTP, MPTCP and
//     AF_UNIX sockets fail, so no pathname or abstract UNIX socket
//     (docker.sock, SSH and GPG agents, D-Bus) can be connected to on any
//     kernel; socketpair(2) stays for stream and seqpacket pairs, which
//     ignore addresses. io_uring_setup fails too; syscalls of a foreign
//     architecture (32-bit x86 on x86_64) fail with ENOSYS.
//  5. The launcher makes itself non-dumpable and starts the command, through
//     the stage that applies the process cap when there is one.
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
//   - With the network off: AF_NETLINK stays open (it reaches only the
//     local kernel; glibc's getaddrinfo needs it); programs that need an
//     AF_UNIX socket of their own (a local test server, nscd, syslog)
//     fail. With the network on, every UNIX socket the filesystem shows
//     is reachable, an SSH agent's included even though SSH_AUTH_SOCK is
//     dropped.
//   - Below ABI 6, signals to any process of the same user (quire
//     included) are allowed.
//   - Landlock does not restrict metadata: chmod, chown, utimes, xattrs,
//     flock and stat work on any path the process can reach (the contents
//     stay out of reach); nor does it restrict chdir or reading /proc
//     (other processes' environ and memory are protected as described
//     above). TestMetadataOutsideTheWorkspaceStaysOpen pins this.
//   - Only the working directory's repository (and its submodules' and
//     worktrees' .git files) is protected from commands: a repository
//     nested deeper keeps writable metadata, and a command may create a
//     new .git anywhere it can write (in a subdirectory, or in a working
//     dir that had none) whose config runs programs when git is used
//     there; a repository a command creates is writable until its next
//     command. The file tools refuse any .git path. A .git that is a
//     symlink can itself be replaced (a mount cannot cover a symlink).
//     Config files git would read but that do not exist yet
//     (~/.gitconfig) can be created where the profile can write.
//   - The working directory is writable as a whole and is the project:
//     what a command puts in a Makefile, a package.json script or a hook
//     framework's scripts (.husky) runs when you next use them. Running
//     quire in the home directory makes ~/.bashrc and the caches in it
//     (which then stay where they are, see Tool caches) writable too.
//   - Another mount of the same filesystem (a bind mount of the project
//     elsewhere) reaches the git dir past the read-only binds.
//   - Deny lists are expanded at launch: the directories between a
//     granted tree and a denied path only allow listing, so new entries
//     cannot be created in them, and a denied directory's names stay
//     listable while its contents do not.
//   - Root: Landlock, seccomp and the capability drop bind root too, but
//     root keeps file access to every file of any owner that Landlock lets
//     it reach (CAP_DAC_OVERRIDE), and may chown and chmod them.
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
//   - The file tools resolve a link the model names and judge the path it
//     leads to; only the write itself refuses links (a directory swapped
//     for a link between the check and the write is refused, not
//     followed). Commands are bound by the kernel rules above, not by
//     fsguard's: a command may create an executable hook in a nested
//     repository, which no enforced profile protects.
package sandbox
