package scrollback

import "github.com/rivo/uniseg"

// settled is how much of streamed text s, which may grow, can be laid out
// now: all of it but a trailing grapheme cluster that the next chunk may
// still extend. Emoji take zero-width joiners, skin tones and variation
// selectors after them, a regional indicator waits for its pair, letters
// of many scripts take combining marks, and CR may be the first half of
// CRLF. Drawing such a cluster early draws it one way and then another,
// and a terminal that was sent a cluster ending in a zero-width joiner
// glues the next character it prints, wherever that is, onto that cell
// (tmux 3.3a). A trailing ASCII character other than CR is taken at once:
// nothing a model writes extends it in practice, and holding it back
// would make every chunk show one character late.
//
// Every streamed lane (answers, reasoning, tool output) enters its
// renderer through Block.feed, which holds the cluster back until it is
// complete or the block is finished.
func settled(s string) int {
	if s == "" {
		return 0
	}
	start, pos, state := 0, 0, -1
	for rest := s; len(rest) > 0; {
		var c string
		c, rest, _, state = uniseg.FirstGraphemeClusterInString(rest, state)
		start = pos
		pos += len(c)
	}
	last := s[start:]
	if last == "\r" || !isASCII(last) {
		return start
	}
	return len(s)
}

// feed gives the block's renderer the source it has not seen, holding back
// a trailing cluster that may still grow unless the block is finished.
func (b *Block) feed() {
	src := b.src.String()
	if b.fed >= len(src) {
		return
	}
	end := len(src)
	if !b.finished {
		end = b.fed + settled(src[b.fed:])
	}
	if end > b.fed {
		b.body.Append(src[b.fed:end])
		b.fed = end
	}
}
