package agents

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/quire-sh/quire/ext/frontmatter"
	"github.com/quire-sh/quire/internal/pathx"
)

// Definition is one agent a task call can run its child session as.
type Definition struct {
	// Name is how a task call names it: the frontmatter's name, or the
	// file's name without .md.
	Name string
	// Description says when to use it; the model reads it in the task
	// tool's description.
	Description string
	// Tools are the names or patterns (path.Match syntax: mcp__github__*)
	// of the tools its child may use, within the parent's; nil when the
	// definition does not say (the read-only tools), empty for none.
	Tools []string
	// Model is the model its child talks to ([PROVIDER/]MODEL), "" for
	// the parent's.
	Model string
	// Instructions is the markdown body: what the child is told about its
	// role, in its system prompt.
	Instructions string
	// Persona names the persona (personas/NAME.md) the definition builds
	// on, "" for none; it is read when a child is spawned (ReadPersona).
	Persona string
	// Path is the file it came from; Layer where that file was found.
	Path  string
	Layer Layer
}

// Layer is where a definition was found; a name found in an earlier
// layer hides the same name in later ones.
type Layer int

const (
	Local Layer = iota // the working directory's .quire/agents
	Repo               // the repository root's .quire/agents
	User               // the user's config dir's agents/
)

func (l Layer) String() string {
	return [...]string{"project", "repository", "user"}[l]
}

// Options say where Load looks.
type Options struct {
	// Cwd is the working directory; the repository root is the nearest
	// directory above it that holds .git.
	Cwd string
	// ConfigDir is quire's config dir (${XDG_CONFIG_HOME:-~/.config}/quire),
	// whose agents/ holds the user's own definitions.
	ConfigDir string
	// Home shortens the paths notices name.
	Home string
}

// Limits on what is read.
const (
	// MaxFileBytes is the largest definition read.
	MaxFileBytes = 128 << 10
	// MaxFiles is how many definitions one directory may offer.
	MaxFiles = 200
	// MaxDescription bounds a description, in characters.
	MaxDescription = 1024
)

// root is a directory of definitions or personas and its layer.
type root struct {
	dir   string
	layer Layer
}

// roots are the directories named sub that opt points at, highest
// precedence first: the working directory's .quire/sub, the repository
// root's, then the user's sub/ in quire's config dir.
func (opt Options) roots(sub string) []root {
	var roots []root
	if opt.Cwd != "" {
		roots = append(roots, root{filepath.Join(opt.Cwd, ".quire", sub), Local})
		if r := repoRoot(opt.Cwd); r != "" && r != filepath.Clean(opt.Cwd) {
			roots = append(roots, root{filepath.Join(r, ".quire", sub), Repo})
		}
	}
	if opt.ConfigDir != "" {
		roots = append(roots, root{filepath.Join(opt.ConfigDir, sub), User})
	}
	return roots
}

// Load finds the agent definitions opt points at, highest precedence
// first: the working directory's .quire/agents/*.md, the repository
// root's, then the user's. It never fails: each file that cannot be used
// is one notice (naming the file and the problem) and is skipped, and
// the definitions come sorted by name.
func Load(opt Options) (defs []Definition, notices []string) {
	show := func(p string) string { return pathx.Display(p, opt.Cwd, opt.Home) }
	seen := map[string]Definition{}
	for _, r := range opt.roots("agents") {
		entries, err := os.ReadDir(r.dir)
		if err != nil {
			if !errors.Is(err, os.ErrNotExist) {
				notices = append(notices, fmt.Sprintf("agent definitions in %s cannot be read: %v", show(r.dir), cause(err)))
			}
			continue
		}
		var files []string
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".md") && !strings.HasPrefix(e.Name(), ".") {
				files = append(files, e.Name())
			}
		}
		sort.Strings(files)
		if len(files) > MaxFiles {
			notices = append(notices, fmt.Sprintf("%s holds %d agent definitions; only the first %d (by file name) are read", show(r.dir), len(files), MaxFiles))
			files = files[:MaxFiles]
		}
		inDir := map[string]string{} // name → file, within this directory
		for _, name := range files {
			p := filepath.Join(r.dir, name)
			d, err := ReadFile(p)
			if err != nil {
				notices = append(notices, fmt.Sprintf("agent definition %s: %v; it is skipped", show(p), err))
				continue
			}
			d.Layer = r.layer
			if other, dup := inDir[d.Name]; dup {
				notices = append(notices, fmt.Sprintf("agent definition %s: %s already defines the agent %q; this one is skipped", show(p), other, d.Name))
				continue
			}
			inDir[d.Name] = name
			if _, hidden := seen[d.Name]; hidden {
				continue // a definition of higher precedence has the name
			}
			seen[d.Name] = d
		}
	}
	for _, d := range seen {
		defs = append(defs, d)
	}
	sort.Slice(defs, func(i, j int) bool { return defs[i].Name < defs[j].Name })
	return defs, notices
}

// ReadFile reads one definition: markdown with frontmatter giving at
// least its description. Its errors say what is wrong in words a user
// can act on, naming the file's line where there is one. No more of the
// file than its frontmatter and MaxFileBytes is read.
func ReadFile(p string) (Definition, error) {
	doc, err := frontmatter.ReadFile(p, MaxFileBytes)
	if err != nil {
		return Definition{}, cause(err)
	}
	if doc.Truncated || doc.BodyOffset+len(doc.Body) > MaxFileBytes {
		return Definition{}, fmt.Errorf("it is larger than %d KiB", MaxFileBytes>>10)
	}
	stem := strings.TrimSuffix(filepath.Base(p), ".md")
	d, err := fromDoc(stem, doc)
	d.Path = p
	return d, err
}

// Parse reads a definition from its file's content; stem is the file's
// name without .md, the agent's name when the frontmatter gives none.
func Parse(stem string, data []byte) (Definition, error) {
	doc, err := frontmatter.Parse(data)
	if err != nil {
		return Definition{}, err
	}
	return fromDoc(stem, doc)
}

// front is what a definition's frontmatter gives.
type front struct {
	Name        string           `yaml:"name"`
	Description string           `yaml:"description"`
	Tools       frontmatter.List `yaml:"tools"`
	Model       string           `yaml:"model"`
	Persona     string           `yaml:"persona"`
}

// fromDoc checks a definition's frontmatter and takes its body as the
// instructions. Every problem with a value is said at once.
func fromDoc(stem string, doc frontmatter.Doc) (Definition, error) {
	if !utf8.Valid(doc.Front) || !utf8.Valid(doc.Body) {
		return Definition{}, errors.New("it is not UTF-8 text")
	}
	if !doc.HasFront {
		return Definition{}, errors.New("it has no frontmatter: a definition starts with a --- line, then name:, description: (and optionally tools: and model:), then a --- line and the instructions")
	}
	var f front
	lines, err := doc.DecodeLines(&f)
	if err != nil {
		return Definition{}, err
	}
	at := func(key string) string {
		if n, ok := lines[key]; ok {
			return fmt.Sprintf("line %d: ", n)
		}
		return ""
	}
	var problems []string
	d := Definition{Instructions: strings.TrimSpace(string(doc.Body))}
	d.Name = strings.TrimSpace(f.Name)
	if d.Name == "" {
		d.Name = stem
	}
	if !ValidName(d.Name) {
		problems = append(problems, fmt.Sprintf("%sthe name %q is not 1 to 64 letters, digits, '-' or '_'", at("name"), clip(d.Name)))
	}
	desc := strings.TrimSpace(f.Description)
	if desc == "" {
		problems = append(problems, "it has no description: the model chooses an agent by it")
	} else if n := utf8.RuneCountInString(desc); n > MaxDescription {
		problems = append(problems, fmt.Sprintf("%sthe description is %d characters long, more than %d", at("description"), n, MaxDescription))
	}
	d.Description = strings.Join(strings.Fields(desc), " ")
	var more []string
	d.Model, d.Tools, more = modelAndTools(f, lines, at)
	problems = append(problems, more...)
	d.Persona = strings.TrimSpace(f.Persona)
	if d.Persona != "" && !ValidName(d.Persona) {
		problems = append(problems, fmt.Sprintf("%sthe persona %q is not 1 to 64 letters, digits, '-' or '_'", at("persona"), clip(d.Persona)))
	}
	if len(problems) > 0 {
		return Definition{}, errors.New(strings.Join(problems, "; "))
	}
	return d, nil
}

// modelAndTools checks the model: and tools: a definition or a persona
// gives; at names a key's line for a problem.
func modelAndTools(f front, lines map[string]int, at func(string) string) (model string, tools []string, problems []string) {
	model = strings.TrimSpace(f.Model)
	if strings.ContainsAny(model, " \t\r\n") {
		problems = append(problems, fmt.Sprintf("%sthe model %q has blanks in it", at("model"), clip(model)))
	}
	if model == "inherit" {
		model = "" // the spelling other agents use for "the parent's"
	}
	switch _, given := lines["tools"]; {
	case f.Tools != nil:
		for _, t := range f.Tools {
			if _, err := path.Match(t, ""); err != nil || strings.ContainsAny(t, " \t\r/") {
				problems = append(problems, fmt.Sprintf("%s%q is not a tool name or pattern (letters, digits, '_', '-', with * ? [ ] to match several)", at("tools"), clip(t)))
				break
			}
		}
		tools = []string(f.Tools)
	case given:
		tools = []string{} // tools: with nothing after it gives none
	}
	return model, tools, problems
}

// ValidName reports whether s can name an agent: 1 to 64 letters,
// digits, '-' and '_'.
func ValidName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// repoRoot is the nearest directory at or above dir holding .git, or "".
func repoRoot(dir string) string {
	dir = filepath.Clean(dir)
	for {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
}

// cause is a file error without the path the notice names already.
func cause(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// clip shortens untrusted text quoted in a notice.
func clip(s string) string {
	if utf8.RuneCountInString(s) <= 40 {
		return s
	}
	return string([]rune(s)[:39]) + "…"
}
