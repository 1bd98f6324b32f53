package markdown

import (
	"fmt"
	"maps"
	"strings"
	"sync"
	"sync/atomic"
	"runtime"
	"time"
	"unicode/utf8"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/dlclark/regexp2/v2"
)

// Code is highlighted one line at a time: the lexer sees the text up to
// the end of the current line, never beyond, and carries its state (the
// chroma state stack and mutator context) to the next line, the way
// line-oriented highlighters work (look-behind cannot reach into earlier
// lines either). So a line's colours depend only on the lines before it, and a stream can freeze an open code fence line by
// line, keeping the lexer state at the last frozen line instead of
// re-tokenising the whole fence on every chunk.
//
// chroma's own iterator cannot be paused and resumed, so lineLexer drives
// a chroma RegexLexer's rules itself, with the same matching semantics.
// Lexers that are not regex lexers (template languages delegating to
// another lexer) are tokenised whole instead and never frozen mid-block.

// lineLexer is a compiled chroma regex lexer that can lex line by line.
type lineLexer struct {
	name   string
	regex  *chroma.RegexLexer
	rules  chroma.CompiledRules
	limits *matchLimits
}

// lexState is a paused lex: everything needed to continue with the next
// line. It is copied before use, so one frozen state can be resumed many
// times.
type lexState struct {
	st     chroma.LexerState
	limits *matchLimits
	begin  time.Duration // the thread's CPU time when the line began
}

// A hostile line must not stall rendering on a backtracking pattern, and
// how it is highlighted must not depend on how busy the machine is. So
// the limit is on the CPU time the highlighting thread spends on a line
// (which other processes do not consume), not on the time that passes:
// a line that needs more than matchLimits.cpu of it is shown plain. The
// regexp engine can only be stopped by wall-clock time, so a match runs
// under a wall-clock limit that starts at wait and doubles, up to most,
// each time it runs out before the line has used its CPU time: under
// load a slow line gets the time it needs and is highlighted as it would
// be on an idle machine. (Where the thread's CPU time cannot be read,
// wall-clock time stands in for it, and load can tip a line over.)
type matchLimits struct {
	cpu, wait, most time.Duration
}

var defaultLimits = matchLimits{cpu: 100 * time.Millisecond, wait: 125 * time.Millisecond, most: 8 * time.Second}

// lexerSet compiles each lexer once per document or stream, and
// remembers which lexer each info-string name means (chroma's lookup
// falls back to matching file-name patterns, which is slow).
type lexerSet struct {
	compiled map[string]*lineLexer
	named    map[string]chroma.Lexer
	limits   matchLimits
}

func newLexerSet() *lexerSet {
	return &lexerSet{compiled: map[string]*lineLexer{}, named: map[string]chroma.Lexer{}, limits: defaultLimits}
}

// byName is lexers.Get, remembered; nil when name names no lexer.
// Only plausible language or file names are looked up: chroma matches
// unknown names against every lexer's file patterns, which costs time
// growing with the name (milliseconds for "mermaid"), and an info string
// is untrusted text.
func (s *lexerSet) byName(name string) chroma.Lexer {
	if l, ok := s.named[name]; ok {
		return l
	}
	if !plausibleName(name) {
		return nil
	}
	var l chroma.Lexer
	if v, ok := lexerNames.Load(name); ok {
		l, _ = v.(chroma.Lexer)
	} else {
		l = lexers.Get(name)
		if lexerNames.Len() < maxLexerNames {
			lexerNames.Store(name, l)
		}
	}
	s.named[name] = l
	return l
}

// lexerNames is the one piece of package state: a process-wide memo of
// chroma's name lookups (name → chroma.Lexer, nil for none). The lookups
// are pure and the lexers chroma's own globals, and without it every
// stream (one per answer, and again after each resize) would pay the
// slow miss again. It is bounded, since names come from untrusted text.
var lexerNames = boundedMap{}

// maxLexerNames bounds lexerNames.
const maxLexerNames = 1024

// boundedMap is a sync.Map that knows its size.
type boundedMap struct {
	m sync.Map
	n atomic.Int64
}

func (b *boundedMap) Load(k string) (any, bool) { return b.m.Load(k) }

func (b *boundedMap) Store(k string, v any) {
	if _, loaded := b.m.LoadOrStore(k, v); !loaded {
		b.n.Add(1)
	}
}

func (b *boundedMap) Len() int { return int(b.n.Load()) }

func plausibleName(name string) bool {
	if name == "" || len(name) > 40 {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("+#._-/", c) >= 0) {
			return false
		}
	}
	return true
}

// get returns a line lexer for l, or nil when l cannot lex by lines.
func (s *lexerSet) get(l chroma.Lexer) *lineLexer {
	name := l.Config().Name
	if ll, ok := s.compiled[name]; ok {
		return ll
	}
	ll, err := compileLineLexer(l)
	if err != nil {
		ll = nil
	} else {
		ll.limits = &s.limits
	}
	s.compiled[name] = ll
	return ll
}

func compileLineLexer(l chroma.Lexer) (*lineLexer, error) {
	rl, ok := l.(*chroma.RegexLexer)
	if !ok {
		return nil, fmt.Errorf("lexer %s is not a regex lexer", l.Config().Name)
	}
	raw, err := rl.Rules()
	if err != nil {
		return nil, fmt.Errorf("load rules of %s: %w", l.Config().Name, err)
	}
	cfg := rl.Config()
	flags := ""
	if !cfg.NotMultiline {
		flags += "m"
	}
	if cfg.CaseInsensitive {
		flags += "i"
	}
	if cfg.DotAll {
		flags += "s"
	}
	rules := chroma.CompiledRules{}
	for state, rs := range raw {
		for _, r := range rs {
			cr := &chroma.CompiledRule{Rule: r}
			pattern := "(?:" + r.Pattern + ")"
			if flags != "" {
				pattern = "(?" + flags + ")" + pattern
			}
			cr.Regexp, err = regexp2.Compile(`\G` + pattern)
			if err != nil {
				return nil, fmt.Errorf("compile rule %s of %s: %w", state, cfg.Name, err)
			}
			rules[state] = append(rules[state], cr)
		}
	}
	// Expand include() and friends, as chroma does after compiling, until
	// none is left (an include can bring in further includes).
	for n := 0; ; n++ {
		state, i := findLexerMutator(rules)
		if i < 0 {
			break
		}
		if n > 10000 {
			return nil, fmt.Errorf("expand rules of %s: includes do not terminate", cfg.Name)
		}
		for k, rs := range rules { // appends must copy, never share
			rules[k] = rs[:len(rs):len(rs)]
		}
		m := rules[state][i].Mutator.(chroma.LexerMutator)
		if err := m.MutateLexer(rules, state, i); err != nil {
			return nil, fmt.Errorf("expand rules of %s: %w", cfg.Name, err)
		}
	}
	if _, ok := rules["root"]; !ok {
		return nil, fmt.Errorf("lexer %s has no root state", cfg.Name)
	}
	return &lineLexer{name: cfg.Name, regex: rl, rules: rules}, nil
}

func findLexerMutator(rules chroma.CompiledRules) (string, int) {
	for state, rs := range rules {
		for i, r := range rs {
			if _, ok := r.Mutator.(chroma.LexerMutator); ok {
				return state, i
			}
		}
	}
	return "", -1
}

// start returns the state before the first line.
func (ll *lineLexer) start() lexState {
	return lexState{limits: ll.limits, st: chroma.LexerState{
		Lexer:          ll.regex,
		Registry:       lexers.GlobalLexerRegistry,
		Rules:          ll.rules,
		Stack:          []string{"root"},
		MutatorContext: map[any]any{},
	}}
}

// clone returns a copy that can be advanced without touching s.
func (s *lexState) clone() lexState {
	c := s.st
	c.Stack = append([]string(nil), s.st.Stack...)
	c.MutatorContext = maps.Clone(s.st.MutatorContext)
	c.Groups, c.NamedGroups = nil, nil
	return lexState{st: c, limits: s.limits}
}

// line lexes one more line (with its newline) and returns its tokens.
// A lexer failure (a mutator error, a line over its CPU time) yields ok
// false.
func (s *lexState) line(text string) (toks []chroma.Token, ok bool) {
	// Emitters and mutators from chroma may panic on input they did not
	// expect; a line they choke on is shown plain.
	defer func() {
		if recover() != nil {
			toks, ok = nil, false
		}
	}()
	// The thread's CPU clock measures this goroutine only while it stays
	// on the thread.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	s.begin = threadCPU()
	toks, ok = s.lex(text)
	return toks, ok
}

func (s *lexState) lex(text string) (toks []chroma.Token, ok bool) {
	l := &s.st
	// Only this line is visible: matching cannot look past its end.
	l.Text = []rune(text)
	l.Pos = 0
	end := len(l.Text)
	var iters []chroma.Iterator
	drain := func() {
		for len(iters) > 0 {
			n := len(iters) - 1
			t := iters[n]()
			if t == chroma.EOF {
				iters = iters[:n]
				continue
			}
			if t.Type != chroma.Ignore {
				toks = append(toks, t)
			}
		}
	}
	for l.Pos < end && len(l.Stack) > 0 {
		drain()
		l.State = l.Stack[len(l.Stack)-1]
		rules, found := l.Rules[l.State]
		if !found {
			return nil, false
		}
		rule, groups, named, err := s.match(l.Text, l.Pos, rules)
		if err != nil {
			return nil, false
		}
		if groups == nil {
			// As chroma (from Pygments): an unmatched newline resets the
			// stack to root; any other unmatched rune is an error token.
			if l.Text[l.Pos] == '\n' && l.State != "root" {
				l.Stack = []string{"root"}
				continue
			}
			l.Pos++
			toks = append(toks, chroma.Token{Type: chroma.Error, Value: string(l.Text[l.Pos-1 : l.Pos])})
			continue
		}
		l.Groups, l.NamedGroups = groups, named
		l.Pos += utf8.RuneCountInString(groups[0])
		if rule.Mutator != nil {
			if err := rule.Mutator.Mutate(l); err != nil {
				return nil, false
			}
		}
		if rule.Type != nil {
			iters = append(iters, rule.Type.Emit(l.Groups, l))
		}
	}
	drain()
	if l.Pos < end { // the stack emptied: the rest is an error token
		toks = append(toks, chroma.Token{Type: chroma.Error, Value: string(l.Text[l.Pos:end])})
		l.Pos = end
	}
	return toks, true
}

// match tries the rules at pos in order and returns the first that
// matches, or an error when the line ran out of CPU time (see
// matchLimits).
func (s *lexState) match(text []rune, pos int, rules []*chroma.CompiledRule) (*chroma.CompiledRule, []string, map[string]string, error) {
	lim := s.limits
	if lim == nil {
		lim = &defaultLimits
	}
	for _, rule := range rules {
		var m *regexp2.Match
		for wait := lim.wait; ; wait *= 2 {
			rule.Regexp.MatchTimeout = wait
			var err error
			m, err = rule.Regexp.FindRunesMatchStartingAt(text, pos)
			if err == nil {
				break
			}
			if threadCPU()-s.begin >= lim.cpu || wait >= lim.most {
				return nil, nil, nil, err
			}
		}
		if m != nil && m.RuneIndex == pos {
			gs := m.Groups()
			groups := make([]string, len(gs))
			named := make(map[string]string, len(gs))
			for i, g := range gs {
				groups[i] = g.String()
				named[g.Name] = g.String()
			}
			return rule, groups, named, nil
		}
	}
	return nil, nil, nil, nil
}
