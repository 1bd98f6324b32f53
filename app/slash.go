package app

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
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
	{"perf", "", "show or hide what each frame costs"},
	{"quit", "", "leave quire (the session stays resumable)"},
}

// SlashInvocation is a parsed /command line.
type SlashInvocation struct {
	Name string
	Args []string
	// Extension: the command is one an extension added (an MCP prompt).
	Extension bool
}

// ParseSlash parses a prompt that starts with '/'. ok is false when the
// text is not a command at all (so "/etc/hosts is broken" is a prompt);
// err names an unknown command with the closest known one.
func ParseSlash(text string) (inv SlashInvocation, ok bool, err error) {
	return parseSlash(text, nil)
}

// parseSlash is ParseSlash knowing the commands extensions add too.
func parseSlash(text string, extra []slashCommand) (inv SlashInvocation, ok bool, err error) {
	text = strings.TrimSpace(text)
	if !strings.HasPrefix(text, "/") || strings.Contains(text, "\n") {
		return inv, false, nil
	}
	fields := strings.Fields(text[1:])
	if len(fields) == 0 {
		return inv, false, nil
	}
	name := fields[0]
	if strings.Contains(name, "/") { // a path, not a command
		return inv, false, nil
	}
	for _, c := range slashCommands {
		if c.name == name {
			return SlashInvocation{Name: name, Args: fields[1:]}, true, nil
		}
	}
	for _, c := range extra {
		if c.name == name {
			return SlashInvocation{Name: name, Args: fields[1:], Extension: true}, true, nil
		}
	}
	if m := completeSlash(name, extra); len(m) > 0 {
		return inv, true, fmt.Errorf("unknown command /%s (did you mean /%s?)", name, m[0])
	}
	return inv, true, fmt.Errorf("unknown command /%s (/help lists them)", name)
}

// completeSlash returns the command names that start with prefix,
// sorted, the extensions' included.
func completeSlash(prefix string, extra []slashCommand) []string {
	var out []string
	for _, c := range append(slashCommands[:len(slashCommands):len(slashCommands)], extra...) {
		if strings.HasPrefix(c.name, prefix) {
			out = append(out, c.name)
		}
	}
	sort.Strings(out)
	return out
}

// CompleteSlashLine completes the command name being typed in a prompt
// that is only "/prefix". It returns the completed text and true when the
// prefix is unambiguous; otherwise the candidates for display.
func CompleteSlashLine(text string) (completed string, candidates []string) {
	return completeSlashLine(text, nil)
}

func completeSlashLine(text string, extra []slashCommand) (completed string, candidates []string) {
	if !strings.HasPrefix(text, "/") || strings.ContainsAny(text, " \n") {
		return text, nil
	}
	m := completeSlash(text[1:], extra)
	if len(m) == 1 {
		return "/" + m[0] + " ", nil
	}
	return text, m
}

// slashHelp is the /help text for commands, then the extensions'.
func slashHelp(extra []slashCommand) []string {
	out := make([]string, 0, len(slashCommands)+len(extra)+1)
	for _, c := range slashCommands {
		out = append(out, fmt.Sprintf("/%-10s %-32s %s", c.name, c.args, c.help))
	}
	if len(extra) > 0 {
		out = append(out, "", "MCP prompts (sent as your message):")
	}
	for _, c := range extra {
		out = append(out, fmt.Sprintf("/%s %s  %s", c.name, c.args, c.help))
	}
	return out
}

// slash carries out the /commands the state can do alone and hands the
// rest to the loop.
func (m *Model) slash(inv SlashInvocation, now time.Time) []Effect {
	if inv.Extension {
		if m.status.Replay {
			m.flash("this is a replay: prompts cannot be sent", now)
			return nil
		}
		m.tr.SetFollow(true)
		return []Effect{ExtensionCommandEffect{Name: inv.Name, Args: inv.Args}}
	}
	switch inv.Name {
	case "mcp":
		if m.status.Replay {
			m.flash("this is a replay: it has no MCP servers", now)
			return nil
		}
		return []Effect{MCPEffect{Args: inv.Args}}
	case "help":
		m.overlay = m.helpLines()
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
