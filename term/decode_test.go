package term

import (
	"reflect"
	"strings"
	"testing"
)

// decodeChunks feeds the chunks as separate reads, then lets the escape
// delay pass, and returns what came out.
func decodeChunks(wantCPR bool, chunks ...string) ([]Event, []reply) {
	var evs []Event
	var reps []reply
	d := newDecoder(func(e Event) { evs = append(evs, e) },
		func(r reply) { reps = append(reps, r) },
		func() bool { return wantCPR })
	for _, c := range chunks {
		d.feed([]byte(c))
	}
	d.flush()
	return evs, reps
}

func key(k Key, m Mod) KeyEvent   { return KeyEvent{Key: k, Mod: m} }
func char(r rune, m Mod) KeyEvent { return KeyEvent{Key: KeyRune, Rune: r, Mod: m} }
func evs(e ...Event) []Event      { return e }
func paste(s string) PasteEvent   { return PasteEvent{Text: s} }
func focus(in bool) FocusEvent    { return FocusEvent{Focused: in} }

func TestDecodeKeys(t *testing.T) {
	tests := []struct {
		name   string
		chunks []string
		want   []Event
	}{
		{"plain text", []string{"hi"}, evs(char('h', 0), char('i', 0))},
		{"utf-8", []string{"é世"}, evs(char('é', 0), char('世', 0))},
		{"utf-8 split across reads", []string{"\xe4\xb8", "\x96"}, evs(char('世', 0))},
		{"arrow up", []string{"\x1b[A"}, evs(key(KeyUp, 0))},
		{"arrow split across reads", []string{"\x1b", "[", "A"}, evs(key(KeyUp, 0))},
		{"ss3 arrow", []string{"\x1bOB"}, evs(key(KeyDown, 0))},
		{"ctrl+right", []string{"\x1b[1;5C"}, evs(key(KeyRight, ModCtrl))},
		{"shift+up", []string{"\x1b[1;2A"}, evs(key(KeyUp, ModShift))},
		{"home end", []string{"\x1b[H\x1b[F"}, evs(key(KeyHome, 0), key(KeyEnd, 0))},
		{"delete pgup pgdn", []string{"\x1b[3~\x1b[5~\x1b[6~"}, evs(key(KeyDelete, 0), key(KeyPageUp, 0), key(KeyPageDown, 0))},
		{"f1 f5 f12", []string{"\x1bOP\x1b[15~\x1b[24~"}, evs(key(KeyF1, 0), key(KeyF5, 0), key(KeyF12, 0))},
		{"enter tab backspace", []string{"\r\t\x7f"}, evs(key(KeyEnter, 0), key(KeyTab, 0), key(KeyBackspace, 0))},
		{"shift+tab", []string{"\x1b[Z"}, evs(key(KeyTab, ModShift))},
		{"ctrl+a ctrl+c ctrl+z", []string{"\x01\x03\x1a"}, evs(char('a', ModCtrl), char('c', ModCtrl), char('z', ModCtrl))},
		{"ctrl+space", []string{"\x00"}, evs(char(' ', ModCtrl))},
		{"ctrl+backslash", []string{"\x1c"}, evs(char('\\', ModCtrl))},
		{"alt+b", []string{"\x1bb"}, evs(char('b', ModAlt))},
		{"alt+B", []string{"\x1bB"}, evs(char('B', ModAlt))},
		{"alt+enter", []string{"\x1b\r"}, evs(key(KeyEnter, ModAlt))},
		{"alt+backspace", []string{"\x1b\x7f"}, evs(key(KeyBackspace, ModAlt))},
		{"ctrl+alt+b", []string{"\x1b\x02"}, evs(char('b', ModCtrl|ModAlt))},
		{"alt+é", []string{"\x1bé"}, evs(char('é', ModAlt))},
		{"alt+[ after the delay", []string{"\x1b["}, evs(char('[', ModAlt))},
		{"lone escape", []string{"\x1b"}, evs(key(KeyEscape, 0))},
		{"escape twice", []string{"\x1b\x1b"}, evs(key(KeyEscape, 0), key(KeyEscape, 0))},
		// Two reads closer together than the escape delay cannot be told
		// from one: ESC then Up is Alt+Up, and nothing is lost.
		{"escape then key", []string{"\x1b", "\x1b[A"}, evs(key(KeyUp, ModAlt))},
		{"alt+up as esc prefix", []string{"\x1b\x1b[A"}, evs(key(KeyUp, ModAlt))},
		{"kitty shift+enter", []string{"\x1b[13;2u"}, evs(key(KeyEnter, ModShift))},
		{"kitty ctrl+i is not tab", []string{"\x1b[105;5u"}, evs(char('i', ModCtrl))},
		{"focus", []string{"\x1b[I\x1b[O"}, evs(focus(true), focus(false))},
		{"unknown csi swallowed", []string{"\x1b[99;99Xq"}, evs(char('q', 0))},
		{"over-long csi dropped whole", []string{"\x1b[" + strings.Repeat("1", 300), strings.Repeat("2", 300) + "Aq"}, evs(char('q', 0))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, reps := decodeChunks(false, tt.chunks...)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %#v\nwant %#v", got, tt.want)
			}
			if len(reps) != 0 {
				t.Errorf("unexpected replies %v", reps)
			}
		})
	}
}

func TestDecodePaste(t *testing.T) {
	tests := []struct {
		name   string
		chunks []string
		want   []Event
	}{
		{"whole", []string{"\x1b[200~hello\x1b[201~"}, evs(paste("hello"))},
		{"keys around", []string{"a\x1b[200~hello\x1b[201~b"}, evs(char('a', 0), paste("hello"), char('b', 0))},
		{"split markers", []string{"\x1b[20", "0~hel", "lo\x1b[2", "01~"}, evs(paste("hello"))},
		{"newlines normalised", []string{"\x1b[200~a\r\nb\rc\nd\x1b[201~"}, evs(paste("a\nb\nc\nd"))},
		{"escape sequences kept verbatim", []string{"\x1b[200~x\x1b[Ay\x1b[201~"}, evs(paste("x\x1b[Ay"))},
		{"empty", []string{"\x1b[200~\x1b[201~"}, evs(paste(""))},
		{"utf-8", []string{"\x1b[200~héllo 世界\x1b[201~"}, evs(paste("héllo 世界"))},
		{"stray end ignored", []string{"\x1b[201~x"}, evs(char('x', 0))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := decodeChunks(false, tt.chunks...)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %#v\nwant %#v", got, tt.want)
			}
		})
	}
}

func TestDecodePasteAbandoned(t *testing.T) {
	var got []Event
	d := newDecoder(func(e Event) { got = append(got, e) }, nil, nil)
	d.feed([]byte("\x1b[200~partial\x1b[20"))
	d.flush() // the escape delay does not end a paste
	if len(got) != 0 || !d.pasting() {
		t.Fatalf("paste ended early: %v", got)
	}
	d.abandonPaste()
	d.feed([]byte("x"))
	want := evs(paste("partial\x1b[20"), char('x', 0))
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v, want %#v", got, want)
	}
}

func TestDecodeMouse(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want MouseEvent
	}{
		{"left press", "\x1b[<0;10;5M", MouseEvent{X: 9, Y: 4, Button: ButtonLeft}},
		{"left release", "\x1b[<0;10;5m", MouseEvent{X: 9, Y: 4, Button: ButtonLeft, Release: true}},
		{"right press", "\x1b[<2;1;1M", MouseEvent{Button: ButtonRight}},
		{"middle", "\x1b[<1;3;4M", MouseEvent{X: 2, Y: 3, Button: ButtonMiddle}},
		{"drag", "\x1b[<32;7;8M", MouseEvent{X: 6, Y: 7, Button: ButtonLeft, Motion: true}},
		{"motion no button", "\x1b[<35;7;8M", MouseEvent{X: 6, Y: 7, Button: ButtonNone, Motion: true}},
		{"wheel up", "\x1b[<64;20;10M", MouseEvent{X: 19, Y: 9, Button: WheelUp}},
		{"wheel down", "\x1b[<65;20;10M", MouseEvent{X: 19, Y: 9, Button: WheelDown}},
		{"ctrl+shift click", "\x1b[<20;2;2M", MouseEvent{X: 1, Y: 1, Button: ButtonLeft, Mod: ModCtrl | ModShift}},
		{"alt wheel", "\x1b[<72;1;1M", MouseEvent{Button: WheelUp, Mod: ModAlt}},
		{"back button", "\x1b[<128;1;1M", MouseEvent{Button: ButtonBack}},
		{"beyond 223 columns", "\x1b[<0;300;250M", MouseEvent{X: 299, Y: 249, Button: ButtonLeft}},
		{"x10 press", "\x1b[M !!", MouseEvent{Button: ButtonLeft}},
		{"x10 release", "\x1b[M#!!", MouseEvent{Button: ButtonNone, Release: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := decodeChunks(false, tt.in)
			if !reflect.DeepEqual(got, evs(tt.want)) {
				t.Errorf("got %#v, want %#v", got, tt.want)
			}
		})
	}
	if got, _ := decodeChunks(false, "\x1b[<0;;5M", "\x1b[<0;1M", "\x1b[<0;-1;5M"); len(got) != 0 {
		t.Errorf("malformed mouse reports produced %v", got)
	}
}

func TestDecodeReplies(t *testing.T) {
	tests := []struct {
		name    string
		wantCPR bool
		in      []string
		events  []Event
		replies []reply
	}{
		{"cpr awaited", true, []string{"x\x1b[12;40Ry"}, evs(char('x', 0), char('y', 0)),
			[]reply{{kind: replyCPR, a: 12, b: 40}}},
		{"cpr split", true, []string{"\x1b[12;", "40R"}, nil, []reply{{kind: replyCPR, a: 12, b: 40}}},
		{"ctrl+f3 when no cpr awaited", false, []string{"\x1b[1;5R"}, evs(key(KeyF3, ModCtrl)), nil},
		{"decrpm", false, []string{"\x1b[?2026;2$y"}, nil, []reply{{kind: replyDECRPM, a: 2026, b: 2}}},
		{"da1", false, []string{"\x1b[?62;22c"}, nil, []reply{{kind: replyDA1, text: "62;22"}}},
		{"xtversion st", false, []string{"\x1bP>|kitty(0.35.2)\x1b\\"}, nil, []reply{{kind: replyXTVersion, text: "kitty(0.35.2)"}}},
		{"xtversion split", false, []string{"\x1bP>|Wez", "Term 2024\x1b", "\\a"}, evs(char('a', 0)),
			[]reply{{kind: replyXTVersion, text: "WezTerm 2024"}}},
		{"osc 11 bel", false, []string{"\x1b]11;rgb:0000/0000/0000\x07"}, nil, []reply{{kind: replyOSC, text: "11;rgb:0000/0000/0000"}}},
		{"da2 swallowed", false, []string{"\x1b[>1;4000;29cz"}, evs(char('z', 0)), nil},
		{"kitty flags swallowed", false, []string{"\x1b[?1u"}, nil, nil},
		{"keys between replies", false, []string{"a\x1b[?2026;1$yb\x1b[?1;2cc"}, evs(char('a', 0), char('b', 0), char('c', 0)),
			[]reply{{kind: replyDECRPM, a: 2026, b: 1}, {kind: replyDA1, text: "1;2"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, reps := decodeChunks(tt.wantCPR, tt.in...)
			if !reflect.DeepEqual(got, tt.events) {
				t.Errorf("events: got %#v, want %#v", got, tt.events)
			}
			if !reflect.DeepEqual(reps, tt.replies) {
				t.Errorf("replies: got %#v, want %#v", reps, tt.replies)
			}
		})
	}
}

func TestDecodeOverlongStringSkipped(t *testing.T) {
	long := "\x1bP" + strings.Repeat("x", 3*maxString) + "\x1b\\"
	got, reps := decodeChunks(false, long[:5000], long[5000:], "k")
	if !reflect.DeepEqual(got, evs(char('k', 0))) || len(reps) != 0 {
		t.Errorf("got %v %v, want only k", got, reps)
	}
}

func TestKeyEventString(t *testing.T) {
	tests := map[string]KeyEvent{
		"ctrl+a":          char('a', ModCtrl),
		"alt+enter":       key(KeyEnter, ModAlt),
		"shift+tab":       key(KeyTab, ModShift),
		"x":               char('x', 0),
		"space":           char(' ', 0),
		"ctrl+alt+delete": key(KeyDelete, ModCtrl|ModAlt),
		"f12":             key(KeyF12, 0),
		"ctrl+shift+up":   key(KeyUp, ModCtrl|ModShift),
	}
	for want, k := range tests {
		if got := k.String(); got != want {
			t.Errorf("%#v.String() = %q, want %q", k, got, want)
		}
	}
}
