package term

import "unicode/utf8"

// This file splits the raw byte stream from the tty into whole tokens: a
// run of text, one escape sequence, one control string. Everything after
// it (keys, mouse, paste, probe replies) works on complete tokens, so no
// later stage ever holds half a sequence, and tcell's decoder is only
// handed sequences it can finish in one call.

type tokKind uint8

const (
	tokText        tokKind = iota // plain bytes without ESC, whole UTF-8 characters
	tokEsc                        // a lone ESC: the Escape key
	tokAlt                        // ESC and one character: an Alt chord
	tokCSI                        // ESC [ params intermediates final
	tokSS3                        // ESC O x
	tokLinuxFKey                  // ESC [ [ x (the Linux console's F1–F5)
	tokX10Mouse                   // ESC [ M b x y
	tokMetaSeq                    // ESC followed by a CSI/SS3 key: Alt+key on some terminals
	tokString                     // DCS, OSC, APC, PM or SOS with its terminator
	tokOverflow                   // a control string too long to keep; skip to its end
	tokOverflowCSI                // a CSI sequence too long to keep; skip to its final byte
	tokInvalid                    // malformed bytes to drop
)

const (
	// maxCSI bounds a CSI sequence; anything longer is garbage.
	maxCSI = 256
	// maxString bounds a control string (XTVERSION, OSC replies) kept whole.
	maxString = 4096
	// maxTextChunk bounds a text token, so that one token never makes more
	// events than the tcell event channel holds.
	maxTextChunk = 128
)

const esc = 0x1b

// scanToken finds the token at the start of b. It returns n == 0 when b
// holds only the beginning of a token that more input could complete.
// When final is true no more input is coming soon (the escape delay
// passed), so a beginning is resolved as whatever it can already be: a
// lone ESC is the Escape key, "ESC [" is Alt+[, a cut-off longer sequence
// is dropped.
func scanToken(b []byte, final bool) (tokKind, int) {
	if len(b) == 0 {
		return tokInvalid, 0
	}
	if b[0] != esc {
		return scanText(b, final)
	}
	if len(b) == 1 {
		if final {
			return tokEsc, 1
		}
		return tokInvalid, 0
	}
	switch c := b[1]; c {
	case '[':
		return scanCSI(b, final)
	case 'O':
		if len(b) < 3 {
			if final {
				return tokAlt, 2
			}
			return tokInvalid, 0
		}
		if b[2] >= 0x20 && b[2] < 0x7f {
			return tokSS3, 3
		}
		return tokAlt, 2
	case 'P', ']', '_', '^', 'X':
		return scanString(b, final)
	case esc:
		// ESC ESC: either Alt plus an escape-sequence key, or two Escapes.
		// (A third ESC means Escapes; looking further would make a run of
		// ESCs cost quadratic time.)
		if len(b) > 2 && b[2] == esc {
			return tokEsc, 1
		}
		kind, n := scanToken(b[1:], final)
		if n == 0 {
			return tokInvalid, 0
		}
		switch kind {
		case tokCSI, tokSS3, tokLinuxFKey:
			return tokMetaSeq, n + 1
		}
		return tokEsc, 1
	default:
		if c < utf8.RuneSelf {
			return tokAlt, 2
		}
		if !utf8.FullRune(b[1:]) {
			if final {
				return tokInvalid, len(b)
			}
			return tokInvalid, 0
		}
		_, size := utf8.DecodeRune(b[1:])
		return tokAlt, 1 + size
	}
}

func scanText(b []byte, final bool) (tokKind, int) {
	n := 0
	for n < len(b) && b[n] != esc && n < maxTextChunk {
		n++
	}
	// Do not cut a UTF-8 character in two: back up to its first byte and
	// leave it for the next token (or the next read).
	if n < len(b) && b[n] != esc || n == len(b) && !final {
		cut := n
		for i := n - 1; i >= 0 && i >= n-utf8.UTFMax; i-- {
			if utf8.RuneStart(b[i]) {
				if !utf8.FullRune(b[i:n]) {
					cut = i
				}
				break
			}
		}
		if cut == 0 && n > 0 {
			if n == len(b) && !final {
				return tokInvalid, 0
			}
			// A character longer than the chunk limit cannot happen; an
			// invalid lead byte can. Let it through as it is.
			return tokText, n
		}
		n = cut
	}
	return tokText, n
}

func scanCSI(b []byte, final bool) (tokKind, int) {
	i := 2
	if len(b) > 2 && b[2] == 'M' {
		// Legacy X10 mouse report: three raw bytes follow the M.
		if len(b) >= 6 {
			return tokX10Mouse, 6
		}
		if final {
			return tokInvalid, len(b)
		}
		return tokInvalid, 0
	}
	for ; i < len(b); i++ {
		c := b[i]
		switch {
		case c >= 0x20 && c <= 0x3f: // parameter and intermediate bytes
			if i >= maxCSI {
				return tokOverflowCSI, i
			}
		case c >= 0x40 && c <= 0x7e: // final byte
			if c == '[' && i == 2 {
				if len(b) > 3 {
					return tokLinuxFKey, 4
				}
				if final {
					return tokInvalid, len(b)
				}
				return tokInvalid, 0
			}
			return tokCSI, i + 1
		default:
			// A control byte or ESC inside the sequence aborts it; the
			// byte itself starts the next token.
			if i == 2 {
				return tokAlt, 2
			}
			return tokInvalid, i
		}
	}
	if final {
		if len(b) == 2 {
			return tokAlt, 2
		}
		return tokInvalid, len(b)
	}
	return tokInvalid, 0
}

func scanString(b []byte, final bool) (tokKind, int) {
	for i := 2; i < len(b); i++ {
		switch b[i] {
		case 0x07:
			return tokString, i + 1
		case esc:
			if i+1 == len(b) {
				if final {
					return tokInvalid, len(b)
				}
				return tokInvalid, 0
			}
			if b[i+1] == '\\' {
				return tokString, i + 2
			}
			// ESC inside a string without '\' aborts the string.
			return tokInvalid, i
		}
		if i >= maxString {
			return tokOverflow, i
		}
	}
	if final {
		if len(b) == 2 {
			return tokAlt, 2
		}
		return tokInvalid, len(b)
	}
	return tokInvalid, 0
}

// skipCSI consumes the rest of an over-long CSI sequence: parameter and
// intermediate bytes, then the final byte. Any other byte ends it without
// being consumed.
func skipCSI(b []byte) (int, bool) {
	for i, c := range b {
		switch {
		case c >= 0x20 && c <= 0x3f:
		case c >= 0x40 && c <= 0x7e:
			return i + 1, true
		default:
			return i, true
		}
	}
	return len(b), false
}

// skipString consumes the rest of an over-long control string. It returns
// how many bytes of b belong to it and whether its terminator was seen.
func skipString(b []byte) (int, bool) {
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case 0x07:
			return i + 1, true
		case esc:
			if i+1 == len(b) {
				return i, false
			}
			if b[i+1] == '\\' {
				return i + 2, true
			}
			return i, true
		}
	}
	return len(b), false
}
