package tools

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// Approval modes accepted by NewPolicy.
const (
	ModeAsk      = "ask"
	ModeAutoEdit = "auto-edit"
	ModeYolo     = "yolo"
)

// Modes lists the approval modes, for --help.
func Modes() []string { return []string{ModeAsk, ModeAutoEdit, ModeYolo} }

// Policy decides which calls need the user's approval and remembers the
// "yes for this session" answers. Approval is a gate against the model's
// mistakes, not a security boundary: the sandbox applies in every mode.
// A Policy is safe for concurrent use.
type Policy struct {
	mode string

	mu       sync.Mutex
	tools    map[string]bool // tool names approved for the session
	prefixes [][]string      // shell command prefixes approved for the session
	commands map[string]bool // exact compound commands approved
}

// NewPolicy returns the policy for mode: "ask" (every write and every
// shell command asks), "auto-edit" (edits inside the working directory,
// allowlisted read-only shell commands and tools declared read-only
// (Spec.ReadOnlyHint) proceed; everything else asks)
// or "yolo" (nothing asks).
func NewPolicy(mode string) (*Policy, error) {
	switch mode {
	case ModeAsk, ModeAutoEdit, ModeYolo:
	default:
		return nil, fmt.Errorf("unknown approval mode %q; choose one of %s", mode, strings.Join(Modes(), ", "))
	}
	return &Policy{mode: mode, tools: map[string]bool{}, commands: map[string]bool{}}, nil
}

// Mode is the policy's approval mode.
func (p *Policy) Mode() string { return p.mode }

// NeedsApproval reports whether the call described by spec and plan must
// be shown to the user before it runs.
func (p *Policy) NeedsApproval(spec Spec, plan Plan) bool {
	if !spec.Writes || p.mode == ModeYolo {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if spec.Kind == KindExecute {
		if p.commands[plan.Command] || p.prefixApproved(plan.Command) {
			return false
		}
		return !(p.mode == ModeAutoEdit && ReadOnlyCommand(plan.Command))
	}
	if p.tools[spec.Name] {
		return false
	}
	if p.mode == ModeAutoEdit && spec.ReadOnlyHint {
		return false
	}
	return !(p.mode == ModeAutoEdit && plan.InDir && len(plan.Writes) > 0)
}

// Remember records a "yes for this session" answer: for shell calls the
// command's prefix (see CommandPrefix), or the exact command when it is
// compound; for other tools the tool itself.
func (p *Policy) Remember(spec Spec, plan Plan) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if spec.Kind != KindExecute {
		p.tools[spec.Name] = true
		return
	}
	if prefix := CommandPrefix(plan.Command); prefix != "" {
		p.prefixes = append(p.prefixes, strings.Fields(prefix))
		return
	}
	p.commands[plan.Command] = true
}

func (p *Policy) prefixApproved(cmd string) bool {
	words, ok := simpleWords(cmd)
	if !ok {
		return false
	}
	for _, pre := range p.prefixes {
		if len(words) >= len(pre) && equalWords(words[:len(pre)], pre) {
			return true
		}
	}
	return false
}

func equalWords(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Refusal is what the model is told about a call that needs approval when
// nobody can give it (quire exec): the approval mode actually in force,
// what that mode lets through, and why this call is not part of it.
func (p *Policy) Refusal(spec Spec, plan Plan) string {
	const tail = " Do not retry it; finish what you can without it and say what is left to do."
	head := "denied: quire is running unattended (quire exec) with --approval " + p.mode + ", "
	switch {
	case p.mode == ModeAutoEdit && spec.Kind == KindExecute:
		_, why := classifyCommand(plan.Command)
		return head + "which runs without asking only the read-only commands on its allowlist; this command " + why + ", so it needs the user's approval and was not run." + tail
	case p.mode == ModeAutoEdit:
		return head + "which lets edits proceed without asking only inside the working directory; this call writes outside it, so it needs the user's approval and was not run." + tail
	case p.mode == ModeAsk:
		return head + "under which every write and every shell command needs the user's approval, so this call was not run." + tail
	}
	return head + "and this call needs the user's approval, so it was not run." + tail
}

// CommandPrefix is what "yes for this session" approves for a shell
// command: its program, plus its subcommand when the second word looks
// like one ("go test", "npm run"). It is "" for commands that are not one
// simple command (pipes, lists, substitutions, redirections), which are
// only ever approved verbatim.
func CommandPrefix(cmd string) string {
	words, ok := simpleWords(cmd)
	if !ok || len(words) == 0 {
		return ""
	}
	if len(words) > 1 && isSubcommand(words[1]) {
		return words[0] + " " + words[1]
	}
	return words[0]
}

func isSubcommand(w string) bool {
	if w == "" || w[0] == '-' {
		return false
	}
	for _, r := range w {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == ':') {
			return false
		}
	}
	return true
}

// ReadOnlyCommand reports whether cmd is a single simple command running
// an allowlisted read-only program with only options known to read (see
// readOnlyPrograms). Anything it cannot parse with certainty is not
// read-only: lists (;, &&, ||, &), pipes, redirections, command or process
// substitution, variable expansion, subshells and newlines all fail.
func ReadOnlyCommand(cmd string) bool {
	ok, _ := classifyCommand(cmd)
	return ok
}

// classifyCommand is ReadOnlyCommand with the reason a command is not
// read-only, phrased to follow "it ".
func classifyCommand(cmd string) (bool, string) {
	words, globs, ok := shellWords(cmd)
	if !ok {
		return false, "is not one simple command (it has shell operators, expansions, redirections or quoting auto-edit does not judge)"
	}
	if len(words) == 0 {
		return false, "is empty"
	}
	prog, found := readOnlyPrograms[words[0]]
	if !found {
		return false, fmt.Sprintf("runs %s, which is not on auto-edit's list of read-only programs", words[0])
	}
	if !prog.builtin && !systemProgram(words[0]) {
		return false, fmt.Sprintf("runs %s from outside the system's program directories (%s), where a file in the working dir could stand in for it", words[0], strings.Join(systemBinDirs, ", "))
	}
	for i, g := range globs[1:] {
		if g && !prog.globsSafe {
			return false, fmt.Sprintf("has an unquoted pattern (%s) that could expand to a file named like an option of %s", words[i+1], words[0])
		}
	}
	if why := prog.check(words[1:]); why != "" {
		return false, why
	}
	return true, ""
}

// systemBinDirs are where an allowlisted program must be found for
// auto-edit to run it unasked: PATH could otherwise name a directory a
// command or an edit can write (./node_modules/.bin, ~/bin), holding a
// program of the same name that does anything.
var systemBinDirs = []string{"/usr/bin", "/bin", "/usr/sbin", "/sbin", "/usr/local/bin", "/usr/local/sbin"}

// systemProgram reports whether name, looked up in PATH as the shell will,
// is a file in one of systemBinDirs once symlinks are resolved. A variable
// so tests can stand in for the machine's PATH.
var systemProgram = func(name string) bool {
	path, err := exec.LookPath(name)
	if err != nil || !filepath.IsAbs(path) {
		return false
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return false
	}
	dir := filepath.Dir(real)
	for _, d := range systemBinDirs {
		if r, err := filepath.EvalSymlinks(d); err == nil && r == dir {
			return true
		}
	}
	return false
}

// simpleWords splits cmd into words if it is one simple command with
// nothing the shell would interpret beyond quoting and globbing. ok is
// false otherwise.
func simpleWords(cmd string) (words []string, ok bool) {
	words, _, ok = shellWords(cmd)
	return words, ok
}

// shellWords is simpleWords that also reports, per word, whether it holds
// an unquoted glob character (so the shell may replace it by file names).
func shellWords(cmd string) (words []string, globs []bool, ok bool) {
	var cur strings.Builder
	inWord, glob := false, false
	flush := func() {
		if inWord {
			words = append(words, cur.String())
			globs = append(globs, glob)
			cur.Reset()
			inWord, glob = false, false
		}
	}
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case c == ' ' || c == '\t':
			flush()
		case c == '\'':
			end := strings.IndexByte(cmd[i+1:], '\'')
			if end < 0 {
				return nil, nil, false
			}
			cur.WriteString(cmd[i+1 : i+1+end])
			inWord = true
			i += end + 1
		case c == '"':
			j := i + 1
			for ; j < len(cmd) && cmd[j] != '"'; j++ {
				switch cmd[j] {
				case '$', '`', '\\', '!':
					return nil, nil, false
				}
				cur.WriteByte(cmd[j])
			}
			if j == len(cmd) {
				return nil, nil, false
			}
			inWord = true
			i = j
		case c == '\\':
			if i+1 >= len(cmd) || cmd[i+1] == '\n' {
				return nil, nil, false
			}
			cur.WriteByte(cmd[i+1])
			inWord = true
			i++
		case strings.IndexByte(";&|<>()$`\n\r{}!#", c) >= 0:
			// '#' may start a comment hiding the rest; braces expand.
			return nil, nil, false
		case c < 0x20 || c == 0x7f:
			return nil, nil, false
		default:
			if c == '*' || c == '?' || c == '[' {
				glob = true
			}
			cur.WriteByte(c)
			inWord = true
		}
	}
	flush()
	// "VAR=value cmd" changes the program's environment (PAGER, LD_PRELOAD).
	if len(words) > 0 && strings.Contains(words[0], "=") {
		return nil, nil, false
	}
	return words, globs, true
}
