// Package session turns the configuration into a running session and
// hands the UI one handle. Prepare wires an engine configuration: the
// sandbox profile (built-in, or custom from the [sandbox] table), the
// tools and approval policy, the model's transport (built in one
// function, engineConfig), the store (a new session or a resumed one),
// the checkpoint hook that /rewind relies on, the hooks (the user's
// hooks.json and a trusted project's, run by ext/hooks) and the notices
// the session starts with. A project's own files (ProjectFiles:
// .quire/config.toml, .quire/hooks.json, .mcp.json) are used only once the user
// has trusted their content: Open reads them once, an interactive
// session asks about the others first thing (Handle.TrustQuestion; a
// yes restarts the session with them), and Exec leaves them out with a
// warning naming `quire trust`. The skills and custom commands of the
// working directory (package skills) are found once per handle: the list
// of skills goes into the system prompt with the load_skill tool, the
// commands to the app, and what was skipped becomes warnings when a
// session starts. Project skills and commands are text and load without
// the trust question, as AGENTS.md does, and so do agent definitions:
// the spawner of the task tool's child sessions (subagent.go) reads the
// definitions of the project and the user (package ext/agents), resolves
// a definition's own model through the providers, and stores each child
// as a session of its own linked to its parent. Open starts a session
// and returns a Handle, which satisfies app.Session: commands never
// block, a resumed session shows its latest turns at once while the rest
// of its log is decoded in the background (the pending relay), and
// /model, /clear, /rewind, /sessions and /export run as blocking
// operations the UI calls off its loop; a failed switch leaves a session
// running. The handle also runs the session's MCP servers (package
// ext/mcp) for every session it switches between: the user's and those
// of the project's trusted .mcp.json (a yes to the trust question starts
// them again with it); their tools fill the handle's one
// registry beside the built-ins and load_skill, their news reaches the
// transcript as notices and the status line and /mcp through
// app.Extensions, and their prompts are commands sent, after the custom
// ones, on CommandUpdates whenever they change. Exec is `quire exec` (a
// custom command or an MCP prompt in its prompt runs; the MCP servers
// start with it and stop after it), LoadRecording what `quire replay`
// plays. The package imports app for types only: the contract the handle
// satisfies and the Options it fills in from the settings.
package session
