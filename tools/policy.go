package tools

import (
	"fmt"
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

// readOnlyPrograms are the programs auto-edit runs without asking when
// they form a simple command. Each only reads; the options that would make
// one write or run other programs are refused by readOnlyArgs. git is
// absent on purpose: repository config (core.fsmonitor, diff.external,
// textconv) can make even "git status" run arbitrary programs.
var readOnlyPrograms = map[string]bool{
	"ls": true, "pwd": true, "cat": true, "head": true, "tail": true, "wc": true,
	"grep": true, "egrep": true, "fgrep": true, "rg": true, "find": true,
	"file": true, "stat": true, "du": true, "df": true, "which": true,
	"echo": true, "true": true, "date": true, "uname": true, "whoami": true,
	"id": true, "basename": true, "dirname": true, "realpath": true,
	"readlink": true, "diff": true, "cmp": true, "sort": true, "nl": true,
	"tree": true, "sha256sum": true, "md5sum": true,
}

// ReadOnlyCommand reports whether cmd is a single simple command running
// an allowlisted read-only program with no option that writes or runs
// something else. Anything it cannot parse with certainty is not
// read-only: lists (;, &&, ||, &), pipes, redirections, command or process
// substitution, variable expansion, subshells and newlines all fail.
func ReadOnlyCommand(cmd string) bool {
	words, ok := simpleWords(cmd)
	if !ok || len(words) == 0 || !readOnlyPrograms[words[0]] {
		return false
	}
	return readOnlyArgs(words[0], words[1:], cmd)
}

func readOnlyArgs(prog string, args []string, raw string) bool {
	for _, a := range args {
		switch prog {
		case "find":
			switch a {
			case "-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls":
				return false
			}
		case "rg":
			if strings.HasPrefix(a, "--pre") {
				return false
			}
		case "sort":
			// -o writes a file; --compress-program runs one.
			if shortFlag(a, 'o') || strings.HasPrefix(a, "--output") || strings.HasPrefix(a, "--compress") {
				return false
			}
		case "file":
			// -C compiles a magic file, writing NAME.mgc.
			if shortFlag(a, 'C') || a == "--compile" {
				return false
			}
		case "date":
			if shortFlag(a, 's') || strings.HasPrefix(a, "--set") {
				return false
			}
		case "tree":
			if shortFlag(a, 'o') {
				return false
			}
		}
	}
	// A glob could expand to a file named like an option ("-delete").
	if prog == "find" && strings.ContainsAny(raw, "*?[") {
		return false
	}
	return true
}

// shortFlag reports whether a is a cluster of short options ("-nro")
// that contains c. Clusters are refused whole: telling an option's value
// from further options would need each program's grammar.
func shortFlag(a string, c byte) bool {
	return len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.IndexByte(a[1:], c) >= 0
}

// simpleWords splits cmd into words if it is one simple command with
// nothing the shell would interpret beyond quoting and globbing. ok is
// false otherwise.
func simpleWords(cmd string) (words []string, ok bool) {
	var cur strings.Builder
	inWord := false
	flush := func() {
		if inWord {
			words = append(words, cur.String())
			cur.Reset()
			inWord = false
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
				return nil, false
			}
			cur.WriteString(cmd[i+1 : i+1+end])
			inWord = true
			i += end + 1
		case c == '"':
			j := i + 1
			for ; j < len(cmd) && cmd[j] != '"'; j++ {
				switch cmd[j] {
				case '$', '`', '\\', '!':
					return nil, false
				}
				cur.WriteByte(cmd[j])
			}
			if j == len(cmd) {
				return nil, false
			}
			inWord = true
			i = j
		case c == '\\':
			if i+1 >= len(cmd) || cmd[i+1] == '\n' {
				return nil, false
			}
			cur.WriteByte(cmd[i+1])
			inWord = true
			i++
		case strings.IndexByte(";&|<>()$`\n\r{}!#", c) >= 0:
			// '#' may start a comment hiding the rest; braces expand.
			return nil, false
		case c < 0x20 || c == 0x7f:
			return nil, false
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	flush()
	// "VAR=value cmd" changes the program's environment (PAGER, LD_PRELOAD).
	if len(words) > 0 && strings.Contains(words[0], "=") {
		return nil, false
	}
	return words, true
}
