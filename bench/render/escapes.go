package renderbench

// Escapes counts the control sequences in a renderer's output by kind,
// to show where its bytes go. The classes are approximate by design:
// a line feed that scrolls at the bottom of the screen counts as a move.
type Escapes struct {
	// Moves: CUP, CUU/CUD/CUF/CUB, CHA, VPA, HPA and relatives, RI, and
	// the control bytes CR, LF, BS and HT.
	Moves int
	// SGR: style changes.
	SGR int
	// Erases: EL and ECH.
	Erases int
	// Clears: ED.
	Clears int
	// Scrolls: SU, SD, IL, DL and DECSTBM.
	Scrolls int
	// Edits: ICH, DCH and REP.
	Edits int
	// Links: OSC 8 opens and closes.
	Links int
}

// Add counts the sequences in p. A sequence split across two calls is
// counted in neither; renderers write whole frames, so that does not
// happen here.
func (e *Escapes) Add(p []byte) {
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c == '\r' || c == '\n' || c == '\b' || c == '\t':
			e.Moves++
		case c != 0x1b || i+1 >= len(p):
		case p[i+1] == '[':
			j := i + 2
			for j < len(p) && p[j] >= 0x20 && p[j] <= 0x3f {
				j++
			}
			if j < len(p) {
				e.csi(p[j])
			}
			i = j
		case p[i+1] == ']':
			j := i + 2
			for j < len(p) && p[j] != 0x07 && !(p[j] == 0x1b && j+1 < len(p) && p[j+1] == '\\') {
				j++
			}
			if j-(i+2) >= 2 && p[i+2] == '8' && p[i+3] == ';' {
				e.Links++
			}
			if j < len(p) && p[j] == 0x1b {
				j++
			}
			i = j
		case p[i+1] == 'M':
			e.Moves++
			i++
		default:
			i++
		}
	}
}

func (e *Escapes) csi(final byte) {
	switch final {
	case 'H', 'f', 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'd', '`', 'a', 'e':
		e.Moves++
	case 'm':
		e.SGR++
	case 'K', 'X':
		e.Erases++
	case 'J':
		e.Clears++
	case 'S', 'T', 'L', 'M', 'r':
		e.Scrolls++
	case '@', 'P', 'b':
		e.Edits++
	}
}
