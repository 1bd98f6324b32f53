package skills

import (
	"path/filepath"
	"sort"
)

// Layer is where a skill or command was found, in precedence order: a
// lower Layer wins over a higher one of the same name.
type Layer int

const (
	// Local is the working directory's own .quire (.agents, .claude).
	Local Layer = iota
	// Repo is the repository root's, when the working directory is below
	// it.
	Repo
	// User is the user's config dir.
	User
	// Configured is a directory named in [skills] paths.
	Configured
	// Builtin is shipped inside quire.
	Builtin
)

// String is the layer as listings show it.
func (l Layer) String() string {
	switch l {
	case Local, Repo:
		return "project"
	case User:
		return "user"
	case Configured:
		return "configured"
	}
	return "built-in"
}

// Skill is one skill the model may load.
type Skill struct {
	Name        string
	Description string
	Layer       Layer
	// Path is the SKILL.md, Dir its folder ("" for a built-in skill).
	Path, Dir string
	// Shown is Path as listings show it (relative to the working
	// directory, or with ~).
	Shown string
	// Shadows are the skills of the same name this one hides, highest
	// first.
	Shadows []Shadowed
}

// Shadowed is a skill or command hidden by a higher one of its name.
type Shadowed struct {
	Layer Layer
	Shown string
}

// Command is one custom slash command.
type Command struct {
	Name        string
	Description string
	// ArgumentHint is the synopsis of its arguments ("[file]"), from the
	// frontmatter's argument-hint.
	ArgumentHint string
	Layer        Layer
	Path, Shown  string
	Shadows      []Shadowed
}

// Catalog is what Discover found.
type Catalog struct {
	// Skills and Commands are sorted by name, each the winner of its name.
	Skills   []Skill
	Commands []Command
	// Notices are the problems found, one line each, in the order found.
	Notices []string

	byName map[string]int // index into Skills
	show   shower
}

// Skill finds a skill by name.
func (c *Catalog) Skill(name string) (Skill, bool) {
	if c == nil {
		return Skill{}, false
	}
	i, ok := c.byName[name]
	if !ok {
		return Skill{}, false
	}
	return c.Skills[i], true
}

// addSkill adds s unless a skill of its name was found first (higher),
// which then records that it shadows s.
func (c *Catalog) addSkill(s Skill) {
	if c.byName == nil {
		c.byName = map[string]int{}
	}
	if i, ok := c.byName[s.Name]; ok {
		c.Skills[i].Shadows = append(c.Skills[i].Shadows, Shadowed{Layer: s.Layer, Shown: s.Shown})
		return
	}
	c.byName[s.Name] = len(c.Skills)
	c.Skills = append(c.Skills, s)
}

// finish sorts the lists by name and rebuilds the index over the sorted
// slice.
func (c *Catalog) finish() {
	sort.SliceStable(c.Skills, func(i, j int) bool { return c.Skills[i].Name < c.Skills[j].Name })
	sort.SliceStable(c.Commands, func(i, j int) bool { return c.Commands[i].Name < c.Commands[j].Name })
	c.byName = make(map[string]int, len(c.Skills))
	for i, s := range c.Skills {
		c.byName[s.Name] = i
	}
}

// dedupDirs drops repeated directories, keeping the first (highest).
func dedupDirs(dirs []root) []root {
	seen := map[string]bool{}
	out := dirs[:0]
	for _, d := range dirs {
		key := filepath.Clean(d.dir)
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, d)
	}
	return out
}
