package tools

import "sort"

// Registry is the set of tools offered to the model, by name.
type Registry struct {
	byName map[string]Tool
}

// NewRegistry returns a registry holding ts. A later tool with the same name
// replaces an earlier one.
func NewRegistry(ts ...Tool) *Registry {
	r := &Registry{byName: make(map[string]Tool, len(ts))}
	for _, t := range ts {
		r.byName[t.Spec().Name] = t
	}
	return r
}

// Lookup finds a tool by its name.
func (r *Registry) Lookup(name string) (Tool, bool) {
	t, ok := r.byName[name]
	return t, ok
}

// Specs lists every tool's spec, sorted by name so requests are stable.
func (r *Registry) Specs() []Spec {
	out := make([]Spec, 0, len(r.byName))
	for _, t := range r.byName {
		out = append(out, t.Spec())
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
