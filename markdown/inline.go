package markdown

import (
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/util"

	"github.com/quire-sh/quire/render"
)

// piece is a run of inline text in one style, the unit the wrapper lays
// out. Text is already sanitised; hard line breaks are pieces of their own.
type piece struct {
	text  string
	style render.Style
	link  string
	keep  bool // never break inside (URLs), unless wider than a line
	hard  bool // a hard line break
}

// inlines flattens n's inline children into pieces, starting from base.
func (r *renderer) inlines(n ast.Node, base render.Style) []piece {
	var ps []piece
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		ps = r.inline(ps, c, base, "")
	}
	return ps
}

func (r *renderer) inline(ps []piece, n ast.Node, st render.Style, link string) []piece {
	add := func(s string, st render.Style, keep bool) {
		if s == "" {
			return
		}
		ps = append(ps, piece{text: cleanText(s), style: st, link: link, keep: keep})
	}
	switch n := n.(type) {
	case *ast.Text:
		v := n.Segment.Value(r.src)
		if !n.IsRaw() {
			v = unescape(v)
		}
		add(string(v), st, false)
		switch {
		case n.HardLineBreak():
			ps = append(ps, piece{text: "\n", hard: true})
		case n.SoftLineBreak():
			add(" ", st, false)
		}
		return ps
	case *ast.String:
		v := n.Value
		if !n.IsRaw() && !n.IsCode() {
			v = unescape(v)
		}
		add(string(v), st, false)
		return ps
	case *ast.CodeSpan:
		var b strings.Builder
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			switch t := c.(type) {
			case *ast.Text:
				b.Write(t.Segment.Value(r.src))
			case *ast.String:
				b.Write(t.Value)
			}
		}
		code := strings.ReplaceAll(b.String(), "\n", " ")
		cs := r.theme.InlineCode
		cs.Attrs |= st.Attrs &^ render.Underline
		if link == "" {
			if l := r.fileLink(code); l != "" {
				return append(ps, piece{text: cleanText(code), style: cs, link: l, keep: true})
			}
		}
		add(code, cs, false)
		return ps
	case *ast.Emphasis:
		if n.Level >= 2 {
			st.Attrs |= r.theme.Strong
		} else {
			st.Attrs |= r.theme.Emphasis
		}
	case *east.Strikethrough:
		st.Attrs |= r.theme.Strike
	case *ast.Link:
		link = cleanURL(string(unescape(n.Destination)))
		st = mergeStyle(st, r.theme.Link)
	case *ast.AutoLink:
		u := string(n.URL(r.src))
		label := string(n.Label(r.src))
		if n.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(u), "mailto:") {
			u = "mailto:" + u
		} else if strings.HasPrefix(strings.ToLower(u), "www.") {
			u = "http://" + u
		}
		link = cleanURL(u)
		add(label, mergeStyle(st, r.theme.Link), true)
		return ps
	case *ast.Image:
		link = cleanURL(string(unescape(n.Destination)))
		ist := mergeStyle(st, r.theme.Image)
		add("[image: ", ist, false)
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			ps = r.inline(ps, c, ist, link)
		}
		add("]", ist, false)
		return ps
	case *ast.RawHTML:
		for i := 0; i < n.Segments.Len(); i++ {
			seg := n.Segments.At(i)
			add(strings.ReplaceAll(string(seg.Value(r.src)), "\n", " "), mergeStyle(st, r.theme.HTML), false)
		}
		return ps
	case *east.TaskCheckBox:
		if n.IsChecked {
			add("[x] ", r.theme.TaskDone, false)
		} else {
			add("[ ] ", r.theme.ListMarker, false)
		}
		return ps
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		ps = r.inline(ps, c, st, link)
	}
	return ps
}

// mergeStyle lays over on top of base: over's colours where set, both
// sets of attributes.
func mergeStyle(base, over render.Style) render.Style {
	if over.Fg != render.DefaultColor {
		base.Fg = over.Fg
	}
	if over.Bg != render.DefaultColor {
		base.Bg = over.Bg
	}
	base.Attrs |= over.Attrs
	return base
}

// unescape resolves backslash escapes and entity and numeric character
// references the way an HTML renderer does: in one pass, so that what an
// escape or a reference produces is never read again ("\\&ouml;" and
// "&#38;ouml;" show "&ouml;", not "ö").
func unescape(v []byte) []byte {
	if !hasAny(v, '\\', '&') {
		return v
	}
	out := make([]byte, 0, len(v))
	for i := 0; i < len(v); {
		c := v[i]
		if c == '\\' && i+1 < len(v) && util.IsPunct(v[i+1]) {
			out = append(out, v[i+1])
			i += 2
			continue
		}
		if c == '&' {
			if ref, n := reference(v[i:]); n > 0 {
				out = append(out, ref...)
				i += n
				continue
			}
		}
		out = append(out, c)
		i++
	}
	return out
}

// reference decodes the character reference v starts with ("&amp;",
// "&#38;", "&#x26;") and returns it and its length, or n 0.
func reference(v []byte) (ref []byte, n int) {
	if len(v) < 3 || v[0] != '&' {
		return nil, 0
	}
	if v[1] != '#' {
		end, ok := util.ReadWhile(v, [2]int{1, len(v)}, util.IsAlphaNumeric)
		if !ok || end >= len(v) || v[end] != ';' {
			return nil, 0
		}
		e, found := util.LookUpHTML5EntityByName(string(v[1:end]))
		if !found {
			return nil, 0
		}
		return e.Characters, end + 1
	}
	start, base, isDigit, max := 2, 10, util.IsNumeric, 7
	if v[2] == 'x' || v[2] == 'X' {
		start, base, isDigit, max = 3, 16, util.IsHexDecimal, 6
	}
	end, ok := util.ReadWhile(v, [2]int{start, len(v)}, isDigit)
	if !ok || end >= len(v) || v[end] != ';' || end-start > max {
		return nil, 0
	}
	code, _ := strconv.ParseUint(string(v[start:end]), base, 32)
	return utf8.AppendRune(nil, util.ToValidRune(rune(code))), end + 1
}

func hasAny(v []byte, a, b byte) bool {
	for _, c := range v {
		if c == a || c == b {
			return true
		}
	}
	return false
}

// cleanText makes untrusted inline text safe to show: tabs become spaces
// (prose has no tab stops) and every other control character becomes a
// visible glyph.
func cleanText(s string) string {
	if strings.IndexByte(s, '\t') >= 0 {
		s = strings.ReplaceAll(s, "\t", " ")
	}
	return render.Sanitize(s)
}

// cleanURL drops control characters and invalid bytes from a link target,
// so nothing in it can end the OSC 8 sequence that carries it.
func cleanURL(u string) string {
	clean := true
	for i := 0; i < len(u); i++ {
		if c := u[i]; c < 0x20 || c >= 0x7f {
			clean = false
			break
		}
	}
	if clean {
		return u
	}
	var b strings.Builder
	for _, r := range u {
		if _, ctl := render.VisibleControl(r); ctl || r == 0xfffd {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// fileLink returns a file:// URL when code names a file that exists
// relative to the working directory (a trailing :line or :line:col is
// allowed), or "" when it does not or no working directory is set.
func (r *renderer) fileLink(code string) string {
	if r.cwd == "" || len(code) < 2 || len(code) > 1024 || strings.ContainsAny(code, " \t\"'<>|*?") ||
		!strings.ContainsAny(code, "/.") || strings.Contains(code, "://") {
		return ""
	}
	p := code
	for range 2 { // strip :line and :col
		i := strings.LastIndexByte(p, ':')
		if i <= 0 || !allDigits(p[i+1:]) {
			break
		}
		p = p[:i]
	}
	if link, ok := r.links.get(code); ok {
		return link
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(r.cwd, p)
	}
	link := ""
	if _, err := os.Stat(p); err == nil {
		link = (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String()
	}
	r.links.put(code, link)
	return link
}

// fileLinks remembers, for one stream, what each code span it checked
// links to ("" for none). A block still open is laid out again at every
// frame, and each of its code spans would otherwise be a system call per
// frame (which on a streamed answer also wakes the Go runtime's monitor
// thread). Bounded, so that an answer made of distinct paths cannot grow
// it without end: past the bound, spans are checked each time.
type fileLinks struct{ m map[string]string }

const maxFileLinks = 4096

func (f *fileLinks) get(code string) (string, bool) {
	if f == nil {
		return "", false
	}
	link, ok := f.m[code]
	return link, ok
}

func (f *fileLinks) put(code, link string) {
	if f == nil || len(f.m) >= maxFileLinks {
		return
	}
	if f.m == nil {
		f.m = map[string]string{}
	}
	f.m[code] = link
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
