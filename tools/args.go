package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/quire-sh/quire/internal/editdist"
)

// param describes one argument of a built-in tool. The JSON schema the
// model sees and the validation applied to its calls are both derived from
// the same list, so they cannot drift apart.
type param struct {
	name     string
	typ      string // "string", "integer" or "boolean"
	desc     string
	required bool
	min, max int64 // for integers; max 0 means unbounded
}

// schemaOf renders params as a draft-07 JSON schema with no $ref.
func schemaOf(params []param) json.RawMessage {
	props := make(map[string]any, len(params))
	required := []string{}
	for _, p := range params {
		prop := map[string]any{"type": p.typ, "description": p.desc}
		if p.typ == "integer" {
			prop["minimum"] = p.min
			if p.max > 0 {
				prop["maximum"] = p.max
			}
		}
		props[p.name] = prop
		if p.required {
			required = append(required, p.name)
		}
	}
	b, err := json.Marshal(map[string]any{
		"$schema":              "http://json-schema.org/draft-07/schema#",
		"type":                 "object",
		"properties":           props,
		"required":             required,
		"additionalProperties": false,
	})
	if err != nil {
		panic(err) // only maps of strings and numbers: cannot fail
	}
	return b
}

// maxArgErrorBytes caps the argument error message so a badly broken call
// cannot flood the context.
const maxArgErrorBytes = 4096

// ArgError lists every problem found in a call's arguments.
type ArgError struct {
	Problems []string
}

func (e *ArgError) Error() string {
	msg := "invalid arguments: " + strings.Join(e.Problems, "; ")
	if len(msg) > maxArgErrorBytes {
		msg = msg[:maxArgErrorBytes-len(" …")] + " …"
	}
	return msg
}

// decodeArgs validates raw against params, reporting every problem at once,
// and decodes it into dst (a pointer to a struct with json tags matching
// the param names). Integers are accepted as 5, 5.0 or "5".
func decodeArgs(raw json.RawMessage, params []param, dst any) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		raw = []byte("{}")
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return &ArgError{Problems: []string{fmt.Sprintf("the arguments must be a JSON object with the fields %s", paramList(params))}}
	}
	var problems []string
	clean := make(map[string]any, len(fields))
	known := make(map[string]param, len(params))
	for _, p := range params {
		known[p.name] = p
	}
	for name := range fields {
		if _, ok := known[name]; !ok {
			msg := fmt.Sprintf("unknown field %q", name)
			if s := closest(name, params); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			problems = append(problems, msg)
		}
	}
	for _, p := range params {
		v, ok := fields[p.name]
		if !ok || bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			if p.required {
				problems = append(problems, fmt.Sprintf("missing required field %q (%s: %s)", p.name, p.typ, p.desc))
			}
			continue
		}
		val, err := convert(p, v)
		if err != nil {
			problems = append(problems, fmt.Sprintf("field %q: %v", p.name, err))
			continue
		}
		clean[p.name] = val
	}
	if len(problems) > 0 {
		slices.Sort(problems)
		return &ArgError{Problems: problems}
	}
	b, err := json.Marshal(clean)
	if err != nil {
		return &ArgError{Problems: []string{err.Error()}}
	}
	if err := json.Unmarshal(b, dst); err != nil {
		return &ArgError{Problems: []string{err.Error()}}
	}
	return nil
}

func convert(p param, v json.RawMessage) (any, error) {
	switch p.typ {
	case "string":
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return nil, fmt.Errorf("must be a string, got %s", jsonKind(v))
		}
		return s, nil
	case "boolean":
		var b bool
		if err := json.Unmarshal(v, &b); err == nil {
			return b, nil
		}
		var s string
		if json.Unmarshal(v, &s) == nil {
			if b, err := strconv.ParseBool(s); err == nil {
				return b, nil
			}
		}
		return nil, fmt.Errorf("must be true or false, got %s", jsonKind(v))
	case "integer":
		n, err := lenientInt(v)
		if err != nil {
			return nil, err
		}
		if n < p.min {
			return nil, fmt.Errorf("must be at least %d, got %d", p.min, n)
		}
		if p.max > 0 && n > p.max {
			return nil, fmt.Errorf("must be at most %d, got %d", p.max, n)
		}
		return n, nil
	}
	return nil, fmt.Errorf("unsupported type %s", p.typ)
}

// lenientInt accepts 5, 5.0 and "5": models emit all three.
func lenientInt(v json.RawMessage) (int64, error) {
	var f float64
	if err := json.Unmarshal(v, &f); err == nil {
		if f != math.Trunc(f) || math.Abs(f) > 1<<53 {
			return 0, fmt.Errorf("must be a whole number, got %s", v)
		}
		return int64(f), nil
	}
	var s string
	if err := json.Unmarshal(v, &s); err == nil {
		if n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64); err == nil {
			return n, nil
		}
		return 0, fmt.Errorf("must be a whole number, got the string %q", s)
	}
	return 0, fmt.Errorf("must be a whole number, got %s", jsonKind(v))
}

func jsonKind(v json.RawMessage) string {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return "nothing"
	}
	switch v[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

func paramList(params []param) string {
	var parts []string
	for _, p := range params {
		s := p.name + " (" + p.typ
		if !p.required {
			s += ", optional"
		}
		parts = append(parts, s+")")
	}
	return strings.Join(parts, ", ")
}

// closest suggests the param name nearest to name, or "" when none is
// close enough to be a likely typo.
func closest(name string, params []param) string {
	best, bestD := "", 1<<30
	for _, p := range params {
		d := editdist.Levenshtein(strings.ToLower(name), strings.ToLower(p.name))
		if d < bestD {
			best, bestD = p.name, d
		}
	}
	if bestD <= max(2, len(name)/3) {
		return best
	}
	return ""
}
