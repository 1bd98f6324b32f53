package tools

import (
	"context"
	"sort"
	"sync"
)

// Registry is the set of tools offered to the model, by name. Its set can
// change while a session runs: a source of tools (an MCP server) replaces
// its own group of tools when it connects, when it says its list changed
// and when it fails. Every method is safe for concurrent use; the engine
// asks for the list before every request, so a change reaches the model
// on its next request.
type Registry struct {
	mu     sync.RWMutex
	byName map[string]Tool
	// groups maps a source to the names of its tools; the built-ins
	// belong to no group.
	groups map[string][]string
	// starting are the sources whose tools are still to come.
	starting map[string]bool
	settled  chan struct{} // closed while starting is empty
	version  uint64
}

// NewRegistry returns a registry holding ts. A later tool with the same name
// replaces an earlier one.
func NewRegistry(ts ...Tool) *Registry {
	r := &Registry{byName: make(map[string]Tool, len(ts)), groups: map[string][]string{}, starting: map[string]bool{}, settled: make(chan struct{})}
	close(r.settled)
	for _, t := range ts {
		r.byName[t.Spec().Name] = t
	}
	return r
}

// Lookup finds a tool by its name.
func (r *Registry) Lookup(name string) (Tool, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	t, ok := r.byName[name]
	return t, ok
}

// Specs lists every tool's spec, sorted by name so requests are stable.
func (r *Registry) Specs() []Spec {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]Spec, 0, len(r.byName))
	for _, t := range r.byName {
		out = append(out, t.Spec())
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Fixed lists the specs of the tools that belong to no group (the
// built-ins), sorted by name: the tools a session always has.
func (r *Registry) Fixed() []Spec {
	r.mu.RLock()
	grouped := map[string]bool{}
	for _, names := range r.groups {
		for _, n := range names {
			grouped[n] = true
		}
	}
	r.mu.RUnlock()
	var out []Spec
	for _, sp := range r.Specs() {
		if !grouped[sp.Name] {
			out = append(out, sp)
		}
	}
	return out
}

// Version changes whenever the set of tools does, so a caller can keep
// what it derived from Specs until it changes.
func (r *Registry) Version() uint64 {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.version
}

// SetGroup replaces the tools of the source group with ts (none removes
// them) and marks the source settled. A tool whose name another group
// or a built-in already holds is left out; SetGroup returns the names
// it left out.
func (r *Registry) SetGroup(group string, ts []Tool) (clashes []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, name := range r.groups[group] {
		delete(r.byName, name)
	}
	names := make([]string, 0, len(ts))
	for _, t := range ts {
		name := t.Spec().Name
		if _, taken := r.byName[name]; taken {
			clashes = append(clashes, name)
			continue
		}
		r.byName[name] = t
		names = append(names, name)
	}
	if len(names) == 0 {
		delete(r.groups, group)
	} else {
		r.groups[group] = names
	}
	r.version++
	r.settle(group)
	return clashes
}

// Starting marks the source group as about to offer tools: a request
// waits for it (see Settle) until SetGroup or Settled is called for it.
func (r *Registry) Starting(group string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.starting) == 0 {
		r.settled = make(chan struct{})
	}
	r.starting[group] = true
}

// Settled marks the source group as done starting without changing its
// tools (it failed, or it was removed).
func (r *Registry) Settled(group string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.settle(group)
}

func (r *Registry) settle(group string) {
	if !r.starting[group] {
		return
	}
	delete(r.starting, group)
	if len(r.starting) == 0 {
		close(r.settled)
	}
}

// Settle waits until no source is starting, or ctx ends. Each source
// bounds its own start, so the wait is bounded too.
func (r *Registry) Settle(ctx context.Context) error {
	r.mu.RLock()
	ch := r.settled
	r.mu.RUnlock()
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
