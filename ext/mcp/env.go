package mcp

import (
	"strings"

	"github.com/quire-sh/quire/sandbox"
)

// serverEnv is a stdio server's environment, in the order of spec §3.5:
// quire's own environment as sandboxed commands get it (loader hooks and
// quire's API keys dropped, the non-interactive settings, the tool caches
// the profile needs), without any other variable whose name or value
// looks like a credential (sandbox.IsCredential; under every profile, off
// included) unless the server's settings name it (env_vars passes one
// through from quire's environment; env sets one); then the server's
// configured env; then quire's identity variables last, so the settings
// cannot forge them. A name set twice keeps its last value, once.
func serverEnv(environ []string, p sandbox.Profile, c ServerConfig, identity []string) []string {
	named := map[string]bool{}
	for _, k := range c.EnvVars {
		named[k] = true
	}
	for k := range c.Env {
		named[k] = true
	}
	var out envList
	for _, kv := range sandbox.CommandEnv(environ, p) {
		name, value, _ := strings.Cut(kv, "=")
		if sandbox.IsCredential(name, value, nil) && !named[name] {
			continue
		}
		out.set(kv)
	}
	for _, k := range c.EnvVars {
		for _, kv := range environ {
			if strings.HasPrefix(kv, k+"=") {
				out.set(kv)
			}
		}
	}
	for _, k := range sortedKeys(c.Env) {
		out.set(k + "=" + c.Env[k])
	}
	for _, kv := range identity {
		out.set(kv)
	}
	return out.list
}

// envList is an environment in which each name appears once.
type envList struct {
	list  []string
	index map[string]int
}

func (e *envList) set(kv string) {
	name, _, _ := strings.Cut(kv, "=")
	if e.index == nil {
		e.index = map[string]int{}
	}
	if i, ok := e.index[name]; ok {
		e.list[i] = kv
		return
	}
	e.index[name] = len(e.list)
	e.list = append(e.list, kv)
}
