package skills

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/quire-sh/quire/ext/frontmatter"
)

// Settings is the [skills] table of config.toml.
type Settings struct {
	// Paths are more directories of skill folders, searched after the
	// user's own and before the built-in skills: absolute, or starting
	// with ~/.
	Paths []string `toml:"paths"`
}

// Options say where Discover looks.
type Options struct {
	// Cwd is the working directory; the repository root is the nearest
	// directory above it that holds .git.
	Cwd string
	// ConfigDir is quire's config dir, which holds the user's skills/ and
	// commands/.
	ConfigDir string
	// Home resolves ~/ in the configured paths and shortens the paths
	// listings show.
	Home string
	// Settings is the [skills] table.
	Settings Settings
}

// projectSkillDirs are where a project keeps skills, highest first: its
// own, then the folders of packs written for other agents.
var projectSkillDirs = []string{".quire/skills", ".agents/skills", ".claude/skills"}

// root is a directory to search and the layer it belongs to.
type root struct {
	dir   string
	layer Layer
	// named: the directory was named in the settings, so its absence is
	// worth a notice.
	named bool
}

// projects are the working directory and, when it is below one, the
// repository root, with their layers.
func projects(cwd string) []root {
	out := []root{{dir: cwd, layer: Local}}
	if r := repoRoot(cwd); r != "" && r != cwd {
		out = append(out, root{dir: r, layer: Repo})
	}
	return out
}

// Discover finds the skills and commands opt points at. It never fails:
// what cannot be read is a notice in the catalog.
func Discover(opt Options) *Catalog {
	c := &Catalog{show: shower{cwd: opt.Cwd, home: opt.Home}}
	var roots []root
	for _, p := range projects(opt.Cwd) {
		for _, d := range projectSkillDirs {
			roots = append(roots, root{dir: filepath.Join(p.dir, filepath.FromSlash(d)), layer: p.layer})
		}
	}
	if opt.ConfigDir != "" {
		roots = append(roots, root{dir: filepath.Join(opt.ConfigDir, "skills"), layer: User})
	}
	for _, p := range opt.Settings.Paths {
		dir, ok := expandHome(p, opt.Home)
		if !ok || !filepath.IsAbs(dir) {
			c.notice("[skills] paths: %q is not an absolute path (or one starting with ~/); it is skipped", clip(p))
			continue
		}
		roots = append(roots, root{dir: dir, layer: Configured, named: true})
	}
	for _, r := range dedupDirs(roots) {
		c.scanSkills(r)
	}
	c.addBuiltins()

	var cmdRoots []root
	for _, p := range projects(opt.Cwd) {
		cmdRoots = append(cmdRoots, root{dir: filepath.Join(p.dir, ".quire", "commands"), layer: p.layer})
	}
	if opt.ConfigDir != "" {
		cmdRoots = append(cmdRoots, root{dir: filepath.Join(opt.ConfigDir, "commands"), layer: User})
	}
	cmds := map[string]int{}
	for _, r := range dedupDirs(cmdRoots) {
		c.scanCommands(r, cmds)
	}
	c.finish()
	if _, left := c.listed(); left > 0 {
		c.notice("%d skills are left out of the system prompt, whose list of skills is limited to %d KiB (the project's come first); they still load by name, and /skills lists them", left, maxPromptList>>10)
	}
	return c
}

func (c *Catalog) notice(format string, args ...any) {
	c.Notices = append(c.Notices, fmt.Sprintf(format, args...))
}

// readDir lists a directory to search, sorted by name; a missing one is
// empty (and a notice when it was named in the settings).
func (c *Catalog) readDir(r root) []fs.DirEntry {
	entries, err := os.ReadDir(r.dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if r.named {
			c.notice("[skills] paths: %s does not exist", c.show.path(r.dir))
		}
		return nil
	case err != nil:
		c.notice("%s cannot be read (%v); what it holds is skipped", c.show.path(r.dir), unwrapPath(err))
		return nil
	}
	if len(entries) > maxEntries {
		c.notice("%s holds more than %d entries; only the first %d are read", c.show.path(r.dir), maxEntries, maxEntries)
		entries = entries[:maxEntries]
	}
	return entries
}

// skillFront is what a SKILL.md's frontmatter says that quire uses.
// Other keys (license, metadata, allowed-tools, …) are other programs'
// and are ignored: a skill is text, and nothing in one changes a setting.
type skillFront struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
}

// scanSkills adds the skill folders of r.
func (c *Catalog) scanSkills(r root) {
	for _, e := range c.readDir(r) {
		if e.Name()[0] == '.' {
			continue
		}
		dir := filepath.Join(r.dir, e.Name())
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			continue
		}
		path := filepath.Join(dir, "SKILL.md")
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		s, err := readSkill(path, e.Name())
		if err != nil {
			c.notice("%s: %v; the skill is skipped", c.show.path(path), err)
			continue
		}
		s.Layer, s.Path, s.Dir, s.Shown = r.layer, path, dir, c.show.path(path)
		c.addSkill(s)
	}
}

// readSkill reads the frontmatter of the SKILL.md at path, in a folder
// named folder, and checks it.
func readSkill(path, folder string) (Skill, error) {
	d, err := frontmatter.ReadFile(path, 0)
	if err != nil {
		return Skill{}, unwrapPath(err)
	}
	return checkSkill(d, folder)
}

// checkSkill checks a SKILL.md's frontmatter: a name (the folder's, when
// absent) that is the folder's name, and a description.
func checkSkill(d frontmatter.Doc, folder string) (Skill, error) {
	if !d.HasFront {
		return Skill{}, errors.New("there is no frontmatter (a --- line, name: and description:, a --- line) at its top")
	}
	var f skillFront
	if err := d.Decode(&f); err != nil {
		return Skill{}, err
	}
	name := oneLine(f.Name)
	if name == "" {
		name = folder
	}
	if err := checkName(name, false); err != nil {
		return Skill{}, err
	}
	if name != folder {
		return Skill{}, fmt.Errorf("the name %q is not its folder's name %q", name, clip(folder))
	}
	desc := oneLine(f.Description)
	switch n := len([]rune(desc)); {
	case n == 0:
		return Skill{}, errors.New("there is no description: the model could not tell when to use it")
	case n > maxDescription:
		return Skill{}, fmt.Errorf("the description is %d characters long; at most %d fit", n, maxDescription)
	}
	return Skill{Name: name, Description: desc}, nil
}

// unwrapPath drops the path an *fs.PathError repeats: notices name the
// file already.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
