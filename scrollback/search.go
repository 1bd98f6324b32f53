package scrollback

import (
	"fmt"
	"regexp"
	"unicode"

	"github.com/quire-sh/quire/render"
)

// search is the state of / ? n N and the & filter.
type search struct {
	re       *regexp.Regexp
	pattern  string
	backward bool // the last search was ? (n repeats its direction)

	typing bool
	origin pager // where / or ? was pressed, restored by CancelSearch
	prevRe *regexp.Regexp
	prevP  string

	cur matchPos

	// Match counting is incremental: a new pattern (or width) is counted
	// a bounded number of blocks per call, then only blocks that changed
	// are counted again.
	matchesValid bool
	countNext    int // blocks [0, countNext) are counted
	total        int
	counts       map[ID]int
	pending      map[ID]struct{}
	// ordinal caches the current match's 1-based number for ordinalOf;
	// it is dropped whenever a count or the current match changes.
	ordinal   int
	ordinalOf matchPos

	filter  *regexp.Regexp
	filterP string

	line render.Line // scratch for composing lines to match
}

// matchPos is a match's place: block, view line, byte range in the
// composed line's text.
type matchPos struct {
	id         ID
	line       int
	start, end int
	ok         bool
}

// Compile turns what the user typed into a matcher the way moor does:
// smart case (case-insensitive unless the pattern has an upper-case
// letter) and a regular expression when the pattern is a valid one,
// otherwise the literal text.
func Compile(pattern string) *regexp.Regexp {
	if pattern == "" {
		return nil
	}
	flags := "(?i)"
	for _, r := range pattern {
		if unicode.IsUpper(r) {
			flags = ""
			break
		}
	}
	re, err := regexp.Compile(flags + pattern)
	if err != nil {
		re = regexp.MustCompile(flags + regexp.QuoteMeta(pattern))
	}
	return re
}

// BeginSearch starts an incremental search (/ forward, ? backward).
func (t *Transcript) BeginSearch(backward bool) {
	s := &t.srch
	s.typing = true
	s.origin = t.pg
	s.origin.scratch = frameScratch{}
	s.prevRe, s.prevP = s.re, s.pattern
	s.backward = backward
}

// SetSearchPattern updates the pattern as it is typed: the view moves to
// the first match from where the search began, or back there when
// nothing matches.
func (t *Transcript) SetSearchPattern(pattern string) bool {
	s := &t.srch
	t.setPattern(pattern)
	scratch := t.pg.scratch
	t.pg = s.origin
	t.pg.scratch = scratch
	if s.re == nil {
		return false
	}
	from := t.searchStart()
	m, ok := t.findMatch(from, s.backward, true, previewBlocks)
	if !ok {
		return false
	}
	t.goToMatch(m)
	return true
}

// previewBlocks bounds the work of one keystroke of an incremental search:
// a match further away than this many blocks is found when the search is
// committed.
const previewBlocks = 2000

// CommitSearch ends the incremental search, keeping the pattern and the
// position (Enter). When the preview found nothing nearby it searches the
// whole transcript now; it reports whether there is a current match.
func (t *Transcript) CommitSearch() bool {
	s := &t.srch
	s.typing = false
	if s.re == nil {
		return false
	}
	if !s.cur.ok {
		if m, ok := t.findMatch(t.searchStart(), s.backward, true, 0); ok {
			t.goToMatch(m)
		}
	}
	return s.cur.ok
}

// CancelSearch ends the incremental search, restoring the previous
// pattern and the position where it began (Esc).
func (t *Transcript) CancelSearch() {
	s := &t.srch
	if !s.typing {
		return
	}
	s.typing = false
	scratch := t.pg.scratch
	t.pg = s.origin
	t.pg.scratch = scratch
	t.setPattern(s.prevP)
	s.re = s.prevRe
}

// ClearSearch drops the pattern and its highlights.
func (t *Transcript) ClearSearch() { t.setPattern("") }

func (t *Transcript) setPattern(p string) {
	s := &t.srch
	if p == s.pattern && (p == "") == (s.re == nil) {
		return
	}
	s.pattern = p
	s.re = Compile(p)
	s.cur = matchPos{}
	s.matchesValid = false
}

// SearchNext moves to the next match in the search's direction (n), or
// against it with reverse (N). The search wraps around the transcript.
func (t *Transcript) SearchNext(reverse bool) bool {
	s := &t.srch
	if s.re == nil {
		return false
	}
	back := s.backward != reverse
	from := s.cur
	if !from.ok || !t.matchOnScreen(from) {
		from = t.searchStart()
		if m, ok := t.findMatch(from, back, true, 0); ok {
			t.goToMatch(m)
			return true
		}
		return false
	}
	m, ok := t.findMatch(from, back, false, 0)
	if !ok {
		return false
	}
	t.goToMatch(m)
	return true
}

// searchStart is the position a search without a current match starts
// from: the top line of the viewport.
func (t *Transcript) searchStart() matchPos {
	if len(t.blocks) == 0 {
		return matchPos{}
	}
	top := t.top()
	i := min(t.lay.Find(top), len(t.blocks)-1)
	return matchPos{id: t.blocks[i].id, line: max(0, top-t.lay.Top(i)), ok: true}
}

func (t *Transcript) matchOnScreen(m matchPos) bool {
	i, ok := t.index[m.id]
	if !ok {
		return false
	}
	y := t.lay.Top(i) + m.line
	top := t.top()
	return y >= top && y < top+t.h
}

// findMatch scans from `from` for the next match (or previous, with back),
// wrapping around, through at most limit blocks (0: all); inclusive
// accepts a match starting exactly at from.
func (t *Transcript) findMatch(from matchPos, back, inclusive bool, limit int) (matchPos, bool) {
	n := len(t.blocks)
	start, ok := t.index[from.id]
	if !ok || n == 0 {
		return matchPos{}, false
	}
	re := t.srch.re
	last := n
	if limit > 0 {
		last = min(n, limit)
	}
	for k := 0; k <= last; k++ {
		i := start + k
		if back {
			i = start - k
		}
		i = ((i % n) + n) % n
		b := t.blocks[i]
		if b.hidden {
			continue
		}
		v := t.peek(i)
		h := v.height()
		for yy := 0; yy < h; yy++ {
			y := yy
			if back {
				y = h - 1 - yy
			}
			if k == 0 && !back && y < from.line || k == 0 && back && y > from.line {
				continue
			}
			v.line(y, &t.srch.line)
			text := t.srch.line.Text()
			locs := re.FindAllStringIndex(text, -1)
			if back {
				for j := len(locs) - 1; j >= 0; j-- {
					if m, ok := t.accept(b.id, y, locs[j], from, k, true, inclusive); ok {
						return m, true
					}
				}
				continue
			}
			for _, loc := range locs {
				if m, ok := t.accept(b.id, y, loc, from, k, false, inclusive); ok {
					return m, true
				}
			}
		}
		if k == n && n > 0 {
			break
		}
	}
	return matchPos{}, false
}

func (t *Transcript) accept(id ID, y int, loc []int, from matchPos, k int, back, inclusive bool) (matchPos, bool) {
	if loc[1] == loc[0] {
		return matchPos{}, false
	}
	m := matchPos{id: id, line: y, start: loc[0], end: loc[1], ok: true}
	if k == 0 && id == from.id && y == from.line {
		// The starting line: only matches past the current one count,
		// unless the scan restarted from a line boundary.
		switch {
		case inclusive && from.end == 0:
		case !back && (loc[0] < from.start || loc[0] == from.start && !inclusive):
			return matchPos{}, false
		case back && (loc[0] > from.start || loc[0] == from.start && !inclusive):
			return matchPos{}, false
		}
	}
	return m, true
}

// goToMatch makes m current and scrolls it into view: a match already on
// screen (and not under the pinned prompt) does not move the view;
// otherwise its line lands a quarter screen from the top.
func (t *Transcript) goToMatch(m matchPos) {
	t.srch.cur = m
	i := t.index[m.id]
	y := t.lay.Top(i) + m.line
	top := t.top()
	rows, _ := t.stickyAt(top)
	if y >= top+rows && y < top+t.h {
		return
	}
	t.jumped()
	t.pg.follow = false
	t.setTop(y - t.h/4)
	if rows, _ := t.stickyAt(t.top()); y < t.top()+rows {
		t.setTop(y - rows)
	}
}

// matchesOn appends the matches on view line y of block i, drawn at row.
func (t *Transcript) matchesOn(i, y, row int, f *Frame) {
	re := t.srch.re
	if re == nil {
		return
	}
	text := f.Lines[row].Text()
	id := t.blocks[i].id
	for _, loc := range re.FindAllStringIndex(text, -1) {
		if loc[0] == loc[1] {
			continue
		}
		cur := t.srch.cur
		f.Matches = append(f.Matches, Match{
			Row:     row,
			Col:     render.StringWidth(text[:loc[0]]),
			Width:   render.StringWidth(text[loc[0]:loc[1]]),
			Current: cur.ok && cur.id == id && cur.line == y && cur.start == loc[0],
		})
	}
}

// SearchStatus describes the search for the status line.
type SearchStatus struct {
	Pattern string
	Typing  bool
	Count   int // matches in the visible transcript (so far, while Counting)
	// Counting is set while the count is still under way: it advances a
	// bounded number of blocks per call, so a long transcript is counted
	// over several frames instead of freezing one.
	Counting bool
	Current  int // 1-based ordinal of the current match; 0 if none or not yet known
}

func (s SearchStatus) String() string {
	switch {
	case s.Pattern == "":
		return ""
	case s.Counting:
		return fmt.Sprintf("/%s: %d+ matches (counting)", s.Pattern, s.Count)
	case s.Count == 0:
		return fmt.Sprintf("/%s: pattern not found", s.Pattern)
	case s.Current > 0:
		return fmt.Sprintf("/%s: match %d of %d", s.Pattern, s.Current, s.Count)
	}
	return fmt.Sprintf("/%s: %d matches", s.Pattern, s.Count)
}

// Search reports the pattern, the match count and the current match. Each
// call counts at most countBlocks more blocks of a new pattern (or after a
// width change), then only blocks that changed; call it once a frame.
func (t *Transcript) Search() SearchStatus {
	s := &t.srch
	st := SearchStatus{Pattern: s.pattern, Typing: s.typing}
	if s.re == nil {
		return st
	}
	t.countMatches(countBlocks)
	st.Count = s.total
	st.Counting = s.countNext < len(t.blocks)
	if s.cur.ok && s.ordinal > 0 && s.ordinalOf == s.cur {
		st.Current = s.ordinal
		return st
	}
	if s.cur.ok {
		if ci, ok := t.index[s.cur.id]; ok && !t.blocks[ci].hidden && ci < s.countNext {
			n := 0
			for i := 0; i < ci; i++ {
				n += s.counts[t.blocks[i].id]
			}
			v := t.peek(ci)
			for y := 0; y <= s.cur.line && y < v.height(); y++ {
				v.line(y, &s.line)
				for _, loc := range s.re.FindAllStringIndex(s.line.Text(), -1) {
					if loc[0] == loc[1] || y == s.cur.line && loc[0] > s.cur.start {
						continue
					}
					n++
				}
			}
			st.Current = n
			s.ordinal, s.ordinalOf = n, s.cur
		}
	}
	return st
}

// countBlocks is how many blocks one Search call counts.
const countBlocks = 1000

// countMatches advances the count by up to budget blocks and recounts the
// counted blocks that changed.
func (t *Transcript) countMatches(budget int) {
	s := &t.srch
	if !s.matchesValid || len(s.pending) > 0 {
		s.ordinal = 0
	}
	if !s.matchesValid {
		s.total, s.countNext = 0, 0
		s.counts = make(map[ID]int)
		s.pending = make(map[ID]struct{})
		s.matchesValid = true
	}
	for id := range s.pending {
		if i, ok := t.index[id]; ok && i < s.countNext {
			c := t.blockMatches(i)
			s.total += c - s.counts[id]
			s.counts[id] = c
		}
		delete(s.pending, id)
	}
	for ; s.countNext < len(t.blocks) && budget > 0; budget-- {
		i := s.countNext
		c := t.blockMatches(i)
		s.counts[t.blocks[i].id] = c
		s.total += c
		s.countNext++
	}
}

func (t *Transcript) blockMatches(i int) int {
	if t.blocks[i].hidden {
		return 0
	}
	v := t.peek(i)
	n := 0
	for y := 0; y < v.height(); y++ {
		v.line(y, &t.srch.line)
		for _, loc := range t.srch.re.FindAllStringIndex(t.srch.line.Text(), -1) {
			if loc[0] != loc[1] {
				n++
			}
		}
	}
	return n
}

// touchSearch queues a changed block for counting again.
func (t *Transcript) touchSearch(b *Block) {
	s := &t.srch
	if s.re != nil && s.matchesValid {
		s.pending[b.id] = struct{}{}
	}
}
