package term

import (
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
)

// This file maps tcell's key vocabulary onto quire's smaller one: one
// spelling per chord. tcell reports Ctrl+A as KeyCtrlA, as the control
// byte 0x01, or as KeyRune 'a' with ModCtrl depending on the encoding the
// terminal used; quire always says {KeyRune, 'a', ModCtrl}.

var tcellNamed = map[tcell.Key]Key{
	tcell.KeyEnter:     KeyEnter,
	tcell.KeyTab:       KeyTab,
	tcell.KeyBackspace: KeyBackspace,
	tcell.KeyDEL:       KeyBackspace,
	tcell.KeyEscape:    KeyEscape,
	tcell.KeyUp:        KeyUp,
	tcell.KeyDown:      KeyDown,
	tcell.KeyLeft:      KeyLeft,
	tcell.KeyRight:     KeyRight,
	tcell.KeyHome:      KeyHome,
	tcell.KeyEnd:       KeyEnd,
	tcell.KeyPgUp:      KeyPageUp,
	tcell.KeyPgDn:      KeyPageDown,
	tcell.KeyInsert:    KeyInsert,
	tcell.KeyDelete:    KeyDelete,
}

func fromTcellMod(m tcell.ModMask) Mod {
	var out Mod
	if m&tcell.ModShift != 0 {
		out |= ModShift
	}
	if m&tcell.ModAlt != 0 {
		out |= ModAlt
	}
	if m&tcell.ModCtrl != 0 {
		out |= ModCtrl
	}
	if m&(tcell.ModMeta|tcell.ModHyper) != 0 {
		out |= ModMeta
	}
	return out
}

// fromTcellKey translates one tcell key event; ok is false for keys quire
// has no name for (media keys, F25 and up, lock keys).
func fromTcellKey(ev *tcell.EventKey) (KeyEvent, bool) {
	mod := fromTcellMod(ev.Modifiers())
	k := ev.Key()
	switch {
	case k == tcell.KeyRune:
		r := ev.Rune()
		if r < 0x20 || r == 0x7f {
			return controlKey(byte(r), mod), true
		}
		if mod&ModCtrl != 0 {
			// ESC + control byte arrives as Ctrl+Alt+<letter>; a few of
			// those letters are really named keys.
			switch r {
			case 'm':
				return KeyEvent{Key: KeyEnter, Mod: mod &^ ModCtrl}, true
			case 'i':
				return KeyEvent{Key: KeyTab, Mod: mod &^ ModCtrl}, true
			}
		}
		return KeyEvent{Key: KeyRune, Rune: r, Mod: mod}, true
	case k == tcell.KeyBacktab:
		return KeyEvent{Key: KeyTab, Mod: mod | ModShift}, true
	case k >= tcell.KeyCtrlA && k <= tcell.KeyCtrlZ:
		return KeyEvent{Key: KeyRune, Rune: rune('a' + k - tcell.KeyCtrlA), Mod: mod | ModCtrl}, true
	case k == tcell.KeyCtrlSpace:
		return KeyEvent{Key: KeyRune, Rune: ' ', Mod: mod | ModCtrl}, true
	case k >= tcell.KeyCtrlLeftSq && k <= tcell.KeyCtrlUnderscore:
		return controlKey(byte(k-tcell.KeyCtrlSpace), mod), true
	case k >= tcell.KeyF1 && k <= tcell.KeyF24:
		return KeyEvent{Key: KeyF1 + Key(k-tcell.KeyF1), Mod: mod}, true
	}
	if named, ok := tcellNamed[k]; ok {
		return KeyEvent{Key: named, Mod: mod}, true
	}
	if k < 0x20 {
		return controlKey(byte(k), mod), true
	}
	return KeyEvent{}, false
}

// controlKey names a C0 control byte (or DEL) typed with mod held.
func controlKey(c byte, mod Mod) KeyEvent {
	switch c {
	case '\r':
		return KeyEvent{Key: KeyEnter, Mod: mod}
	case '\t':
		return KeyEvent{Key: KeyTab, Mod: mod}
	case 0x08, 0x7f:
		return KeyEvent{Key: KeyBackspace, Mod: mod}
	case esc:
		return KeyEvent{Key: KeyEscape, Mod: mod}
	case 0:
		return KeyEvent{Key: KeyRune, Rune: ' ', Mod: mod | ModCtrl}
	}
	r := rune(c) + 0x60 // 0x01 → 'a' … 0x1a → 'z', 0x1c → '|' …
	if c >= 0x1c {
		r = rune(c) + 0x40 // 0x1c → '\\', 0x1d → ']', 0x1e → '^', 0x1f → '_'
	}
	return KeyEvent{Key: KeyRune, Rune: r, Mod: mod | ModCtrl}
}

// altKey decodes the character after an ESC: the Alt chord of that key.
func altKey(b []byte) KeyEvent {
	if b[0] < 0x20 || b[0] == 0x7f {
		return controlKey(b[0], ModAlt)
	}
	r, _ := utf8.DecodeRune(b)
	return KeyEvent{Key: KeyRune, Rune: r, Mod: ModAlt}
}
