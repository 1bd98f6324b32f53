package sandbox

import (
	"errors"
	"fmt"
	"strings"
)

// Settings is the [sandbox] table of config.toml. Package config reads
// the file and hands it over as a value; this package never opens it.
//
//	[sandbox.profiles.build]
//	extends = "strict"          # a built-in profile (default "workspace")
//	read    = ["~/go/pkg/mod"]  # extra readable trees
//	write   = ["~/.cache/go-build"]
//	deny    = ["~/.ssh", "secrets"]
//	network = true              # child network; default: the base's
type Settings struct {
	Profiles map[string]ProfileSpec `toml:"profiles"`
}

// ProfileSpec is one custom profile, [sandbox.profiles.NAME].
type ProfileSpec struct {
	Extends string   `toml:"extends"`
	Read    []string `toml:"read"`
	Write   []string `toml:"write"`
	Deny    []string `toml:"deny"`
	Network *bool    `toml:"network"`
}

func (s ProfileSpec) build(name, dir string) (Profile, error) {
	base := s.Extends
	if base == "" {
		base = Workspace
	}
	if base == Off {
		return Profile{}, fmt.Errorf("sandbox profile %q: cannot extend %q; extend workspace, read-only or strict", name, Off)
	}
	if _, ok := builtinDescriptions[base]; !ok {
		return Profile{}, fmt.Errorf("sandbox profile %q extends unknown profile %q; extend workspace, read-only or strict", name, base)
	}
	p := builtin(base, dir)
	p.Name = name
	lists := []struct {
		field string
		in    []string
		out   *[]string
	}{{"read", s.Read, &p.Read}, {"write", s.Write, &p.Write}, {"deny", s.Deny, &p.Deny}}
	for _, l := range lists {
		for _, raw := range l.in {
			if err := checkConfigPath(raw); err != nil {
				return Profile{}, fmt.Errorf("sandbox profile %q, %s entry %q: %w", name, l.field, raw, err)
			}
			r, err := Resolve(expandHome(raw, dir))
			if err != nil {
				return Profile{}, fmt.Errorf("sandbox profile %q, %s entry %q: %w", name, l.field, raw, err)
			}
			*l.out = appendUnique(*l.out, r)
		}
	}
	if s.Network != nil {
		p.Network = *s.Network
	}
	return p, nil
}

// checkConfigPath refuses entries that cannot mean one path: control
// characters and glob patterns. Refusing is the fail-closed choice: a deny
// entry silently matching nothing would pretend to protect.
func checkConfigPath(p string) error {
	if p == "" {
		return errors.New("empty path")
	}
	for _, r := range p {
		if r < 0x20 || r == 0x7f {
			return errors.New("contains a control character")
		}
	}
	if strings.ContainsAny(p, "*?[{") {
		return errors.New("glob patterns are not supported; list each path")
	}
	return nil
}
