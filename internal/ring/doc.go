// Package ring keeps the last bytes of a stream of any length in bounded
// memory: the tail that a command's output keeps for the model (tools),
// the tail a call's live view shows when it ends (engine) and the tail
// of a stdio MCP server's stderr that says why it failed (ext/mcp).
package ring
