package render

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// CleanURL strips everything from a link target that could end or
// corrupt the OSC 8 sequence carrying it: C0 and C1 controls, DEL, and
// invalid UTF-8. It returns u itself when there is nothing to strip.
func CleanURL(u string) string {
	if !NeedsSanitize(u) {
		return u
	}
	var b strings.Builder
	b.Grow(len(u))
	for i := 0; i < len(u); {
		r, n := utf8.DecodeRuneInString(u[i:])
		i += n
		if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || r == utf8.RuneError && n == 1 {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// linkIDs gives every URL a short OSC 8 id, stable for as long as the
// renderer lives, so that a link split across rows or across frames is
// one link to the terminal (hover highlights all of it). Ids count up and
// are never reused; the table is dropped when it grows past maxLinkIDs,
// which only costs a later copy of an old URL a new id.
type linkIDs struct {
	ids  map[string]uint64
	next uint64
}

const maxLinkIDs = 4096

// id returns the id of url, appending its text to dst.
func (l *linkIDs) appendID(dst []byte, url string) []byte {
	id, ok := l.ids[url]
	if !ok {
		if l.ids == nil || len(l.ids) >= maxLinkIDs {
			l.ids = make(map[string]uint64)
		}
		l.next++
		id = l.next
		l.ids[url] = id
	}
	return strconv.AppendUint(dst, id, 36)
}
