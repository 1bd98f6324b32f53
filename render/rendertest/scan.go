package rendertest

import (
	"errors"
	"fmt"
)

// Violation is one place in a byte stream that breaks the
// synchronized-output rules.
type Violation struct {
	Offset int    // byte offset of the sequence
	Seq    string // the sequence, quoted
	Reason string
}

func (v Violation) String() string {
	return fmt.Sprintf("at byte %d %s: %s", v.Offset, v.Seq, v.Reason)
}

// ScanSync checks a terminal byte stream against the rules every frame
// follows: synchronized-update brackets (CSI ?2026h … CSI ?2026l) are
// never nested or left open, every erase (ED "J" in any form, EL "K")
// happens inside a bracket, and RIS (ESC c) is never sent.
func ScanSync(p []byte) []Violation {
	var out []Violation
	open := false
	for i := 0; i < len(p); {
		if p[i] != 0x1b || i+1 >= len(p) {
			i++
			continue
		}
		start := i
		switch p[i+1] {
		case '[':
			j := i + 2
			for j < len(p) && (p[j] < 0x40 || p[j] > 0x7e) {
				j++
			}
			if j >= len(p) {
				return append(out, Violation{start, fmt.Sprintf("%q", p[start:]), "unterminated CSI"})
			}
			params, final := string(p[i+2:j]), p[j]
			seq := fmt.Sprintf("%q", p[start:j+1])
			switch {
			case params == "?2026" && final == 'h':
				if open {
					out = append(out, Violation{start, seq, "bracket opened inside a bracket"})
				}
				open = true
			case params == "?2026" && final == 'l':
				if !open {
					out = append(out, Violation{start, seq, "bracket closed while none is open"})
				}
				open = false
			case (final == 'J' || final == 'K') && (params == "" || params[0] != '?') && !open:
				out = append(out, Violation{start, seq, "erase outside a synchronized-update bracket"})
			}
			i = j + 1
		case ']', 'P', '_', '^', 'X':
			// String sequences end at BEL or ST.
			j := i + 2
			for j < len(p) && p[j] != 0x07 && !(p[j] == 0x1b && j+1 < len(p) && p[j+1] == '\\') {
				j++
			}
			switch {
			case j >= len(p):
				return append(out, Violation{start, fmt.Sprintf("%q", p[start:]), "unterminated string sequence"})
			case p[j] == 0x07:
				i = j + 1
			default:
				i = j + 2
			}
		case 'c':
			out = append(out, Violation{start, `"\x1bc"`, "RIS (full reset) is never sent"})
			i += 2
		default:
			i += 2
		}
	}
	if open {
		out = append(out, Violation{len(p), "", "stream ends inside a bracket"})
	}
	return out
}

// CheckSync is ScanSync as an error listing every violation, nil when
// there is none.
func CheckSync(p []byte) error {
	vs := ScanSync(p)
	if len(vs) == 0 {
		return nil
	}
	errs := make([]error, len(vs))
	for i, v := range vs {
		errs[i] = errors.New(v.String())
	}
	return errors.Join(errs...)
}
