// Package session turns the configuration into a running session and
// hands the UI one handle. Prepare wires an engine configuration: the
// sandbox profile (built-in, or custom from the [sandbox] table), the
// tools and approval policy, the model's transport (built in one
// function, engineConfig), the store (a new session or a resumed one)
// and the checkpoint hook that /rewind relies on. Open starts a session
// and returns a Handle, which satisfies app.Session: commands never
// block, a resumed session shows its latest turns at once while the rest
// of its log is decoded in the background (the pending relay), and
// /model, /clear, /rewind, /sessions and /export run as blocking
// operations the UI calls off its loop; a failed switch leaves a session
// running. The handle also runs the session's MCP servers (package
// ext/mcp) for every session it switches between: the user's and a
// project's .mcp.json, the latter only once the user has trusted its
// content (TrustKinds lists the kinds of project files that need trust);
// their tools fill the handle's one registry, their news reaches the
// transcript as notices, and /mcp and their prompts' commands go through
// app.Extensions. Exec is `quire exec`, LoadRecording what `quire replay`
// plays. The package imports app for types only: the contract the handle
// satisfies and the Options it fills in from the settings.
package session
