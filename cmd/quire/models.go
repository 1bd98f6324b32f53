package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/quire-sh/quire/provider"
)

const modelsHelp = `Usage: quire models [--json] [PROVIDER]

Lists the providers (built-in presets and [providers.NAME] tables of
config.toml), whether their key variable is set, and their models with
context window, output limit, reasoning and prices in US dollars per
million tokens. * marks the provider in use and each default model.`

// runModels is `quire models [--json] [PROVIDER]`: the providers quire
// knows (presets and config.toml's), whether their key is set, and their
// models from the catalog and the config.
func runModels(std stdio, args []string) int {
	sf := newSessionFlags("quire models", modelsHelp)
	asJSON := sf.fs.Bool("json", false, "print JSON instead of tables")
	pos, err := sf.parse(args)
	if err != nil {
		return sf.exit(std, err)
	}
	if len(pos) > 1 {
		return usageExit(std, sf.name, usagef("takes at most one provider name, got %d arguments", len(pos)))
	}
	cfg, err := sf.config()
	if err != nil {
		return fail(std, err)
	}
	list := provider.List(cfg.ProviderSettings(os.Getenv))
	if len(pos) == 1 {
		var one []provider.Listing
		for _, l := range list {
			if l.Name == pos[0] {
				one = append(one, l)
			}
		}
		if one == nil {
			return fail(std, fmt.Errorf("unknown provider %q (quire models lists them all)", pos[0]))
		}
		list = one
	}
	if *asJSON {
		enc := json.NewEncoder(std.out)
		enc.SetIndent("", "  ")
		err = enc.Encode(list)
	} else {
		err = provider.WriteTable(std.out, list)
		if err == nil && len(pos) == 0 {
			fmt.Fprintf(std.out, "\ncatalog: %s; override it per model in [providers.NAME.models.\"MODEL\"]\n", provider.CatalogSource())
		}
	}
	if err != nil {
		return fail(std, err)
	}
	return 0
}
