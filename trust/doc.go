// Package trust remembers which of a project's own files the user has
// trusted. A repository can carry files that make quire start programs or
// change its settings (.quire/config.toml, .quire/hooks.json, .mcp.json);
// quire uses none of them until the user has trusted that file with that
// content, and a file whose content changed is asked about again. A
// cloned repository therefore cannot start a process or loosen a setting
// without the user saying yes.
//
// Decisions live in one JSON file in quire's state dir, written whole
// (a temporary file, then a rename) under an advisory lock, and read
// again under the lock before each write, so two quire processes that
// decide at the same time both keep their decisions.
package trust
