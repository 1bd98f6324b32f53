// Package config is quire's one reader of settings. It merges layers in
// order (Sources: the user's config.toml, the environment, the flags; a
// system-managed file and a trusted project's file slot into the same
// list), tables key by key and everything else, arrays included, replaced
// whole, and it remembers which layer set each value so `quire config`
// can say. Top-level settings are parsed by a table of accessors; each
// TOML table (such as [sandbox]) is decoded into a type its owner
// defines, so the owner gets its part as values and never opens the file.
// An unknown key or a value of the wrong type is an error that names the
// key and its layer; a syntax error names the line and column but never
// repeats the text, which may hold a secret. The [mcp] table is the
// exception that never fails: a wrong server is kept with its problem and
// stays off, so quire still starts.
//
// AppendTable and RemoveTable edit config.toml for `quire mcp add` and
// `remove` by appending or cutting text, never by rewriting the parsed
// file, so comments and layout survive; a change is written only if the
// file then parses to exactly the old settings plus or minus that table.
package config
