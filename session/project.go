package session

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/quire-sh/quire/config"
	"github.com/quire-sh/quire/engine"
	"github.com/quire-sh/quire/ext/hooks"
	"github.com/quire-sh/quire/ext/mcp"
	"github.com/quire-sh/quire/trust"
)

// ProjectFiles are the kinds of file a project may carry that make quire
// run programs or change its settings. quire uses none of them before the
// user has trusted its content (package trust); the one question asked at
// the start of an interactive session, `quire trust` and `quire exec`'s
// warning all go through this list, so a new kind is one entry here and
// the code that reads its trusted content. It is not changed at run time.
var ProjectFiles = []trust.Kind{
	{Name: config.ProjectFile, What: "settings for quire in this project", Summary: config.ProjectSummary},
	{Name: hooks.ProjectFile, What: "hooks: commands quire runs as you, outside the sandbox, at points of a session", Summary: hooks.Summary},
	{Name: mcp.ProjectFile, What: "MCP servers for quire to start (programs it runs, or addresses it connects to)", Summary: mcp.ProjectSummary},
}

// Project is a project's own files as a session found them: the
// project's root (the session's working directory, absolute and free of
// symlinks) and every file of ProjectFiles it has, with the user's
// decision about its content.
type Project struct {
	Dir   string
	Files []trust.File
	// Before says, for a file never decided with this content, what the
	// user decided about an earlier content of it ("" if nothing).
	Before map[string]trust.Decision
	// Err is why the files or the decisions could not be read; no file
	// is used then.
	Err error
}

// TrustStore is the store of the user's decisions, in quire's state dir.
func TrustStore() *trust.Store { return trust.Open(config.StateDir(os.Getenv)) }

// ScanProject reads the files of ProjectFiles in dir and what the user
// decided about them.
func ScanProject(dir string, st *trust.Store) Project {
	root, err := ProjectRoot(dir)
	if err != nil {
		return Project{Dir: dir, Err: err}
	}
	p := Project{Dir: root, Before: map[string]trust.Decision{}}
	p.Files, p.Err = st.Scan(root, ProjectFiles)
	if p.Err != nil {
		return p
	}
	entries, err := st.Entries()
	if err != nil {
		p.Err = err
		return p
	}
	for _, f := range p.Files {
		if f.Decision != trust.Unknown {
			continue
		}
		for _, e := range entries {
			if e.Project == root && e.File == f.Name {
				p.Before[f.Name] = e.Decision
			}
		}
	}
	return p
}

// ProjectRoot is the project a directory belongs to: the directory
// itself, absolute, symlinks resolved (trust is recorded by that path).
func ProjectRoot(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("the project's directory: %w", err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("the project's directory: %w", err)
	}
	return real, nil
}

// file is the named file of the project, if it has one.
func (p *Project) file(name string) (trust.File, bool) {
	if p == nil || p.Err != nil {
		return trust.File{}, false
	}
	for _, f := range p.Files {
		if f.Name == name {
			return f, true
		}
	}
	return trust.File{}, false
}

// trusted is the content of the named file, if the user trusted it.
func (p *Project) trusted(name string) ([]byte, bool) {
	f, ok := p.file(name)
	if !ok || f.Decision != trust.Trusted {
		return nil, false
	}
	return f.Content, true
}

// withDecision is p with every file that has decision from set to to.
func (p Project) withDecision(from, to trust.Decision) Project {
	files := make([]trust.File, len(p.Files))
	for i, f := range p.Files {
		if f.Decision == from {
			f.Decision = to
		}
		files[i] = f
	}
	p.Files = files
	return p
}

// named lists the names of the files with the decision.
func (p *Project) named(d trust.Decision) []string {
	var out []string
	if p == nil || p.Err != nil {
		return nil
	}
	for _, f := range p.Files {
		if f.Decision == d {
			out = append(out, f.Name)
		}
	}
	return out
}

// projectPath is the absolute path of one of the project's files.
func (p *Project) path(name string) string {
	return filepath.Join(p.Dir, filepath.FromSlash(name))
}

// ProjectConfig is cfg with the settings of the project in dir laid over
// it if the user trusted them, for `quire config` and `quire doctor`;
// otherwise the project's file is listed among the layers with why it is
// left out.
func ProjectConfig(cfg *config.Config, dir string) *config.Config {
	p := ScanProject(dir, TrustStore())
	path := p.path(config.ProjectFile)
	if p.Err != nil {
		return cfg.WithProjectNote(path, fmt.Sprintf("left out: %v", p.Err))
	}
	for _, f := range p.Files {
		if f.Name != config.ProjectFile {
			continue
		}
		switch f.Decision {
		case trust.Trusted:
			c, _ := cfg.WithProject(path, f.Content)
			return c
		case trust.Declined:
			return cfg.WithProjectNote(path, "declined: not used")
		}
		return cfg.WithProjectNote(path, "not trusted yet: not used; see quire trust")
	}
	return cfg.WithProjectNote(path, "absent")
}

// wiring is what the configuration and the project's trusted files give
// a session: the effective settings, the hooks and what to tell the user.
type wiring struct {
	cfg     *config.Config
	hooks   *hooks.Set
	notices []engine.Notice
}

// wire lays the project's trusted settings over cfg, reads the user's
// hooks and the project's trusted ones, and says what was left out and
// why: a file that is not trusted yet (unless the user is about to be
// asked), one the user declined, a setting a project may not set, a
// hooks.json that does not read.
func wire(cfg *config.Config, p *Project, asking bool, getenv func(string) string) wiring {
	w := wiring{cfg: cfg}
	warn := func(text string) { w.notices = append(w.notices, engine.Notice{Level: "warn", Text: text}) }
	for _, text := range cfg.Warnings {
		warn(text)
	}
	switch {
	case p == nil:
	case p.Err != nil:
		warn(fmt.Sprintf("ignored this project's own files (%s): %v", strings.Join(kindNames(), ", "), p.Err))
	default:
		if names := p.named(trust.Unknown); len(names) > 0 && !asking {
			warn(fmt.Sprintf("ignored this project's %s: not trusted yet; run `quire trust` in %s to review and trust %s", strings.Join(names, ", "), p.Dir, itThem(len(names))))
		}
		if names := p.named(trust.Declined); len(names) > 0 {
			them, are := itThem(len(names)), "it is"
			if len(names) > 1 {
				are = "they are"
			}
			w.notices = append(w.notices, engine.Notice{Level: "info",
				Text: fmt.Sprintf("ignored this project's %s: you declined %s as %s now (`quire trust` reviews %s again)", strings.Join(names, ", "), them, are, them)})
		}
		if content, ok := p.trusted(config.ProjectFile); ok {
			var warnings []string
			w.cfg, warnings = cfg.WithProject(p.path(config.ProjectFile), content)
			for _, text := range warnings {
				warn(text)
			}
		}
	}
	var sources []hooks.Source
	if dir, ok := config.UserDir(getenv); ok {
		path := filepath.Join(dir, hooks.UserFile)
		b, err := os.ReadFile(path)
		switch {
		case err == nil:
			sources = append(sources, hooks.Source{Name: path, Content: b})
		case !errors.Is(err, fs.ErrNotExist):
			warn(fmt.Sprintf("no hooks read from %s: %v", path, err))
		}
	}
	if content, ok := p.trusted(hooks.ProjectFile); ok {
		sources = append(sources, hooks.Source{Name: p.path(hooks.ProjectFile), Content: content})
	}
	var problems []string
	w.hooks, problems = hooks.Parse(sources...)
	for _, text := range problems {
		warn(text)
	}
	return w
}

func itThem(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

func kindNames() []string {
	out := make([]string, len(ProjectFiles))
	for i, k := range ProjectFiles {
		out[i] = k.Name
	}
	return out
}
