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
	ok := s.fields([]string{"choices", "usage", "error", "id", "object", "created", "model", "system_fingerprint", "service_tier"}, func(key string) bool {
		switch key {
		case "choices":
			return s.choices(c)
		case "usage":
			c.Usage = s.scalar()
		case "error":
			c.Error = s.scalar()
		default:
			_ = s.scalar()
		}
		return true
	})
	return ok && s.end()
}

// fields reads an object whose keys are all among keys and none is given
// twice (encoding/json merges a repeated key its own way), handing read
// each key, as spelled in keys, with the scanner at its value.
func (s *scanner) fields(keys []string, read func(key string) bool) bool {
	var seen uint
	return s.object(func(key []byte) bool {
		for i, name := range keys {
			if string(key) != name {
				continue
			}
			if seen&(1<<i) != 0 {
				return false
			}
			seen |= 1 << i
			return read(name) && !s.bad
		}
		return false
	})
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
	return s.fields([]string{"delta", "finish_reason", "index", "logprobs"}, func(key string) bool {
		switch key {
		case "delta":
			return s.delta(&ch.Delta)
		case "finish_reason":
			ch.FinishReason = s.scalar()
		default:
			_ = s.scalar()
		}
		return true
	})
}

func (s *scanner) delta(m *message) bool {
	s.space()
	if s.eat("null") {
		return true
	}
	return s.fields([]string{"content", "reasoning_content", "reasoning", "refusal", "role"}, func(key string) bool {
		switch key {
		case "content":
			m.Content = s.scalar()
		case "reasoning_content":
			m.ReasoningContent = s.scalar()
		case "reasoning":
			m.Reasoning = s.scalar()
		case "refusal":
			m.Refusal = s.scalar()
		default:
			_ = s.scalar()
		}
		return true
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
