// Package term owns the terminal: it puts the tty in raw mode, reads and
// decodes input into Events on a dedicated reader, writes the renderer's
// frames so a slow pty never blocks the UI (what the tty takes at once is
// written by the caller through a non-blocking handle, the rest by a
// writer goroutine, in order), detects
// what the terminal can do, lends the terminal to $EDITOR or $PAGER and
// to Ctrl+Z, copies to the clipboard with OSC 52, and gives the terminal
// back intact on every way out: Close, panic, termination signal or a
// failed start.
//
// The tty and key decoding come from tcell (its Tty and InputProcessor);
// the screen is not tcell's. In front of tcell's decoder sits a scanner
// that cuts the byte stream into whole tokens and takes out what is not a
// key: bracketed pastes (delivered whole, byte for byte), mouse reports,
// and the terminal's replies to queries (cursor position, DECRQM,
// XTVERSION, DA1). Replies go to whoever asked, so a query never reads
// the tty itself and a key typed while it waits is never lost.
//
// Capabilities are decided from the environment first (DetectCaps: free,
// and it survives tmux and ssh better than asking), then refined by what
// the terminal answers: StartProbe asks in the background (DECRQM for
// mode 2026, XTVERSION, which tmux answers with its own version, DA1 as
// the end marker, and tmux's set-clipboard option) and delivers the
// result as a CapsEvent, so the first frame never waits for it. The package knows nothing about what is drawn; the
// renderer writes its bytes through Writer and term only adds the mode
// switches around them.
package term
