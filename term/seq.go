package term

import "strings"

// Escape sequences term writes. The renderer writes everything else.
const (
	seqAltScreenOn    = "\x1b[?1049h"
	seqAltScreenOff   = "\x1b[?1049l"
	seqPasteOn        = "\x1b[?2004h"
	seqPasteOff       = "\x1b[?2004l"
	seqMouseOn        = "\x1b[?1000h\x1b[?1002h\x1b[?1006h" // press/release, drag, SGR encoding
	seqMouseMotionOn  = "\x1b[?1000h\x1b[?1003h\x1b[?1006h" // as above, plus motion with no button
	seqMouseOff       = "\x1b[?1006l\x1b[?1003l\x1b[?1002l\x1b[?1000l"
	seqFocusOn        = "\x1b[?1004h"
	seqFocusOff       = "\x1b[?1004l"
	seqKittyKeysOn    = "\x1b[>1u" // push "disambiguate escape codes"
	seqKittyKeysOff   = "\x1b[<u"
	seqSyncEnd        = "\x1b[?2026l"
	seqSGRReset       = "\x1b[0m"
	seqCursorShow     = "\x1b[?25h"
	seqResetScrollReg = "\x1b7\x1b[r\x1b8" // DECSTBM homes the cursor, so save and restore around it
	seqCPRQuery       = "\x1b[6n"
	seqSyncModeQuery  = "\x1b[?2026$p" // DECRQM for mode 2026
	seqXTVersionQuery = "\x1b[>0q"
	seqDA1Query       = "\x1b[c"
)

// modes is which terminal modes term has switched on.
type modes struct {
	altScreen   bool
	paste       bool
	mouse       bool
	mouseMotion bool
	focus       bool
	kittyKeys   bool
}

// enterSeq switches m's modes on.
func enterSeq(m modes) string {
	var b strings.Builder
	if m.altScreen {
		b.WriteString(seqAltScreenOn)
	}
	if m.paste {
		b.WriteString(seqPasteOn)
	}
	switch {
	case m.mouseMotion:
		b.WriteString(seqMouseMotionOn)
	case m.mouse:
		b.WriteString(seqMouseOn)
	}
	if m.focus {
		b.WriteString(seqFocusOn)
	}
	if m.kittyKeys {
		b.WriteString(seqKittyKeysOn)
	}
	return b.String()
}

// leaveSeq puts the terminal back the way a shell expects it. It is
// deliberately not the mirror of enterSeq: whatever state a crash left
// behind, a half-written synchronized update, attributes, a scroll region,
// a hidden cursor and mouse reporting are always undone. Only the
// alternate screen and the kitty keyboard stack, where an unneeded "off"
// has side effects, depend on m.
func leaveSeq(m modes) string {
	var b strings.Builder
	b.WriteString(seqSyncEnd)
	b.WriteString(seqSGRReset)
	b.WriteString(seqMouseOff)
	b.WriteString(seqFocusOff)
	if m.kittyKeys {
		b.WriteString(seqKittyKeysOff)
	}
	b.WriteString(seqPasteOff)
	b.WriteString(seqCursorShow)
	if m.altScreen {
		// Leaving restores the main screen's cursor; the scroll region
		// is reset afterwards so that its save/restore applies there.
		b.WriteString(seqAltScreenOff)
	}
	b.WriteString(seqResetScrollReg)
	return b.String()
}
