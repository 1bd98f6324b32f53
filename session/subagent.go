package session

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/quire-sh/quire/config"
	"github.com/quire-sh/quire/engine"
	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/store"
	"github.com/quire-sh/quire/ext/agents"
	"github.com/quire-sh/quire/provider"
)

// spawner prepares the child sessions of task calls (engine.Spawner): the
// agent definitions found when the session was prepared, the providers
// of the settings for a definition's own model, and the store, where each
// child is a session of its own linked to its parent.
type spawner struct {
	where   agents.Options // where definitions and personas are found
	defs    []agents.Definition
	notices []string
	cfg     *config.Config
	getenv  func(string) string
	st      *store.Store // nil: children are not stored (the demo)
}

// newSpawner finds the agent definitions of cwd and the user's.
func newSpawner(cfg *config.Config, st *store.Store, cwd string, getenv func(string) string) *spawner {
	home, _ := os.UserHomeDir()
	where := agents.Options{Cwd: cwd, ConfigDir: config.ConfigDir(getenv), Home: home}
	defs, notices := agents.Load(where)
	return &spawner{where: where, defs: defs, notices: notices, cfg: cfg, getenv: getenv, st: st}
}

func (sp *spawner) Agents() []engine.Agent {
	out := make([]engine.Agent, len(sp.defs))
	for i, d := range sp.defs {
		out[i] = engine.Agent{Name: d.Name, Description: d.Description}
	}
	return out
}

func (sp *spawner) Notices() []string { return sp.notices }

// Plan applies the cascade (the call's explicit agent, model and tools,
// then the agent's, then its persona's, then the parent's) and resolves a model other than
// the parent's to its provider, so a model that cannot be reached is the
// call's error before anything starts.
func (sp *spawner) Plan(req engine.TaskRequest) (engine.Child, error) {
	var def agents.Definition
	if req.Agent != "" {
		found := false
		for _, d := range sp.defs {
			if d.Name == req.Agent {
				def, found = d, true
			}
		}
		if !found {
			return engine.Child{}, fmt.Errorf("there is no agent named %q; %s", req.Agent, sp.known())
		}
	}
	// A persona is read at each spawn and fails closed: it is the
	// child's core behaviour, so no child starts without it.
	var persona agents.Persona
	if def.Persona != "" {
		var err error
		if persona, err = agents.ReadPersona(sp.where, def.Persona); err != nil {
			return engine.Child{}, fmt.Errorf("the agent %q cannot start: %w", def.Name, err)
		}
	}
	f := agents.Resolve(agents.Fields{Model: req.Model, Tools: req.Tools}, def.Fields(), persona.Fields(), agents.Fields{Model: req.ParentModel})
	instructions := def.Instructions
	if persona.Instructions != "" {
		instructions = strings.TrimSpace(persona.Instructions + "\n\n" + def.Instructions)
	}
	c := engine.Child{Agent: def.Name, Instructions: instructions, Tools: f.Tools}
	if f.Model == req.ParentModel || f.Model == req.ParentProvider+"/"+req.ParentModel {
		return c, nil // the parent's model: the engine passes its own on
	}
	settings := sp.cfg.ProviderSettings(sp.getenv)
	if p, m := provider.SplitModel(f.Model, settings); p != "" {
		settings.Provider, settings.Model = p, m
	} else {
		settings.Model = f.Model
		if req.ParentProvider != provider.Compatible {
			settings.Provider = req.ParentProvider
		}
	}
	res, err := provider.Resolve(settings)
	if err != nil {
		return engine.Child{}, fmt.Errorf("the subagent's model %s cannot be used: %w", f.Model, err)
	}
	window := res.ContextWindow()
	if window == 0 {
		window = sp.cfg.ContextWindow
	}
	c.Model, c.Provider, c.Sampler, c.Cost, c.ContextWindow = res.Model.ID, res.Name, res.Sampler(transportConfig(sp.cfg)), res.Model.Cost, window
	return c, nil
}

// known names the agents there are, for an error.
func (sp *spawner) known() string {
	if len(sp.defs) == 0 {
		return "no agent definitions were found (.quire/agents/*.md)"
	}
	names := make([]string, len(sp.defs))
	for i, d := range sp.defs {
		names[i] = d.Name
	}
	return "the agents are: " + strings.Join(names, ", ")
}

// Record creates the child's session in the store, in the parent's
// working directory; its SessionStarted carries the link to its parent.
func (sp *spawner) Record(link event.ParentLink, cwd string) (engine.Recorder, string, func() error, error) {
	if sp.st == nil {
		return nil, "", nil, nil
	}
	id := store.NewID(time.Now())
	w, err := sp.st.Create(id, cwd)
	if err != nil {
		return nil, "", nil, err
	}
	return w, id, func() error {
		_, err := w.CloseDiscardingEmpty()
		return err
	}, nil
}
