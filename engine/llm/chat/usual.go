package chat

import "encoding/json"

// decodeUsual decodes data into c without reflection when the chunk has
// the shape nearly every streamed chunk has: an object with at most one
// choice whose delta carries text (content, reasoning, refusal, a role),
// scalar bookkeeping fields (id, model, created…) and a scalar usage and
// error. It reports false for anything else — a tool call, a usage
// object, a key it does not know, a key given twice, an escaped key,
// invalid JSON — and then c must be discarded and the chunk decoded with
// encoding/json, whose result is the reference: where decodeUsual reports
// true, c is what json.Unmarshal would have produced (FuzzDecodeUsual).
// The raw fields of c are slices of data.
func (c *chunk) decodeUsual(data []byte) bool {
	s := scanner{b: data}
	var seen uint
	ok := s.object(func(key []byte) bool {
		var bit uint
		switch string(key) {
		case "choices":
			bit = 1 << 0
			if !s.choices(c) {
				return false
			}
		case "usage":
			bit = 1 << 1
			c.Usage = s.scalar()
		case "error":
			bit = 1 << 2
			c.Error = s.scalar()
		case "id":
			bit = 1 << 3
			_ = s.scalar()
		case "object":
			bit = 1 << 4
			_ = s.scalar()
		case "created":
			bit = 1 << 5
			_ = s.scalar()
		case "model":
			bit = 1 << 6
			_ = s.scalar()
		case "system_fingerprint":
			bit = 1 << 7
			_ = s.scalar()
		case "service_tier":
			bit = 1 << 8
			_ = s.scalar()
		default:
			return false
		}
		if seen&bit != 0 {
			return false // encoding/json merges repeated keys its own way
		}
		seen |= bit
		return !s.bad
	})
	return ok && s.end()
}

// choices reads a list of no choices or one.
func (s *scanner) choices(c *chunk) bool {
	s.space()
	if s.eat("null") {
		c.Choices = nil
		return true
	}
	if !s.eatByte('[') {
		return false
	}
	c.Choices = make([]choice, 0, 1)
	s.space()
	if s.eatByte(']') {
		return true
	}
	c.Choices = c.Choices[:1]
	if !s.choice(&c.Choices[0]) {
		return false
	}
	s.space()
	return s.eatByte(']')
}

func (s *scanner) choice(ch *choice) bool {
	s.space()
	if s.eat("null") {
		return true
	}
	var seen uint
	return s.object(func(key []byte) bool {
		var bit uint
		switch string(key) {
		case "delta":
			bit = 1 << 0
			if !s.delta(&ch.Delta) {
				return false
			}
		case "finish_reason":
			bit = 1 << 1
			ch.FinishReason = s.scalar()
		case "index":
			bit = 1 << 2
			_ = s.scalar()
		case "logprobs":
			bit = 1 << 3
			_ = s.scalar()
		default:
			return false
		}
		if seen&bit != 0 {
			return false
		}
		seen |= bit
		return !s.bad
	})
}

func (s *scanner) delta(m *message) bool {
	s.space()
	if s.eat("null") {
		return true
	}
	var seen uint
	return s.object(func(key []byte) bool {
		var bit uint
		switch string(key) {
		case "content":
			bit = 1 << 0
			m.Content = s.scalar()
		case "reasoning_content":
			bit = 1 << 1
			m.ReasoningContent = s.scalar()
		case "reasoning":
			bit = 1 << 2
			m.Reasoning = s.scalar()
		case "refusal":
			bit = 1 << 3
			m.Refusal = s.scalar()
		case "role":
			bit = 1 << 4
			_ = s.scalar()
		default:
			return false
		}
		if seen&bit != 0 {
			return false
		}
		seen |= bit
		return !s.bad
	})
}

// scanner walks JSON text; bad is set by the first thing it does not
// accept, after which its results mean nothing.
type scanner struct {
	b   []byte
	i   int
	bad bool
}

func (s *scanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *scanner) eatByte(c byte) bool {
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

func (s *scanner) eat(lit string) bool {
	if len(s.b)-s.i >= len(lit) && string(s.b[s.i:s.i+len(lit)]) == lit {
		s.i += len(lit)
		return true
	}
	return false
}

// end accepts only white space after the value.
func (s *scanner) end() bool {
	s.space()
	return !s.bad && s.i == len(s.b)
}

// object reads an object whose keys are plain strings (no escapes),
// handing each key to field with the scanner before the key's value,
// which field must consume.
func (s *scanner) object(field func(key []byte) bool) bool {
	s.space()
	if !s.eatByte('{') {
		return false
	}
	s.space()
	if s.eatByte('}') {
		return true
	}
	for {
		s.space()
		start := s.i + 1
		if !s.str() {
			return false
		}
		key := s.b[start : s.i-1]
		for _, c := range key {
			if c == '\\' {
				return false
			}
		}
		s.space()
		if !s.eatByte(':') || !field(key) {
			return false
		}
		s.space()
		if s.eatByte('}') {
			return true
		}
		if !s.eatByte(',') {
			return false
		}
	}
}

// scalar reads a string, number, true, false or null and returns its
// text; anything else sets bad.
func (s *scanner) scalar() json.RawMessage {
	s.space()
	start := s.i
	ok := false
	if s.i < len(s.b) {
		switch c := s.b[s.i]; {
		case c == '"':
			ok = s.str()
		case c == '-' || c >= '0' && c <= '9':
			ok = s.number()
		default:
			ok = s.eat("null") || s.eat("true") || s.eat("false")
		}
	}
	if !ok {
		s.bad = true
		return nil
	}
	return s.b[start:s.i]
}

// str reads a string, checking its escapes; bytes from 0x80 up pass as
// they are, as encoding/json's validation lets them.
func (s *scanner) str() bool {
	if !s.eatByte('"') {
		return false
	}
	for s.i < len(s.b) {
		c := s.b[s.i]
		s.i++
		switch {
		case c == '"':
			return true
		case c < 0x20:
			return false
		case c == '\\':
			if s.i >= len(s.b) {
				return false
			}
			e := s.b[s.i]
			s.i++
			switch e {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if len(s.b)-s.i < 4 {
					return false
				}
				for _, h := range s.b[s.i : s.i+4] {
					if !isHex(h) {
						return false
					}
				}
				s.i += 4
			default:
				return false
			}
		}
	}
	return false
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// number reads a number as JSON writes one: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *scanner) number() bool {
	s.eatByte('-')
	switch {
	case s.eatByte('0'):
	case s.i < len(s.b) && s.b[s.i] >= '1' && s.b[s.i] <= '9':
		s.digits()
	default:
		return false
	}
	if s.eatByte('.') && !s.digits() {
		return false
	}
	if s.eatByte('e') || s.eatByte('E') {
		if !s.eatByte('+') {
			s.eatByte('-')
		}
		if !s.digits() {
			return false
		}
	}
	return true
}

// digits reads one digit or more.
func (s *scanner) digits() bool {
	start := s.i
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
	}
	return s.i > start
}
