// Package provider turns configuration into a model to talk to: named
// providers (built-in presets for OpenAI, Anthropic, xAI, OpenRouter,
// Groq, DeepSeek, Gemini's OpenAI-compatible endpoint, Ollama, llama.cpp
// and vLLM, and [providers.NAME] tables of config.toml), the model
// catalog, and the Sampler of the protocol each provider speaks.
//
// Resolve picks the provider and model from the settings (--provider,
// --model NAME/MODEL, the legacy base_url), checks that the provider's
// key is set (naming the variable to set when it is not), and looks the
// model up in the catalog with the config's overrides: its context
// window, output limit, reasoning support and prices. The Resolved value
// builds the Sampler (package chat, responses or anthropic over the
// shared transport), prices a turn's usage, and says what reasoning of
// an earlier provider the new one will not be sent.
//
// The catalog (catalog.json) is generated from charm.land/catwalk's
// provider data by internal/gencatalog (`go generate ./provider`), so it
// can be refreshed without taking catwalk's code as a dependency. A price
// that the catalog does not know stays unknown: no cost is shown rather
// than a made-up zero.
package provider
