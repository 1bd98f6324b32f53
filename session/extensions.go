package session

import (
	"context"
	"os"
	"strings"

	"github.com/quire-sh/quire/app"
	"github.com/quire-sh/quire/config"
	"github.com/quire-sh/quire/ext/skills"
)

// extensions are the skills and custom commands found for a working
// directory, found once per Handle (or quire exec) and shared by the
// sessions it switches between: the system prompt's list of skills
// stays the same across /model and /clear.
//
// Project skills and commands load without the project-trust question,
// as AGENTS.md does: they are text for the model, run nothing and
// change no setting (keys of other agents' frontmatter that would, such
// as allowed-tools or hooks, are ignored). Every call the model makes
// because of them goes through the same approval policy and sandbox as
// any other.
type extensions struct {
	catalog *skills.Catalog
	// commands are the custom commands as the app runs them, checked
	// against its own table.
	commands []app.Command
	// notices are what was skipped and why.
	notices []string
}

// discoverExtensions finds the skills and commands for cwd.
func discoverExtensions(cfg *config.Config, cwd string) *extensions {
	home, _ := os.UserHomeDir()
	cat := skills.Discover(skills.Options{Cwd: cwd, ConfigDir: config.ConfigDir(os.Getenv), Home: home, Settings: cfg.Skills})
	cmds := make([]app.Command, 0, len(cat.Commands))
	for _, c := range cat.Commands {
		source := c.Layer.String()
		if len(c.Shadows) > 0 {
			var hidden []string
			for _, s := range c.Shadows {
				hidden = append(hidden, s.Layer.String())
			}
			source += "; shadows the " + strings.Join(hidden, " and ") + " one"
		}
		cmds = append(cmds, app.Command{
			Name: c.Name, Args: c.ArgumentHint, Summary: c.Description, Source: source, Origin: c.Shown,
			Expand: func(_ context.Context, args string) (string, error) { return c.Expand(args) },
		})
	}
	kept, notices := app.CheckCommands(cmds)
	return &extensions{catalog: cat, commands: kept, notices: append(append([]string(nil), cat.Notices...), notices...)}
}

// skillList is the /skills list.
func (x *extensions) skillList() []app.SkillInfo {
	if x == nil {
		return nil
	}
	out := make([]app.SkillInfo, 0, len(x.catalog.Skills))
	for _, s := range x.catalog.Skills {
		info := app.SkillInfo{Name: s.Name, Description: s.Description, Source: s.Layer.String(), Path: s.Shown}
		for _, sh := range s.Shadows {
			info.Shadows = append(info.Shadows, sh.Layer.String()+" "+sh.Shown)
		}
		out = append(out, info)
	}
	return out
}
