package skills

import (
	"embed"
	"io/fs"
	"path"

	"github.com/quire-sh/quire/ext/frontmatter"
)

// builtinFS holds the skills shipped inside quire, one folder each.
//
//go:embed builtin
var builtinFS embed.FS

// addBuiltins adds the built-in skills, below every other layer.
func (c *Catalog) addBuiltins() {
	entries, _ := fs.ReadDir(builtinFS, "builtin")
	for _, e := range entries {
		p := path.Join("builtin", e.Name(), "SKILL.md")
		data, err := builtinFS.ReadFile(p)
		if err != nil {
			continue
		}
		d, err := frontmatter.Parse(data)
		if err == nil {
			var s Skill
			if s, err = checkSkill(d, e.Name()); err == nil {
				s.Layer, s.Shown = Builtin, "built into quire"
				c.addSkill(s)
				continue
			}
		}
		c.notice("the built-in skill %s: %v", e.Name(), err)
	}
}

// builtinBody is the body of the built-in skill name.
func builtinBody(name string) (frontmatter.Doc, error) {
	data, err := builtinFS.ReadFile(path.Join("builtin", name, "SKILL.md"))
	if err != nil {
		return frontmatter.Doc{}, err
	}
	return frontmatter.Parse(data)
}
