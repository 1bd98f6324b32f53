package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/quire-sh/quire/provider"
)

// runModels is `quire models [--json] [PROVIDER]`: the providers quire
// knows (presets and config.toml's), whether their key is set, and their
// models from the catalog and the config.
func runModels(args []string) int {
	sf := newSessionFlags("quire models")
	asJSON := sf.fs.Bool("json", false, "print JSON instead of tables")
	sf.fs.Usage = func() {
		fmt.Fprintln(sf.fs.Output(), "Usage: quire models [--json] [PROVIDER]\n\nLists the providers (built-in presets and [providers.NAME] tables of\nconfig.toml), whether their key variable is set, and their models with\ncontext window, output limit, reasoning and prices in US dollars per\nmillion tokens. * marks the provider in use and each default model.\n\nFlags:")
		sf.fs.PrintDefaults()
	}
	if err := sf.fs.Parse(args); err != nil {
		return exitUsage(err)
	}
	if sf.fs.NArg() > 1 {
		fmt.Fprintln(os.Stderr, "quire models: at most one provider name")
		return 2
	}
	cfg, err := sf.config()
	if err != nil {
		return fail(err)
	}
	list := provider.List(cfg.ProviderSettings(os.Getenv))
	if name := sf.fs.Arg(0); name != "" {
		var one []provider.Listing
		for _, l := range list {
			if l.Name == name {
				one = append(one, l)
			}
		}
		if one == nil {
			return fail(fmt.Errorf("unknown provider %q (quire models lists them all)", name))
		}
		list = one
	}
	if *asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(list)
	} else {
		err = provider.WriteTable(os.Stdout, list)
		if err == nil && sf.fs.NArg() == 0 {
			fmt.Printf("\ncatalog: %s; override it per model in [providers.NAME.models.\"MODEL\"]\n", provider.CatalogSource())
		}
	}
	if err != nil {
		return fail(err)
	}
	return 0
}
