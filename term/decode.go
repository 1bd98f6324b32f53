package term

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/gdamore/tcell/v2"
)

// decoder turns tty input bytes into Events and probe replies. It owns
// three jobs tcell's InputProcessor does not do for us: bracketed paste is
// collected byte for byte (not re-assembled from key events), mouse
// reports are decoded here (tcell needs the screen size for them and drops
// the motion flag), and anything shaped like a terminal reply is routed to
// the waiting probe instead of becoming a key. Keys proper, with their
// many encodings, go through tcell.
//
// A decoder is used by one goroutine at a time.
type decoder struct {
	ip  tcell.InputProcessor
	tev chan tcell.Event

	pending []byte // bytes not yet consumed: at most one unfinished token

	inPaste bool
	paste   bytes.Buffer

	// skip is set inside an over-long control string or CSI sequence,
	// which is dropped up to its end.
	skip func([]byte) (int, bool)

	emit  func(Event)
	reply func(reply)
	// wantCPR reports whether a cursor position report is awaited; only
	// then is "CSI row;col R" a reply rather than a modified F3 key.
	wantCPR func() bool
}

// pasteEnd closes a bracketed paste.
var pasteEnd = []byte("\x1b[201~")

// maxPaste bounds one paste; bytes past it are dropped rather than held.
const maxPaste = 64 << 20

func newDecoder(emit func(Event), rep func(reply), wantCPR func() bool) *decoder {
	// Every token handed to tcell yields at most maxTextChunk events, so a
	// channel this size never blocks its ScanUTF8 call.
	tev := make(chan tcell.Event, 2*maxTextChunk)
	if rep == nil {
		rep = func(reply) {}
	}
	if wantCPR == nil {
		wantCPR = func() bool { return false }
	}
	return &decoder{ip: tcell.NewInputProcessor(tev), tev: tev, emit: emit, reply: rep, wantCPR: wantCPR}
}

// feed consumes input bytes, emitting everything that is complete.
func (d *decoder) feed(b []byte) {
	d.pending = append(d.pending, b...)
	d.process(false)
}

// flush is called when the input has been quiet for the escape delay: an
// unfinished escape sequence is resolved now (a lone ESC is the Escape key).
// An open paste stays open.
func (d *decoder) flush() {
	d.process(true)
}

// partial reports whether bytes are waiting for the rest of their token.
func (d *decoder) partial() bool { return len(d.pending) > 0 && !d.inPaste }

// pasting reports whether a bracketed paste is open.
func (d *decoder) pasting() bool { return d.inPaste }

// abandonPaste ends a paste whose end marker never came, delivering what
// arrived. Terminals that cut a paste short would otherwise leave every
// later keystroke inside it.
func (d *decoder) abandonPaste() {
	if !d.inPaste {
		return
	}
	d.paste.Write(d.pending)
	d.pending = d.pending[:0]
	d.endPaste()
}

func (d *decoder) process(final bool) {
	// Tokens are taken off the front by advancing start; the slice is
	// compacted once at the end, so a long read costs linear time.
	start := 0
	defer func() {
		n := copy(d.pending, d.pending[start:])
		d.pending = d.pending[:n]
	}()
	for start < len(d.pending) {
		rest := d.pending[start:]
		if d.inPaste {
			n, ended := d.collectPaste(rest)
			start += n
			if !ended {
				return
			}
			continue
		}
		if d.skip != nil {
			n, done := d.skip(rest)
			start += n
			if !done {
				if final {
					d.skip = nil
				}
				return
			}
			d.skip = nil
			continue
		}
		kind, n := scanToken(rest, final)
		if n == 0 {
			return
		}
		d.token(kind, rest[:n])
		start += n
	}
}

// collectPaste moves paste bytes from b into the paste buffer. It returns
// how many bytes it consumed and whether the paste ended.
func (d *decoder) collectPaste(b []byte) (int, bool) {
	if i := bytes.Index(b, pasteEnd); i >= 0 {
		d.appendPaste(b[:i])
		d.endPaste()
		return i + len(pasteEnd), true
	}
	// Keep a tail that could be the start of the end marker.
	keep := 0
	for k := len(pasteEnd) - 1; k > 0; k-- {
		if bytes.HasSuffix(b, pasteEnd[:k]) {
			keep = k
			break
		}
	}
	d.appendPaste(b[:len(b)-keep])
	return len(b) - keep, false
}

func (d *decoder) appendPaste(b []byte) {
	if room := maxPaste - d.paste.Len(); len(b) > room {
		b = b[:max(room, 0)]
	}
	d.paste.Write(b)
}

func (d *decoder) endPaste() {
	d.inPaste = false
	text := d.paste.String()
	d.paste.Reset()
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	d.emit(PasteEvent{Text: text})
}

func (d *decoder) token(kind tokKind, tok []byte) {
	switch kind {
	case tokText, tokSS3, tokLinuxFKey:
		d.scanKeys(tok, 0)
	case tokEsc:
		d.emit(KeyEvent{Key: KeyEscape})
	case tokAlt:
		d.emit(altKey(tok[1:]))
	case tokCSI:
		d.csi(tok, false)
	case tokMetaSeq:
		if inner := tok[1:]; inner[1] == 'O' || len(inner) == 4 && inner[2] == '[' {
			d.scanKeys(inner, ModAlt) // Alt with an SS3 or Linux console key
		} else {
			d.csi(inner, true)
		}
	case tokX10Mouse:
		d.x10Mouse(tok[3], tok[4], tok[5])
	case tokString:
		d.controlString(tok)
	case tokOverflow:
		d.skip = skipString
	case tokOverflowCSI:
		d.skip = skipCSI
	case tokInvalid:
		// dropped
	}
}

// csi handles one CSI sequence (alt is set when it came after an extra
// ESC, the Alt prefix some terminals use for special keys).
func (d *decoder) csi(seq []byte, alt bool) {
	body := seq[2 : len(seq)-1]
	final := seq[len(seq)-1]
	params, inter := splitCSI(body)

	switch {
	case final == '~' && string(body) == "200":
		d.inPaste = true
		return
	case final == '~' && string(body) == "201":
		return // an end without a start
	case len(params) > 0 && params[0] == '<':
		if (final == 'M' || final == 'm') && inter == "" {
			d.sgrMouse(params[1:], final == 'm')
		}
		return
	case len(params) > 0 && (params[0] == '?' || params[0] == '>' || params[0] == '='):
		d.privateReply(params, inter, final)
		return
	case final == 'R' && inter == "" && d.wantCPR():
		if row, col, ok := twoInts(params); ok {
			d.reply(reply{kind: replyCPR, a: row, b: col})
			return
		}
	case (final == 'I' || final == 'O') && len(body) == 0:
		d.emit(FocusEvent{Focused: final == 'I'})
		return
	case final == '_':
		return // win32-input-mode, which we never enable
	case final == '[':
		return // only "CSI [ x" (the Linux console) means anything
	case inter != "":
		return // no key uses intermediates
	}
	var mod Mod
	if alt {
		mod = ModAlt
	}
	d.scanKeys(seq, mod)
}

// scanKeys hands a complete key token to tcell and translates what it
// produces, adding extra to each key's modifiers. (The Alt prefix of
// "ESC ESC [ A" is applied here rather than by tcell, whose own Alt flag
// would stick to the next key if the sequence named none.)
func (d *decoder) scanKeys(tok []byte, extra Mod) {
	d.ip.ScanUTF8(tok)
	d.drainTcellMod(extra)
}

func (d *decoder) drainTcell() { d.drainTcellMod(0) }

func (d *decoder) drainTcellMod(extra Mod) {
	for {
		select {
		case ev := <-d.tev:
			if k, ok := ev.(*tcell.EventKey); ok {
				if ke, ok := fromTcellKey(k); ok {
					ke.Mod |= extra
					d.emit(ke)
				}
			}
		default:
			return
		}
	}
}

func (d *decoder) privateReply(params, inter string, final byte) {
	switch {
	case params[0] == '?' && inter == "$" && final == 'y':
		if mode, val, ok := twoInts(params[1:]); ok {
			d.reply(reply{kind: replyDECRPM, a: mode, b: val})
		}
	case params[0] == '?' && inter == "" && final == 'c':
		d.reply(reply{kind: replyDA1, text: params[1:]})
	}
	// Anything else shaped like a reply (DA2, kitty keyboard flags, …) is
	// swallowed: it is never a key.
}

func (d *decoder) controlString(tok []byte) {
	body := tok[2:]
	if n := len(body); n > 0 && body[n-1] == 0x07 {
		body = body[:n-1]
	} else if n >= 2 {
		body = body[:n-2]
	}
	switch tok[1] {
	case 'P':
		if text, ok := strings.CutPrefix(string(body), ">|"); ok {
			d.reply(reply{kind: replyXTVersion, text: text})
		}
	case ']':
		d.reply(reply{kind: replyOSC, text: string(body)})
	}
}

func (d *decoder) sgrMouse(params string, release bool) {
	f := strings.Split(params, ";")
	if len(f) != 3 {
		return
	}
	var v [3]int
	for i, s := range f {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return
		}
		v[i] = n
	}
	d.emit(mouseEvent(v[0], v[1]-1, v[2]-1, release))
}

func (d *decoder) x10Mouse(b, x, y byte) {
	code := int(b) - 32
	if code < 0 {
		return
	}
	// X10 reports every release as button code 3, without saying which.
	release := code&0x43 == 3
	d.emit(mouseEvent(code, int(x)-33, int(y)-33, release))
}

func mouseEvent(code, x, y int, release bool) MouseEvent {
	ev := MouseEvent{X: max(x, 0), Y: max(y, 0), Release: release}
	if code&4 != 0 {
		ev.Mod |= ModShift
	}
	if code&8 != 0 {
		ev.Mod |= ModAlt
	}
	if code&16 != 0 {
		ev.Mod |= ModCtrl
	}
	ev.Motion = code&32 != 0
	switch code & 0xc3 {
	case 0:
		ev.Button = ButtonLeft
	case 1:
		ev.Button = ButtonMiddle
	case 2:
		ev.Button = ButtonRight
	case 3:
		ev.Button = ButtonNone
	case 0x40:
		ev.Button = WheelUp
	case 0x41:
		ev.Button = WheelDown
	case 0x42:
		ev.Button = WheelLeft
	case 0x43:
		ev.Button = WheelRight
	case 0x80:
		ev.Button = ButtonBack
	case 0x81:
		ev.Button = ButtonForward
	}
	return ev
}

// splitCSI separates a CSI body into its parameter bytes (0x30–0x3F) and
// intermediate bytes (0x20–0x2F).
func splitCSI(body []byte) (params, inter string) {
	i := 0
	for i < len(body) && body[i] >= 0x30 {
		i++
	}
	return string(body[:i]), string(body[i:])
}

// twoInts parses "a;b".
func twoInts(s string) (int, int, bool) {
	a, b, ok := strings.Cut(s, ";")
	if !ok {
		return 0, 0, false
	}
	x, err1 := strconv.Atoi(a)
	y, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || x < 0 || y < 0 {
		return 0, 0, false
	}
	return x, y, true
}
