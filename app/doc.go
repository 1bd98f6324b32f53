// Package app is quire's interactive program: one goroutine owns the
// central state and runs an event loop with explicit priorities (shutdown,
// terminal input, effect completions, engine events in bounded batches
// only while no input waits, then timers derived from the state). Input is
// routed through layers (approval prompt, overlays, pager keys, prompt
// editor) into actions; actions change the state synchronously and queue
// effects that run outside the loop. Each draw paints the state into the
// renderer's back buffer: the full-screen pager over the transcript, or the
// inline (--minimal) live region above which finished lines are inserted
// into the terminal's own scrollback. Replay and the demo drive the same
// loop from a recorded event log and from the built-in test server.
package app
