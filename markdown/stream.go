package markdown

import (
	"bytes"

	"github.com/yuin/goldmark/parser"

	"github.com/quire-sh/quire/render"
)

// Stream renders a markdown document that arrives in chunks. Rendering
// is lazy: Append only records the chunk, and the next Lines or Frozen
// re-renders only the tail after the last checkpoint (so chunks that
// arrive between two frames cost one render). Everything before the
// checkpoint is frozen and never changes again. At every moment Lines() equals
// Render(ShownPrefix(Source())), and after Finish it equals
// Render(Source()).
//
// A Stream is not safe for concurrent use.
type Stream struct {
	opts   Options
	parser parser.Parser
	lexers *lexerSet

	src      []byte
	finished bool
	dirty    bool // src or finished changed since the last render

	lines  []render.Line // frozen lines, then the tail's
	frozen int           // len of the frozen prefix of lines
	base   int           // bytes of src behind the frozen lines
	state  tailState
	// held is where a held-back unfinished line starts: a line of an open
	// code fence or a table row (-1: none). Until that line ends, or gains
	// a character that could make it a closing fence, more of it changes
	// nothing on screen.
	held int
	// shown is the end of the text the last render showed (-1 after
	// Finish): Lines() depends on nothing else.
	shown int
}

// NewStream starts an empty stream.
func NewStream(opts Options) *Stream {
	return &Stream{
		opts:   opts.normalized(),
		parser: newParser(),
		lexers: newLexerSet(),
		state:  tailState{refKeys: map[string]bool{}},
		held:   -1,
	}
}

// Append adds a chunk of text. Appending after Finish reopens the stream
// (hold-back applies again).
func (s *Stream) Append(chunk string) {
	if chunk == "" && !s.finished {
		return
	}
	s.src = append(s.src, chunk...)
	s.finished = false
	s.dirty = true
}

// Finish declares the text complete: held-back suffixes are rendered for
// what they are.
func (s *Stream) Finish() {
	s.finished = true
	s.dirty = true
}

// Lines returns the current lines: the frozen ones followed by the tail.
// The slice is valid until the next call of any Stream method; callers
// must not modify it. Lines()[:Frozen()] never change.
func (s *Stream) Lines() []render.Line {
	s.sync()
	return s.lines[:len(s.lines):len(s.lines)]
}

// Frozen returns how many leading lines are final: they will be the same
// whatever text is appended later, so they can be committed to
// scrollback.
func (s *Stream) Frozen() int {
	s.sync()
	return s.frozen
}

// Source returns all text appended so far.
func (s *Stream) Source() string { return string(s.src) }

// FrozenSource returns how many leading bytes of Source() are behind
// frozen lines.
func (s *Stream) FrozenSource() int {
	s.sync()
	return s.base
}

func (s *Stream) sync() {
	if s.dirty {
		s.dirty = false
		s.update()
	}
}

func (s *Stream) update() {
	shown := len(s.src)
	if !s.finished {
		// The frozen part always ends before anything held back; the max
		// only guards that promise.
		shown = max(shownLen(s.src), s.base)
		if shown == s.shown {
			return // only held-back text arrived
		}
		if s.held >= 0 && shown >= s.held && !bytes.ContainsAny(s.src[s.held:shown], "\n`~") {
			return // the same unfinished line, still held back
		}
		s.shown = shown
	} else {
		s.shown = -1
	}
	res := renderTail(s.parser, s.lexers, s.src[s.base:shown], &s.opts, s.state, true, !s.finished)
	s.lines = append(s.lines[:s.frozen], res.lines...)
	s.held = -1
	if res.held >= 0 {
		s.held = s.base + res.held
	}
	if res.cpSrc <= 0 {
		return
	}
	s.frozen += res.cpLines
	s.base += res.cpSrc
	s.state.fence = res.fence
	s.state.afterText = res.afterText
	if s.frozen > 0 {
		s.state.emitted = true
	}
	for _, d := range res.refs {
		k := refKey(d.Label)
		if !s.state.refKeys[k] {
			s.state.refKeys[k] = true
			s.state.refs = append(s.state.refs, keepRef(d))
		}
	}
}
