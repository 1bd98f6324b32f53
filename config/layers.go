package config

import (
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
)

// Source is one layer of configuration: a config file, the environment or
// the command line. Values has the shape a TOML document decodes to:
// tables are map[string]any, arrays []any, and the rest strings, int64,
// float64, bool or time values.
type Source struct {
	// Name says where the layer's values came from, as `quire config`
	// shows it: a file's path, "environment", "command line".
	Name string
	// Layer is which layer this is (the zero value: a file below the
	// project's, like the user's).
	Layer Layer
	// Values are the layer's settings.
	Values map[string]any
	// Origin, when set, names the origin of a top-level key more exactly
	// than Name ("$QUIRE_MODEL", "flag --model").
	Origin map[string]string
}

// Layer names a layer of the configuration, from the weakest.
type Layer uint8

const (
	LayerDefault Layer = iota
	// LayerManaged is the system's managed file: defaults an
	// administrator sets, below the user's own.
	LayerManaged
	LayerUser
	// LayerProject is a trusted project's .quire/config.toml, restricted
	// to the settings a repository may safely set (project.go).
	LayerProject
	LayerEnvironment
	LayerFlags
)

func (l Layer) String() string {
	switch l {
	case LayerDefault:
		return "default"
	case LayerManaged:
		return "managed"
	case LayerUser:
		return "user"
	case LayerProject:
		return "project"
	case LayerEnvironment:
		return "environment"
	case LayerFlags:
		return "command line"
	}
	return "?"
}

// origin is where the value at key (a top-level key) came from.
func (s Source) origin(key string) string {
	if o, ok := s.Origin[key]; ok {
		return o
	}
	return s.Name
}

// leaf is a value that is not a table, and the layer that set it.
type leaf struct {
	value  any
	origin string
	layer  Layer
}

// merged is the configuration the sources add up to, with where every
// value came from.
type merged struct {
	values map[string]any
	// leaves maps the dotted path of every value that is not a table (as
	// TOML writes it: sandbox.profiles."my.build".read) to that value and
	// its origin. A table is the sum of its keys, which may come from
	// several layers.
	leaves map[string]leaf
}

// merge lays the sources over each other in order, later ones winning:
// tables merge key by key, at any depth; every other value, arrays
// included, replaces what an earlier layer said as a whole (a list of
// paths from the user file is not appended to the system's).
func merge(sources []Source) merged {
	m := merged{values: map[string]any{}, leaves: map[string]leaf{}}
	for _, s := range sources {
		for k, v := range s.Values {
			m.set(m.values, toml.Key{k}, v, leaf{origin: s.origin(k), layer: s.Layer})
		}
	}
	return m
}

// set puts v at path; from says where it came from (its value unused).
func (m merged) set(dst map[string]any, path toml.Key, v any, from leaf) {
	key := path[len(path)-1]
	if src, ok := v.(map[string]any); ok {
		sub, isTable := dst[key].(map[string]any)
		if !isTable {
			m.forget(path)
			sub = map[string]any{}
			dst[key] = sub
		}
		for k, sv := range src {
			m.set(sub, append(path[:len(path):len(path)], k), sv, from)
		}
		return
	}
	m.forget(path)
	dst[key] = v
	from.value = v
	m.leaves[path.String()] = from
}

// forget drops what is recorded at and under path, whose value is being
// replaced.
func (m merged) forget(path toml.Key) {
	p := path.String()
	delete(m.leaves, p)
	for l := range m.leaves {
		if strings.HasPrefix(l, p+".") {
			delete(m.leaves, l)
		}
	}
}

// paths lists the dotted paths of every value under the top-level table
// key, sorted.
func (m merged) paths(key string) []string {
	prefix := toml.Key{key}.String() + "."
	var out []string
	for p := range m.leaves {
		if strings.HasPrefix(p, prefix) {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// originOf is where the value at path, or the first value under it,
// came from.
func (m merged) originOf(path string) string {
	if l, ok := m.leaves[path]; ok {
		return l.origin
	}
	for _, p := range m.sortedPaths() {
		if strings.HasPrefix(p, path+".") {
			return m.leaves[p].origin
		}
	}
	return "?"
}

func (m merged) sortedPaths() []string {
	out := make([]string, 0, len(m.leaves))
	for p := range m.leaves {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}
