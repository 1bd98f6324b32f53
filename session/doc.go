// Package session turns the configuration into a running session and
// hands the UI one handle. Prepare wires an engine configuration: the
// sandbox profile (built-in, or custom from the [sandbox] table), the
// tools and approval policy, the model's transport (built in one
// function, engineConfig), the store (a new session or a resumed one)
// and the checkpoint hook that /rewind relies on, and the spawner of the
// task tool's child sessions (subagent.go): the agent definitions of the
// project and the user (package ext/agents), a definition's own model
// resolved through the providers, and each child stored as a session of
// its own linked to its parent. Open starts a session
// and returns a Handle, which satisfies app.Session: commands never
// block, a resumed session shows its latest turns at once while the rest
// of its log is decoded in the background (the pending relay), and
// /model, /clear, /rewind, /sessions and /export run as blocking
// operations the UI calls off its loop; a failed switch leaves a session
// running. Exec is `quire exec`, LoadRecording what `quire replay`
// plays. The package imports app for types only: the contract the handle
// satisfies and the Options it fills in from the settings.
package session
