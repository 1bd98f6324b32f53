package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Tool names. A server's tool is offered to the model as
// mcp__SERVER__TOOL. Providers accept only ^[a-zA-Z0-9_-]{1,64}$ (OpenAI's
// rule, the strictest), so a tool name with any other character, or one
// that would make the whole name longer than 64, is mapped: every other
// character (or invalid byte) becomes one '_', the name is cut to fit, and "_" plus the first
// 8 hex digits of the SHA-256 of "SERVER\x00TOOL" is appended. A name
// that needed no change keeps its exact form, so "a.b" (mcp__s__a_b_…
// with a digest) never takes the place of a tool really named "a_b". The
// server's own name is what the server is called with; two of its tools
// that still map to one name (only a server choosing names to collide
// can do that) keep the first in name order and drop the other, saying
// so in /mcp.
const (
	namePrefix  = "mcp__"
	nameSep     = "__"
	maxToolName = 64
)

// ToolName is the name the model sees for server's tool, and whether it
// was mapped (see above).
func ToolName(server, tool string) (name string, mapped bool) {
	clean := cleanName(tool)
	name = namePrefix + cleanName(server) + nameSep + clean
	if clean == tool && clean != "" && len(name) <= maxToolName {
		return name, false
	}
	sum := sha256.Sum256([]byte(server + "\x00" + tool))
	suffix := "_" + hex.EncodeToString(sum[:])[:8]
	if len(name)+len(suffix) > maxToolName {
		name = name[:maxToolName-len(suffix)]
	}
	return name + suffix, true
}

// cleanName replaces every character a provider rejects with '_'.
func cleanName(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, c := range s {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' {
			b.WriteRune(c)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// Printable makes untrusted text (a server's names, descriptions,
// errors) safe to print on a terminal outside the renderer, as the
// `quire mcp` commands do: control characters, escape sequences, bidi
// and zero-width characters are shown as \x1b or \u202e, and invalid
// UTF-8 as \xff. The renderer does the same for what it draws.
func Printable(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteString(`\x` + pad2(strconv.FormatUint(uint64(s[i]), 16)))
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			b.WriteString(`\x` + pad2(strconv.FormatUint(uint64(r), 16)))
		case unicode.Is(unicode.Bidi_Control, r) || unicode.In(r, unicode.Cf):
			b.WriteString(`\u` + pad4(strconv.FormatUint(uint64(r), 16)))
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func pad2(s string) string { return strings.Repeat("0", max(0, 2-len(s))) + s }
func pad4(s string) string { return strings.Repeat("0", max(0, 4-len(s))) + s }

// oneLine is Printable text cut to at most n bytes, on one line.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	s = Printable(s)
	if len(s) > n {
		s = s[:runeCut(s, n)] + "…"
	}
	return s
}

// cleanText drops the control characters (but newlines and tabs) of a
// server's description before the model sees it, and bounds it.
func cleanText(s string, limit int) string {
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' {
			return r
		}
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || unicode.Is(unicode.Bidi_Control, r) {
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
	if len(s) > limit {
		s = s[:runeCut(s, limit)] + " … [description cut: it was longer than quire passes on]"
	}
	return s
}

// runeCut is the largest offset at most n (< len(s)) where a rune of s
// starts, so that s[:runeCut(s, n)] cuts no character in two.
func runeCut(s string, n int) int {
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return n
}
