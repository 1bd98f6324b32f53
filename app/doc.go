// Package app is quire's interactive program: one goroutine owns the
// central state and runs an event loop with explicit priorities (shutdown,
// terminal input, effect completions, engine events in bounded batches
// only while no input waits, then timers derived from the state). Input is
// routed through layers (approval prompt, overlays, pager keys, prompt
// editor) into actions; actions change the state synchronously and return
// effects. The state (Model) does no I/O: commands to the session are
// mailbox puts the loop makes at once, and everything that touches the
// disk, the store or the clipboard (the prompt history file, @path
// listings, /export, /sessions, session switches, copies) runs as a job
// off the loop whose result comes back like any other completion, its
// error shown. Each draw paints the state into the renderer's back
// buffer: the full-screen pager over the transcript, or the inline
// (--minimal) live region above which finished lines are inserted into
// the terminal's own scrollback. Commands from outside the app's own
// table (custom commands, MCP prompts) arrive as Commands in the options,
// and from a session that sends new lists while it runs (an MCP server
// connects) through CommandUpdates: /help lists them, Tab completes them,
// and running one expands its arguments in a job, the prompts typed after
// it waiting their turn. A session may ask, once as it starts, whether to
// trust the project's own files (TrustQuestion): the question takes the
// keys until it is answered, and the prompt given on the command line
// waits for the answer. Run takes a terminal, a Session (the interface
// the app defines in contract.go; package session provides the live one)
// and Options; a session that also provides Extensions (MCP servers) gets
// their word in the status line and /mcp, news of which the loop reads
// like any other input. Replay runs the same loop with a Player over a
// recorded event log.
package app
