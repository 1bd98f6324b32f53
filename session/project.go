package session

import "github.com/quire-sh/quire/trust"

// ProjectFiles are the kinds of file a project may carry that make quire
// run programs or change its settings. quire uses none of them before the
// user has trusted its content (package trust); the one question asked at
// the start of an interactive session, `quire trust` and `quire exec`'s
// warning all go through this list, so a new kind is one entry here and
// the code that reads its trusted content. It is not changed at run time.
var ProjectFiles = []trust.Kind{
	{Name: ".quire/config.toml", What: "settings for quire in this project"},
	{Name: ".quire/hooks.json", What: "hooks: commands quire runs as you, outside the sandbox, at points of a session"},
}
