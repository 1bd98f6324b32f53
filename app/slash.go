package app

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/quire-sh/quire/internal/editdist"
)

// slashCommand is one of the prompt's /commands.
type slashCommand struct {
	name string
	args string // argument synopsis for help, "" when none
	help string
}

// slashCommands lists every /command, in the order /help prints them.
var slashCommands = []slashCommand{
	{"help", "", "show keys and commands"},
	{"compact", "[focus]", "summarise the conversation to free context"},
	{"model", "[name]", "show or switch the model"},
	{"rewind", "[N] [conversation|files|both]", "go back to prompt N (conversation, files or both)"},
	{"sessions", "", "list sessions (quire resume ID opens one)"},
	{"export", "[file]", "write this session as a JSONL transcript"},
	{"mcp", "[restart NAME]", "list MCP servers, their tools, prompts and resources; reconnect one"},
	{"clear", "", "start a new session with an empty transcript"},
	{"mode", "[full|minimal]", "switch between full-screen and inline"},
	{"skills", "", "list the skills the model can load"},
	{"perf", "", "show or hide what each frame costs"},
	{"quit", "", "leave quire (the session stays resumable)"},
}

// SlashInvocation is a parsed /command line.
type SlashInvocation struct {
	Name string
	Args []string
	// Rest is the text after the name as typed (trimmed): the arguments
	// of a command from outside the app's table, which may span lines.
	Rest string
	// External is that command, nil for one of the app's own.
	External *Command
}

// ParseSlash parses a prompt that starts with '/', against the app's own
// commands and then the external ones given. ok is false when the text
// is not a command at all (so "/etc/hosts is broken" is a prompt, and so
// is a text of several lines unless it starts with an external command,
// whose arguments may span lines); err names an unknown command with the
// closest known one.
func ParseSlash(text string, external ...Command) (inv SlashInvocation, ok bool, err error) {
	text = strings.TrimSpace(text)
	if !strings.HasPrefix(text, "/") {
		return inv, false, nil
	}
	name, rest, _ := strings.Cut(text[1:], " ")
	if i := strings.IndexAny(name, "\t\n\r"); i >= 0 {
		name, rest = name[:i], text[1+i:]
	}
	rest = strings.TrimSpace(rest)
	if name == "" || strings.Contains(name, "/") { // a path, not a command
		return inv, false, nil
	}
	lines := strings.Contains(text, "\n")
	for _, c := range slashCommands {
		if c.name == name {
			if lines {
				return inv, false, nil
			}
			return SlashInvocation{Name: name, Args: strings.Fields(rest)}, true, nil
		}
	}
	for i := range external {
		if external[i].Name == name {
			return SlashInvocation{Name: name, Args: strings.Fields(rest), Rest: rest, External: &external[i]}, true, nil
		}
	}
	if lines {
		return inv, false, nil
	}
	if m := completeSlash(name, external); len(m) > 0 {
		return inv, true, fmt.Errorf("unknown command /%s (did you mean /%s?)", name, m[0])
	}
	if near := nearest(name, external); near != "" {
		return inv, true, fmt.Errorf("unknown command /%s (did you mean /%s?)", name, near)
	}
	return inv, true, fmt.Errorf("unknown command /%s (/help lists them)", name)
}

// nearest is the command name within two typing mistakes of name (the
// first such in /help's order), or "".
func nearest(name string, external []Command) string {
	names := make([]string, 0, len(slashCommands)+len(external))
	for _, c := range slashCommands {
		names = append(names, c.name)
	}
	for _, c := range external {
		names = append(names, c.Name)
	}
	best, bestD := "", 3
	for _, n := range names {
		if d := editdist.Levenshtein(name, n); d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

// completeSlash returns the command names that start with prefix, the
// app's own and the external ones, sorted.
func completeSlash(prefix string, external []Command) []string {
	var out []string
	for _, c := range slashCommands {
		if strings.HasPrefix(c.name, prefix) {
			out = append(out, c.name)
		}
	}
	for _, c := range external {
		if strings.HasPrefix(c.Name, prefix) {
			out = append(out, c.Name)
		}
	}
	sort.Strings(out)
	return out
}

// CompleteSlashLine completes the command name being typed in a prompt
// that is only "/prefix", among the app's commands and the external ones
// given. It returns the completed text and true when the prefix is
// unambiguous; otherwise the candidates for display.
func CompleteSlashLine(text string, external ...Command) (completed string, candidates []string) {
	if !strings.HasPrefix(text, "/") || strings.ContainsAny(text, " \n") {
		return text, nil
	}
	m := completeSlash(text[1:], external)
	if len(m) == 1 {
		return "/" + m[0] + " ", nil
	}
	if p := commonPrefix(m); len(p) > len(text)-1 {
		return "/" + p, nil
	}
	return text, m
}

// commonPrefix is the longest prefix every name shares.
func commonPrefix(names []string) string {
	if len(names) == 0 {
		return ""
	}
	p := names[0]
	for _, n := range names[1:] {
		for !strings.HasPrefix(n, p) {
			p = p[:len(p)-1]
		}
	}
	return p
}

// slashHelp is the /help text for commands: the app's own, then the
// external ones with where each comes from.
func slashHelp(external []Command) []string {
	out := make([]string, 0, len(slashCommands)+len(external)+2)
	for _, c := range slashCommands {
		out = append(out, fmt.Sprintf("/%-10s %-32s %s", c.name, c.args, c.help))
	}
	if len(external) > 0 {
		out = append(out, "", "Custom commands and MCP prompts (the text they send is folded under what you typed):")
	}
	for _, c := range external {
		line := fmt.Sprintf("/%-10s %-32s %s", c.Name, c.Args, c.Summary)
		if c.Source != "" {
			line += " (" + c.Source + ")"
		}
		out = append(out, line)
	}
	return out
}

// slash carries out the /commands the state can do alone and hands the
// rest to the loop.
func (m *Model) slash(inv SlashInvocation, now time.Time) []Effect {
	switch inv.Name {
	case "mcp":
		if m.status.Replay {
			m.flash("this is a replay: it has no MCP servers", now)
			return nil
		}
		return []Effect{MCPEffect{Args: inv.Args}}
	case "help":
		m.overlay = helpLines(m.status.ShiftEnter, m.commands)
	case "skills":
		if m.status.Replay {
			m.flash("this is a replay: its skills are not known", now)
			return nil
		}
		m.overlay = skillLines(m.skills, m.width)
	case "quit":
		m.quit = true
	case "perf":
		m.togglePerf()
	case "compact":
		return []Effect{CompactEffect{Focus: strings.Join(inv.Args, " ")}}
	case "mode":
		want := !m.minimal
		if len(inv.Args) > 0 {
			switch inv.Args[0] {
			case "full", "fullscreen", "full-screen":
				want = false
			case "minimal", "inline":
				want = true
			default:
				m.flash(fmt.Sprintf("/mode takes full or minimal, not %q", inv.Args[0]), now)
				return nil
			}
		}
		if want == m.minimal {
			return nil
		}
		return []Effect{ModeEffect{Minimal: want}}
	case "export":
		path := ""
		if len(inv.Args) > 0 {
			path = inv.Args[0]
		}
		return []Effect{ExportEffect{Path: path}}
	case "sessions":
		return []Effect{SessionsEffect{}}
	case "model":
		if len(inv.Args) == 0 {
			m.flash("model: "+m.status.Model+" (/model NAME switches)", now)
			return nil
		}
		return m.beginSwitch(SwitchEffect{Op: SwitchModel, Model: inv.Args[0]}, "switching to "+inv.Args[0]+"…", now)
	case "clear":
		return m.beginSwitch(SwitchEffect{Op: SwitchClear}, "starting a new session…", now)
	case "rewind":
		e, err := parseRewind(inv.Args)
		if err != nil {
			m.flash(err.Error(), now)
			return nil
		}
		if m.running {
			m.flash("/rewind waits for the turn to end: Esc cancels it", now)
			return nil
		}
		return m.beginSwitch(e, "rewinding…", now)
	}
	return nil
}

// beginSwitch asks for an operation that replaces the session, one at a
// time; prompts wait in the editor until it is done.
func (m *Model) beginSwitch(e SwitchEffect, doing string, now time.Time) []Effect {
	if m.status.Replay {
		m.flash("this is a replay: the session cannot be switched", now)
		return nil
	}
	if m.switching {
		m.flash("wait a moment: the session is being switched", now)
		return nil
	}
	m.switching, m.switchingLabel = true, doing
	m.dirty = true
	return []Effect{e}
}

// parseRewind reads /rewind [N] [conversation|files|both].
func parseRewind(args []string) (SwitchEffect, error) {
	e := SwitchEffect{Op: SwitchRewind, What: "both"}
	for _, a := range args {
		if n, err := strconv.Atoi(a); err == nil {
			if n < 1 {
				return e, fmt.Errorf("/rewind %d: prompts are numbered from 1", n)
			}
			e.Prompt = n
			continue
		}
		switch a {
		case "conversation", "files", "both":
			e.What = a
		default:
			return e, fmt.Errorf("/rewind takes a prompt number and conversation, files or both, not %q", a)
		}
	}
	return e, nil
}
