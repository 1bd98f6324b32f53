package agents

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/quire-sh/quire/ext/frontmatter"
	"github.com/quire-sh/quire/internal/pathx"
)

// Persona is behaviour several agent definitions share: instructions
// (and optionally a model and tools) in personas/NAME.md, which a
// definition names with persona: NAME. In the cascade it stands between
// the definition (the role) and the parent.
type Persona struct {
	Name string
	// Model and Tools are as a definition's: "" and nil give none.
	Model string
	Tools []string
	// Instructions is the file's body, told to the child before its
	// role's.
	Instructions string
	Path         string
}

// Fields are the settings the persona gives.
func (p Persona) Fields() Fields { return Fields{Model: p.Model, Tools: p.Tools} }

// ReadPersona reads the persona name from the first of opt's places
// that has personas/NAME.md, in the order Load looks for definitions.
// Unlike a definition, which is skipped with a notice, a persona that
// cannot be read is an error: it defines the child's core behaviour, so
// a spawn that names it must not go ahead without it. It is read at
// each spawn, so an edit applies to the next child.
func ReadPersona(opt Options, name string) (Persona, error) {
	if !ValidName(name) {
		return Persona{}, fmt.Errorf("the persona %q is not 1 to 64 letters, digits, '-' or '_'", clip(name))
	}
	var looked []string
	for _, r := range opt.roots("personas") {
		p := filepath.Join(r.dir, name+".md")
		if _, err := os.Lstat(p); errors.Is(err, os.ErrNotExist) {
			looked = append(looked, pathx.Display(p, opt.Cwd, opt.Home))
			continue
		}
		per, err := readPersonaFile(p)
		if err != nil {
			return Persona{}, fmt.Errorf("persona %s: %w", pathx.Display(p, opt.Cwd, opt.Home), err)
		}
		per.Name = name
		return per, nil
	}
	if len(looked) == 0 {
		return Persona{}, fmt.Errorf("the persona %q cannot be found: there is no working or config directory to look in", name)
	}
	return Persona{}, fmt.Errorf("the persona %q cannot be found: there is no %s", name, strings.Join(looked, " nor "))
}

// readPersonaFile reads one persona: markdown whose frontmatter, if it
// has one, may give model: and tools:.
func readPersonaFile(p string) (Persona, error) {
	doc, err := frontmatter.ReadFile(p, MaxFileBytes)
	if err != nil {
		return Persona{}, cause(err)
	}
	if doc.Truncated || doc.BodyOffset+len(doc.Body) > MaxFileBytes {
		return Persona{}, fmt.Errorf("it is larger than %d KiB", MaxFileBytes>>10)
	}
	return personaFromDoc(doc, p)
}

// ParsePersona reads a persona from its file's content.
func ParsePersona(data []byte) (Persona, error) {
	doc, err := frontmatter.Parse(data)
	if err != nil {
		return Persona{}, err
	}
	return personaFromDoc(doc, "")
}

func personaFromDoc(doc frontmatter.Doc, p string) (Persona, error) {
	if !utf8.Valid(doc.Front) || !utf8.Valid(doc.Body) {
		return Persona{}, errors.New("it is not UTF-8 text")
	}
	per := Persona{Instructions: strings.TrimSpace(string(doc.Body)), Path: p}
	if doc.HasFront {
		var f front
		lines, err := doc.DecodeLines(&f)
		if err != nil {
			return Persona{}, err
		}
		at := func(key string) string {
			if n, ok := lines[key]; ok {
				return fmt.Sprintf("line %d: ", n)
			}
			return ""
		}
		var problems []string
		per.Model, per.Tools, problems = modelAndTools(f, lines, at)
		if f.Persona != "" {
			problems = append(problems, at("persona")+"a persona cannot build on another persona")
		}
		if len(problems) > 0 {
			return Persona{}, errors.New(strings.Join(problems, "; "))
		}
	}
	if per.Instructions == "" {
		return Persona{}, errors.New("it has no instructions: a persona is the text after its frontmatter")
	}
	return per, nil
}
