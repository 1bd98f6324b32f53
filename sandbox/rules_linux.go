package sandbox

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"

	"github.com/quire-sh/quire/internal/pathx"
)

// configs are go-landlock's exact per-ABI configurations, V1 first. We pick
// the one matching the kernel and never BestEffort: a rule the kernel
// cannot enforce must fail, not silently vanish.
var configs = []landlock.Config{landlock.V1, landlock.V2, landlock.V3, landlock.V4, landlock.V5,
	landlock.V6, landlock.V7, landlock.V8, landlock.V9, landlock.V10, landlock.V11}

const (
	readRights  = landlock.AccessFSSet(ll.AccessFSExecute | ll.AccessFSReadFile | ll.AccessFSReadDir)
	fileRights  = landlock.AccessFSSet(ll.AccessFSExecute | ll.AccessFSWriteFile | ll.AccessFSReadFile | ll.AccessFSTruncate | ll.AccessFSIoctlDev)
	listRights  = landlock.AccessFSSet(ll.AccessFSReadDir)
	execRights  = landlock.AccessFSSet(ll.AccessFSExecute | ll.AccessFSReadFile)
	deviceRW    = landlock.AccessFSSet(ll.AccessFSReadFile | ll.AccessFSWriteFile | ll.AccessFSTruncate | ll.AccessFSIoctlDev)
	resolveUnix = landlock.AccessFSSet(ll.AccessFSResolveUnix)
	makeDevice  = landlock.AccessFSSet(ll.AccessFSMakeChar | ll.AccessFSMakeBlock)
)

// landlockPlan is the Landlock configuration and rules enforcing p on a
// kernel with the given ABI.
func landlockPlan(p Profile, abi int) (landlock.Config, []landlock.Rule, error) {
	if abi < minFilesystemABI {
		//lint:ignore ST1005 Landlock is a proper noun
		return landlock.Config{}, nil, fmt.Errorf("Landlock ABI %d is below the required %d", abi, minFilesystemABI)
	}
	cfg := configs[min(abi, len(configs))-1]
	all := cfg.HandledAccessFS
	read := readRights
	if p.Network {
		// The child network is open: do not restrict TCP/UDP, nor
		// pathname UNIX sockets (ABI 9+), nor abstract ones.
		cfg.HandledAccessNet = 0
		cfg.Scoped &= landlock.ScopedSet(ll.ScopeSignal)
		read |= resolveUnix
	}
	// Device nodes are readable only one by one (devices below): reading
	// a block device would bypass every path rule for a root user.
	b := ruleBuilder{handled: all, deny: p.Deny, hide: []string{"/dev"}}
	if p.ReadAll {
		b.grant("/", read&all)
	}
	for _, r := range p.Read {
		b.grant(r, read&all)
	}
	for _, w := range p.Write {
		// No device nodes: a block device made in a writable tree would
		// give root the raw disk, past every path rule.
		b.grant(w, (all&^(resolveUnix|makeDevice))|(read&all))
	}
	for _, d := range devices {
		if _, err := os.Stat(d); err == nil && !withinAny(d, p.Deny) {
			b.rules = append(b.rules, landlock.PathAccess(deviceRW&all, d).IgnoreIfMissing())
		}
	}
	return cfg, b.rules, nil
}

// ruleBuilder turns "grant rights on a tree except the denied paths" into
// Landlock rules. Landlock can only allow, and a rule covers everything
// beneath its directory, so a tree holding a denied path is granted piece
// by piece: each directory on the way down gets only the right to list it,
// and every sibling not leading to a denied path gets the full rights.
// New entries cannot be created in those intermediate directories, which
// fails closed.
type ruleBuilder struct {
	handled landlock.AccessFSSet
	deny    []string // never granted
	hide    []string // left out of broader grants, granted only when named
	rules   []landlock.Rule
}

func (b *ruleBuilder) grant(path string, rights landlock.AccessFSSet) {
	if withinAny(path, b.deny) {
		return
	}
	fi, err := os.Lstat(path)
	if err != nil {
		return
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		// Granting a symlink would grant its target, which may be denied.
		return
	}
	if !fi.IsDir() {
		b.add(path, rights&fileRights)
		return
	}
	if !b.holdsDenied(path) {
		b.add(path, rights)
		return
	}
	b.add(path, rights&listRights)
	entries, err := os.ReadDir(path)
	if err != nil {
		return
	}
	for _, e := range entries {
		child := filepath.Join(path, e.Name())
		if !withinAny(child, b.hide) {
			b.grant(child, rights)
		}
	}
}

func (b *ruleBuilder) holdsDenied(dir string) bool {
	for _, list := range [][]string{b.deny, b.hide} {
		for _, d := range list {
			if pathx.Within(d, dir) && d != dir {
				return true
			}
		}
	}
	return false
}

func (b *ruleBuilder) add(path string, rights landlock.AccessFSSet) {
	rights &= b.handled
	if rights == 0 {
		return
	}
	b.rules = append(b.rules, landlock.PathAccess(rights, path).IgnoreIfMissing())
}
