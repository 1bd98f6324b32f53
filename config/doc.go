// Package config is quire's one reader of settings. It merges layers in
// order, weakest first: the defaults, the system's managed file
// (/etc/quire/managed.toml: an administrator's defaults, below the
// user's own), the user's config.toml (none without a home directory,
// and never one relative to where quire runs), a trusted project's
// .quire/config.toml (WithProject: only the settings a repository may
// safely set, approval and sandbox only ever stricter), the
// environment, the flags. Tables merge key by key and everything else,
// arrays included, is replaced whole, and every value remembers which
// layer set it so `quire config` can say. Top-level settings are parsed
// by a table of accessors; each TOML table (such as [sandbox]) is
// decoded into a type its owner defines, so the owner gets its part as
// values and never opens the file. An unknown key or a value of the
// wrong type is an error that names the key and its layer; a syntax
// error names the line and column but never repeats the text, which may
// hold a secret. The user's own file must check, or quire does not
// start; a managed or project file that does not is left out with one
// line of warning (Config.Warnings), since running without defaults or
// a project's preferences loosens nothing. The [mcp] table never fails
// the file it is in: a wrong server is kept with its problem and stays
// off, so quire still starts. A project's servers come from its .mcp.json
// (package mcp), under a trust of its own, never from its config.toml.
//
// AppendTable and RemoveTable edit config.toml for `quire mcp add` and
// `remove` by appending or cutting text, never by rewriting the parsed
// file, so comments and layout survive; a change is written only if the
// file then parses to exactly the old settings plus or minus that table.
package config
