package sandbox

import (
	"errors"
	"fmt"
	"strings"
)

// Settings is the [sandbox] table of config.toml. Package config reads
// the file and hands it over as a value; this package never opens it.
//
//	[sandbox]
//	git_writes    = false            # commands may write the git dir (not hooks/config)
//	pass_env      = ["GITHUB_TOKEN"] # credential-looking variables commands get anyway
//	max_processes = 4096             # per command; 0 = no cap
//
//	[sandbox.profiles.build]
//	extends = "strict"          # a built-in profile (default "workspace")
//	read    = ["~/go/pkg/mod"]  # extra readable trees
//	write   = ["~/.cache/go-build"]
//	deny    = ["~/.ssh", "secrets"]
//	network = true              # child network; default: the base's
type Settings struct {
	Profiles     map[string]ProfileSpec `toml:"profiles"`
	GitWrites    bool                   `toml:"git_writes"`
	PassEnv      []string               `toml:"pass_env"`
	MaxProcesses *int                   `toml:"max_processes"`
}

// check refuses settings that cannot mean what they say.
func (s Settings) check() error {
	if m := s.MaxProcesses; m != nil && *m < 0 {
		return fmt.Errorf("[sandbox] max_processes = %d: use a positive number, or 0 for no cap", *m)
	}
	for _, name := range s.PassEnv {
		if name == "" || strings.ContainsAny(name, "=\x00") {
			return fmt.Errorf("[sandbox] pass_env entry %q is not a variable name", name)
		}
		if isInjection(name) {
			return fmt.Errorf("[sandbox] pass_env entry %q: %s makes every program run extra code and is never passed", name, name)
		}
	}
	return nil
}

// apply sets what the [sandbox] table says for every profile.
func (s Settings) apply(p Profile) Profile {
	p.PassEnv = append(p.PassEnv, s.PassEnv...)
	p.MaxProcesses = DefaultMaxProcesses
	if s.MaxProcesses != nil {
		p.MaxProcesses = *s.MaxProcesses
	}
	return p
}

// ProfileSpec is one custom profile, [sandbox.profiles.NAME].
type ProfileSpec struct {
	Extends string   `toml:"extends"`
	Read    []string `toml:"read"`
	Write   []string `toml:"write"`
	Deny    []string `toml:"deny"`
	Network *bool    `toml:"network"`
}

func (s ProfileSpec) build(name, dir string, gitWrites bool) (Profile, error) {
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
	p := builtin(base, dir, gitWrites)
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
