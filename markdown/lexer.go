package markdown

import (
	"fmt"
	"maps"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
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
// It is not changed once compiled (but for the patient variants of its
// rules, made once each when first needed), so streams share it.
type lineLexer struct {
	name    string
	regex   *chroma.RegexLexer
	rules   chroma.CompiledRules
	limits  matchLimits
	patient sync.Map // *chroma.CompiledRule → *regexp2.Regexp limited by limits.most
}

// lexState is a paused lex: everything needed to continue with the next
// line. It is copied before use, so one frozen state can be resumed many
// times.
type lexState struct {
	st chroma.LexerState
	ll *lineLexer
}

// A hostile line must not stall rendering on a backtracking pattern, and
// how it is highlighted must not depend on how busy the machine is. So
// the limit is on CPU time, which other processes do not consume: when
// the rules tried at one position of a line need more than
// matchLimits.cpu of the highlighting thread's CPU time, the line is
// shown plain. Reading that clock costs a system call, so a position is
// first matched timing only the wall clock, which never runs slower than
// the CPU clock: done within cpu of it, it is within the limit. Otherwise
// (a slow pattern, or a busy machine) the position is matched again
// reading the CPU clock around each pattern. The regexp engine can only
// be stopped by wall-clock time: a pattern runs under wait of it first,
// and if that runs out before the pattern has used cpu of CPU time, again
// under the patient limit most, so that under load a slow pattern gets the
// time it needs and is judged as on an idle machine. (Where the thread's
// CPU time cannot be read, wall-clock time stands in for it, and load can
// tip a line over.)
type matchLimits struct {
	cpu, wait, most time.Duration
}

var defaultLimits = matchLimits{cpu: 100 * time.Millisecond, wait: 100 * time.Millisecond, most: 2 * time.Second}

// lexerSet remembers, for one document or stream, which lexer each
// info-string name means (chroma's lookup falls back to matching
// file-name patterns, which is slow) and which line lexer each lexer
// compiles to.
type lexerSet struct {
	compiled map[string]*lineLexer
	named    map[string]chroma.Lexer
}

func newLexerSet() *lexerSet {
	return &lexerSet{compiled: map[string]*lineLexer{}, named: map[string]chroma.Lexer{}}
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

// lexerNames and lineLexers are the package's state: process-wide memos
// of chroma's name lookups (name → chroma.Lexer, nil for none) and of
// the line lexers compiled from chroma's lexers (lexer name → *lineLexer,
// nil when it cannot lex by lines). The lookups are pure, the lexers
// chroma's own globals and a line lexer never changes once compiled, and
// without them every stream (one per answer, and again after each
// resize) would pay the slow miss and the milliseconds of compiling a
// lexer's patterns again. lexerNames is bounded, since names come from
// untrusted text; lineLexers holds at most one entry per chroma lexer.
var (
	lexerNames = boundedMap{}
	lineLexers sync.Map
)

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
	var ll *lineLexer
	if v, ok := lineLexers.Load(name); ok {
		ll = v.(*lineLexer)
	} else {
		var err error
		ll, err = compileLineLexer(l, defaultLimits)
		if err != nil {
			ll = nil
		}
		v, _ := lineLexers.LoadOrStore(name, ll)
		ll = v.(*lineLexer)
	}
	s.compiled[name] = ll
	return ll
}

func compileLineLexer(l chroma.Lexer, lim matchLimits) (*lineLexer, error) {
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
			cr.Regexp.MatchTimeout = lim.wait
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
	return &lineLexer{name: cfg.Name, regex: rl, rules: rules, limits: lim}, nil
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
	return lexState{ll: ll, st: chroma.LexerState{
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
	return lexState{st: c, ll: s.ll}
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
// matches, or an error when they need more CPU time than the limit (see
// matchLimits).
func (s *lexState) match(text []rune, pos int, rules []*chroma.CompiledRule) (*chroma.CompiledRule, []string, map[string]string, error) {
	t0 := time.Now()
	rule, m, err := s.try(text, pos, rules, false)
	if err != nil || time.Since(t0) >= s.ll.limits.cpu {
		rule, m, err = s.try(text, pos, rules, true)
	}
	if err != nil || m == nil {
		return nil, nil, nil, err
	}
	gs := m.Groups()
	groups := make([]string, len(gs))
	named := make(map[string]string, len(gs))
	for i, g := range gs {
		groups[i] = g.String()
		named[g.Name] = g.String()
	}
	return rule, groups, named, nil
}

// try matches the rules at pos in order; timed, it reads the CPU clock
// around each pattern and fails once they have used the limit.
func (s *lexState) try(text []rune, pos int, rules []*chroma.CompiledRule, timed bool) (*chroma.CompiledRule, *regexp2.Match, error) {
	lim := s.ll.limits
	var used time.Duration
	for _, rule := range rules {
		if !timed {
			m, err := rule.Regexp.FindRunesMatchStartingAt(text, pos)
			if err != nil {
				return nil, nil, err
			}
			if m != nil && m.RuneIndex == pos {
				return rule, m, nil
			}
			continue
		}
		c0 := threadCPU()
		m, err := rule.Regexp.FindRunesMatchStartingAt(text, pos)
		spent := threadCPU() - c0
		if err != nil && used+spent < lim.cpu {
			// Out of time, not of work: again, patiently.
			c0 = threadCPU()
			m, err = s.ll.patientRegexp(rule).FindRunesMatchStartingAt(text, pos)
			spent = threadCPU() - c0
		}
		used += spent
		if err == nil && used >= lim.cpu {
			err = fmt.Errorf("highlighting took more than %v of CPU time", lim.cpu)
		}
		if err != nil {
			return nil, nil, err
		}
		if m != nil && m.RuneIndex == pos {
			return rule, m, nil
		}
	}
	return nil, nil, nil
}

// patientRegexp returns rule's pattern under the patient wall-clock
// limit, compiling it the first time.
func (ll *lineLexer) patientRegexp(rule *chroma.CompiledRule) *regexp2.Regexp {
	if v, ok := ll.patient.Load(rule); ok {
		return v.(*regexp2.Regexp)
	}
	re, err := regexp2.Compile(rule.Regexp.String()) // the flags are in the pattern
	if err != nil {
		return rule.Regexp // it compiled once: cannot happen
	}
	re.MatchTimeout = ll.limits.most
	v, _ := ll.patient.LoadOrStore(rule, re)
	return v.(*regexp2.Regexp)
}
