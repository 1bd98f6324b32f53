// Package mcp connects quire to MCP servers (the Model Context Protocol)
// on the official Go SDK, whose types never leave this package: the rest
// of quire sees tools.Tool values, Status and PromptCommand.
//
// Servers come from config.toml ([mcp.servers.NAME], Settings) and from
// a project's .mcp.json in the format other agents use (ParseProject),
// which the session reads only once the user has trusted its content. A
// Manager starts every enabled server in a goroutine of its own, so the
// session is usable at once: stdio servers run as child processes
// through the sandbox launcher under the session's profile (or the one
// their settings name), with the environment of spec §3.5 (serverEnv);
// streamable-HTTP (and the older SSE) servers get their headers and
// bearer tokens from the settings or the environment. OAuth is not
// supported: a server that needs it must take a token in a header.
//
// A server's tools enter the session's tool registry as a group named
// mcp__SERVER__TOOL (ToolName maps names providers would refuse), with
// their schemas, and go through the approval gate like built-ins
// (Tool); list_changed notifications refresh the group, and the engine
// offers the new list on its next request. Resources are read through
// mcp_list_resources and mcp_read_resource; prompts become slash
// commands (PromptCommand). A stdio server that stops is reported and
// its tools answer with an error until /mcp restart; an HTTP server
// reconnects by itself, backing off per spec §2.2 (backoff, streamGate).
// Teardown closes a stdio server's input, waits, then kills its process
// tree (spec §2.3). Everything a server says is untrusted: descriptions
// and schemas are bounded, names mapped, results bounded, and text
// printed outside the renderer goes through Printable.
package mcp
