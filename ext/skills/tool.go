package skills

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/quire-sh/quire/ext/frontmatter"
	"github.com/quire-sh/quire/tools"
)

// maxSkillBody bounds what load_skill returns of a body: the rest of a
// longer SKILL.md is read with read_file, from the line the output names.
const maxSkillBody = 48 << 10

// loadTool is load_skill: it returns a skill's instructions by name.
type loadTool struct{ c *Catalog }

// LoadTool is the load_skill tool over the catalog's skills. Loading a
// skill is a call like any other: shown, stored and replayed. It reads
// the SKILL.md afresh, so an edit since quire started is what the model
// gets; it needs no approval (it reads what the user installed).
func (c *Catalog) LoadTool() tools.Tool { return loadTool{c} }

var loadSchema = json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","description":"the skill's name, as the system prompt lists it"}},"required":["name"],"additionalProperties":false}`)

func (loadTool) Spec() tools.Spec {
	return tools.Spec{
		Name:        "load_skill",
		Description: "Load a skill's instructions by name (the system prompt lists the skills). Returns the skill's SKILL.md and the folder its other files are in; read those with read_file.",
		Schema:      loadSchema,
		Kind:        tools.KindRead,
	}
}

type loadArgs struct {
	Name string `json:"name"`
}

func (t loadTool) Plan(_ *tools.Env, _ *tools.Overlay, raw json.RawMessage) (tools.Plan, error) {
	var a loadArgs
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		return tools.Plan{}, fmt.Errorf("load_skill takes {\"name\": \"SKILL\"}: %v", err)
	}
	a.Name = strings.TrimSpace(a.Name)
	s, ok := t.c.Skill(a.Name)
	if !ok {
		return tools.Plan{}, fmt.Errorf("there is no skill %q; %s", clip(a.Name), t.c.known())
	}
	p := tools.Plan{Target: s.Name, Action: s}
	if s.Path != "" {
		p.Reads = []string{s.Path}
	}
	return p, nil
}

// known names the skills there are, for an error.
func (c *Catalog) known() string {
	if c == nil || len(c.Skills) == 0 {
		return "there are no skills"
	}
	names := make([]string, 0, len(c.Skills))
	for _, s := range c.Skills {
		names = append(names, s.Name)
	}
	sort.Strings(names)
	if len(names) > 40 {
		names = append(names[:40], "…")
	}
	return "the skills are: " + strings.Join(names, ", ")
}

func (loadTool) Run(_ context.Context, _ *tools.Env, call tools.Call) tools.Result {
	s, ok := call.Plan.Action.(Skill)
	if !ok {
		return tools.Result{Output: "internal error: load_skill was run without its plan; nothing was loaded", IsError: true}
	}
	out, truncated, err := s.Load()
	if err != nil {
		return tools.Result{Output: err.Error(), IsError: true}
	}
	return tools.Result{Output: out, Truncated: truncated}
}

// Load returns what load_skill gives the model for s: where it is and its
// body, cut at maxSkillBody with a note saying how to read the rest.
func (s Skill) Load() (out string, truncated bool, err error) {
	var d frontmatter.Doc
	if s.Layer == Builtin {
		d, err = builtinBody(s.Name)
	} else {
		d, err = frontmatter.ReadFile(s.Path, maxSkillBody)
	}
	if err != nil {
		return "", false, fmt.Errorf("the skill %s cannot be read now: %s: %v", s.Name, s.Shown, unwrapPath(err))
	}
	if _, err := checkSkill(d, s.Name); err != nil {
		return "", false, fmt.Errorf("the skill %s is malformed now: %s: %v", s.Name, s.Shown, err)
	}
	var b strings.Builder
	if s.Layer == Builtin {
		fmt.Fprintf(&b, "Skill %s (built into quire).\n\n", s.Name)
	} else {
		fmt.Fprintf(&b, "Skill %s (%s: %s). Its folder is %s: the paths it mentions are relative to that folder; read those files with read_file.\n\n", s.Name, s.Layer, s.Path, s.Dir)
	}
	body := strings.TrimLeft(string(d.Body), "\r\n")
	b.WriteString(body)
	if d.Truncated {
		line := d.BodyLine + strings.Count(string(d.Body), "\n")
		fmt.Fprintf(&b, "\n\n[The skill is longer than %d KiB and was cut here: read the rest of %s with read_file from line %d.]\n", maxSkillBody>>10, s.Path, line)
	} else if !strings.HasSuffix(body, "\n") {
		b.WriteByte('\n')
	}
	return b.String(), d.Truncated, nil
}
