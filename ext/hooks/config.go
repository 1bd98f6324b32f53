package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"sort"
	"strings"
	"time"

	"github.com/quire-sh/quire/engine"
)

// ProjectFile is a project's hooks, relative to its root; UserFile is the
// user's, in quire's config directory.
const (
	ProjectFile = ".quire/hooks.json"
	UserFile    = "hooks.json"
)

// DefaultTimeout is how long a hook may run when its definition does not
// say; MaxTimeout is the most it may say.
const (
	DefaultTimeout = 60 * time.Second
	MaxTimeout     = time.Hour
)

// Source is one hooks.json: where it came from and its content.
type Source struct {
	Name    string
	Content []byte
}

// Hook is one command to run at one event.
type Hook struct {
	Event string
	// Matcher is the pattern as written: "" and "*" match everything,
	// anything else is a regular expression that must match the whole
	// subject (a tool's name for the tool events; the trigger for
	// SessionStart, PreCompact and PostCompact).
	Matcher string
	match   *regexp.Regexp
	Command string
	Timeout time.Duration
	// Env is set for the command, under quire's identity variables.
	Env map[string]string
	// From is the file that defined it.
	From string
}

// Set is the hooks of a session: the user's file's first, then the
// project's.
type Set struct {
	byEvent map[string][]Hook
}

// Len is how many hooks the set holds.
func (s *Set) Len() int {
	if s == nil {
		return 0
	}
	n := 0
	for _, hs := range s.byEvent {
		n += len(hs)
	}
	return n
}

// file is hooks.json's shape: the "hooks" object of other agents'
// settings.json. Other top-level keys are left alone, so a copy of a
// whole settings.json reads.
type file struct {
	Hooks map[string]json.RawMessage `json:"hooks"`
}

type group struct {
	Matcher string    `json:"matcher"`
	Hooks   []hookDef `json:"hooks"`
}

type hookDef struct {
	Type    string            `json:"type"`
	Command string            `json:"command"`
	Timeout *float64          `json:"timeout"` // seconds
	Env     map[string]string `json:"env"`
}

// Parse reads the sources in order (the user's first) into a set. A
// source that is not valid JSON, or not shaped like hooks.json, adds no
// hooks; a single definition that is wrong (an unknown event, a matcher
// that is not a valid pattern, a hook without a command) is left out.
// Each source's problems are one line in problems, naming the file; the
// lines never repeat the file's text beyond the names of events.
func Parse(sources ...Source) (*Set, []string) {
	s := &Set{byEvent: map[string][]Hook{}}
	var problems []string
	for _, src := range sources {
		hooks, probs := parseFile(src)
		for _, h := range hooks {
			s.byEvent[h.Event] = append(s.byEvent[h.Event], h)
		}
		if len(probs) > 0 {
			problems = append(problems, fmt.Sprintf("%s: %s", src.Name, strings.Join(probs, "; ")))
		}
	}
	return s, problems
}

// parseFile reads one hooks.json; problems say what was left out.
func parseFile(src Source) ([]Hook, []string) {
	var f file
	if err := json.Unmarshal(src.Content, &f); err != nil {
		return nil, []string{"no hooks read from it: " + jsonProblem(err, src.Content)}
	}
	known := map[string]bool{}
	for _, e := range engine.HookEvents() {
		known[e] = true
	}
	events := make([]string, 0, len(f.Hooks))
	for e := range f.Hooks {
		events = append(events, e)
	}
	sort.Strings(events)
	var out []Hook
	var problems []string
	for _, ev := range events {
		if !known[ev] {
			problems = append(problems, fmt.Sprintf("unknown event %s left out (known: %s)", quoteName(ev), strings.Join(engine.HookEvents(), ", ")))
			continue
		}
		var groups []group
		if err := json.Unmarshal(f.Hooks[ev], &groups); err != nil {
			problems = append(problems, fmt.Sprintf("%s left out: %s", ev, jsonProblem(err, f.Hooks[ev])))
			continue
		}
		for gi, g := range groups {
			where := fmt.Sprintf("%s[%d]", ev, gi)
			re, err := compileMatcher(g.Matcher)
			if err != nil {
				problems = append(problems, fmt.Sprintf("%s left out: its matcher is not a valid pattern (%v)", where, err))
				continue
			}
			for hi, d := range g.Hooks {
				at := fmt.Sprintf("%s.hooks[%d]", where, hi)
				h, err := d.hook(ev, g.Matcher, re, src.Name)
				if err != nil {
					problems = append(problems, fmt.Sprintf("%s left out: %v", at, err))
					continue
				}
				out = append(out, h)
			}
		}
	}
	return out, problems
}

func (d hookDef) hook(event, matcher string, re *regexp.Regexp, from string) (Hook, error) {
	switch {
	case d.Type != "command":
		return Hook{}, fmt.Errorf("type %s is not supported (only \"command\")", quoteName(d.Type))
	case strings.TrimSpace(d.Command) == "":
		return Hook{}, errors.New("it has no command")
	}
	timeout := DefaultTimeout
	if d.Timeout != nil {
		t := time.Duration(*d.Timeout * float64(time.Second))
		if t <= 0 || t > MaxTimeout {
			return Hook{}, fmt.Errorf("timeout must be more than 0 and at most %d seconds", int(MaxTimeout/time.Second))
		}
		timeout = t
	}
	for k := range d.Env {
		if k == "" || strings.ContainsAny(k, "=\x00") {
			return Hook{}, errors.New("an env name is empty or holds '=' or NUL")
		}
	}
	return Hook{Event: event, Matcher: matcher, match: re, Command: d.Command, Timeout: timeout, Env: d.Env, From: from}, nil
}

// compileMatcher makes a matcher's pattern match whole subjects: "shell"
// matches the shell tool and not shell_session; nil matches everything.
func compileMatcher(m string) (*regexp.Regexp, error) {
	if m == "" || m == "*" {
		return nil, nil
	}
	re, err := regexp.Compile("^(?:" + m + ")$")
	if err != nil {
		// The library's message quotes the pattern; say only what is wrong.
		var se *syntax.Error
		if errors.As(err, &se) {
			return nil, errors.New(se.Code.String())
		}
		return nil, errors.New("invalid pattern")
	}
	return re, nil
}

// jsonProblem says what is wrong with a JSON document by line and
// column, without its text: a hooks.json may hold secrets in env.
func jsonProblem(err error, doc []byte) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line, col := position(doc, se.Offset)
		return fmt.Sprintf("not valid JSON (line %d, column %d)", line, col)
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		line, col := position(doc, te.Offset)
		field := te.Field
		if field == "" {
			field = "the document"
		}
		return fmt.Sprintf("%s is a JSON %s where %s belongs (line %d, column %d)", field, te.Value, kindOf(te.Type.Kind().String()), line, col)
	}
	return "not shaped like hooks.json"
}

func kindOf(k string) string {
	switch k {
	case "map", "struct":
		return "an object"
	case "slice", "array":
		return "an array"
	case "float64", "int", "int64":
		return "a number"
	}
	return "a " + k
}

// position is the line and column of byte offset off in doc.
func position(doc []byte, off int64) (line, col int) {
	if off > int64(len(doc)) {
		off = int64(len(doc))
	}
	before := doc[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(off) - (bytes.LastIndexByte(before, '\n') + 1)
	return line, max(col, 1)
}

// plainName is a name printed as it is.
var plainName = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// quoteName prints a name from a file, which may hold anything.
func quoteName(s string) string {
	if plainName.MatchString(s) {
		return s
	}
	return fmt.Sprintf("%+q", s)
}

// matching are the hooks of event whose matcher takes subject, each
// command once (the first definition of it wins: the user's before the
// project's). An empty subject is taken by every matcher: the event has
// nothing to match on.
func (s *Set) matching(event, subject string) []Hook {
	if s == nil {
		return nil
	}
	var out []Hook
	seen := map[string]bool{}
	for _, h := range s.byEvent[event] {
		if subject != "" && h.match != nil && !h.match.MatchString(subject) {
			continue
		}
		if seen[h.Command] {
			continue
		}
		seen[h.Command] = true
		out = append(out, h)
	}
	return out
}

// subject is what an event's matchers are matched against.
func subject(e engine.HookEvent) string {
	switch e.Name {
	case engine.HookPreToolUse, engine.HookPostToolUse, engine.HookPermissionDenied, engine.HookNotification:
		return e.Tool
	case engine.HookSessionStart, engine.HookPreCompact, engine.HookPostCompact:
		return e.Trigger
	case engine.HookSubagentStart, engine.HookSubagentStop:
		// The agent it runs as, "subagent" for none: the name the
		// transcript gives it.
		if e.Subagent == nil || e.Subagent.Agent == "" {
			return "subagent"
		}
		return e.Subagent.Agent
	}
	return ""
}

// Summary says what a hooks.json would make quire run, one line a hook,
// for the question put to the user before it is trusted.
func Summary(content []byte) []string {
	hooks, problems := parseFile(Source{Content: content})
	var out []string
	for _, h := range hooks {
		line := h.Event
		if h.Matcher != "" && h.Matcher != "*" {
			line += " [" + h.Matcher + "]"
		}
		line += ": " + h.Command
		if h.Timeout != DefaultTimeout {
			line += fmt.Sprintf("  (timeout %s)", h.Timeout)
		}
		if len(h.Env) > 0 {
			names := make([]string, 0, len(h.Env))
			for k := range h.Env {
				names = append(names, k)
			}
			sort.Strings(names)
			line += "  (env " + strings.Join(names, ", ") + ")"
		}
		out = append(out, line)
	}
	for _, p := range problems {
		out = append(out, "("+p+")")
	}
	if len(out) == 0 {
		return []string{"(no hooks)"}
	}
	return out
}
