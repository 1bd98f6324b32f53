package app

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Command is a /command from outside the app's own table: a custom
// command from a markdown file, a prompt an MCP server offers. The session
// supplies them (Options.Commands); /help lists them with their source,
// Tab completes them, and running one sends the prompt Expand makes of
// what was typed after its name, as if the user had typed that prompt.
// The transcript shows the line typed, with the expansion folded below.
type Command struct {
	// Name is the command without its slash.
	Name string
	// Args is the argument synopsis for /help ("FILE [focus]"), "" when
	// it has none.
	Args string
	// Summary is one line for /help.
	Summary string
	// Source says where it comes from, for /help: "project", "user",
	// "mcp github".
	Source string
	// Origin names it exactly, for notices: a file's path, a server.
	Origin string
	// Expand turns the text after the name into the prompt to send. It
	// may block (it reads a file, asks a server): the loop calls it off
	// its goroutine, with a deadline, and sends prompts typed after the
	// command only once the command's has gone.
	Expand func(ctx context.Context, args string) (string, error)
}

// expandTimeout bounds an expansion; the prompts typed after it wait for
// it, so one that hangs must not hold them forever.
const expandTimeout = 30 * time.Second

// CheckCommands keeps the commands that can be typed: a name the app's
// own table has, or one an earlier command in the list already took, is
// dropped with a notice naming the command that wins. Callers pass their
// commands in precedence order, highest first.
func CheckCommands(cmds []Command) (kept []Command, notices []string) {
	taken := map[string]string{}
	for _, c := range slashCommands {
		taken[c.name] = "quire's own command"
	}
	for _, c := range cmds {
		if c.Name == "" || strings.ContainsAny(c.Name, " \t\n/") || c.Expand == nil {
			notices = append(notices, fmt.Sprintf("%s: %q cannot be a /command; it is skipped", c.Origin, c.Name))
			continue
		}
		if by, ok := taken[c.Name]; ok {
			notices = append(notices, fmt.Sprintf("%s: /%s is %s, which wins; rename it to use it", c.Origin, c.Name, by))
			continue
		}
		taken[c.Name] = "taken by " + c.Origin
		kept = append(kept, c)
	}
	return kept, notices
}

// SkillInfo is one skill in the /skills list.
type SkillInfo struct {
	Name        string
	Description string
	// Source is its layer ("project", "user", "configured", "built-in")
	// and Path where it is, as shown.
	Source, Path string
	// Shadows are the skills of its name it hides, highest first, each
	// as "source path".
	Shadows []string
}

// maxListed is how many skills the /skills overlay shows.
const maxListed = 30

// skillLines is the /skills overlay for a screen width wide: each
// description cut to one line.
func skillLines(list []SkillInfo, width int) []string {
	if len(list) == 0 {
		return []string{"No skills. A skill is a folder with a SKILL.md: .quire/skills/NAME/ in a project,", "skills/NAME/ in quire's config dir (README: Skills and commands)."}
	}
	lines := []string{"Skills (the model loads one with load_skill when a task matches its description):", ""}
	for i, s := range list {
		if i == maxListed {
			lines = append(lines, fmt.Sprintf("… and %d more", len(list)-i))
			break
		}
		lines = append(lines, fmt.Sprintf("%-24s %-10s %s", s.Name, s.Source, s.Path))
		lines = append(lines, "  "+fitWidth(s.Description, max(width-6, 20)))
		for _, sh := range s.Shadows {
			lines = append(lines, "  shadows "+sh)
		}
	}
	return lines
}
