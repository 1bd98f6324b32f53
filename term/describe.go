package term

import "fmt"

// Describe explains c in short "name: value (why)" lines for `quire
// doctor`, in a fixed order.
func (c Caps) Describe() []string {
	yesNo := func(b bool) string {
		if b {
			return "yes"
		}
		return "no"
	}
	brand := c.TermProgram
	if brand == "" {
		brand = "unknown"
	}
	if c.TermVersion != "" {
		brand += " " + c.TermVersion
	}
	term := c.Term
	if term == "" {
		term = "(unset)"
	}
	lines := []string{
		fmt.Sprintf("terminal: %s (TERM=%s)", brand, term),
		fmt.Sprintf("colors: %s (from %s)", c.Colors, c.ColorReason),
	}
	mux := c.Multiplexer
	switch {
	case mux == "":
		mux = "none"
	case c.MultiplexerVersion != "":
		mux += " " + c.MultiplexerVersion
	}
	lines = append(lines, "multiplexer: "+mux)
	lines = append(lines, "ssh: "+yesNo(c.SSH))
	lines = append(lines, "hyperlinks (OSC 8): "+yesNo(c.Hyperlinks))
	sync := yesNo(c.SyncOutput)
	if c.SyncProbed {
		sync += " (probed)"
	} else {
		sync += " (from environment)"
	}
	if c.SyncUnsupported() {
		sync += "; frames are sent without the bracket"
	} else {
		sync += "; frames are bracketed"
	}
	lines = append(lines, "synchronized output (mode 2026): "+sync)
	lines = append(lines, "bracketed paste: "+yesNo(c.BracketedPaste))
	clip := "OSC 52"
	if c.Multiplexer == "tmux" {
		switch {
		case c.EmbeddedEditor:
			clip += " unwrapped (editor terminal inside tmux) + tmux load-buffer"
		case c.TmuxClipboard:
			clip += " to tmux (set-clipboard on) + tmux load-buffer"
		default:
			clip += " in tmux passthrough + tmux load-buffer (needs `set -g allow-passthrough on` on tmux ≥ 3.3)"
		}
	} else if c.Multiplexer == "screen" {
		clip += " in screen passthrough"
	}
	if c.Clipboard {
		clip += "; terminal known to accept it"
	} else {
		clip += "; terminal support unverified"
	}
	lines = append(lines, "clipboard: "+clip)
	if c.NoScrollbackClear {
		lines = append(lines, "scrollback: the terminal cannot clear it (CSI 3 J); an inline width change redraws only the live region")
	}
	if c.XTVersion != "" {
		lines = append(lines, "xtversion: "+c.XTVersion)
	}
	return lines
}
