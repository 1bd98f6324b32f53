package ring

import "unicode/utf8"

// Tail holds the last Cap bytes written to it. The zero value holds
// nothing; use NewTail.
type Tail struct {
	buf   []byte // grows to capacity, then wraps
	start int    // the oldest byte once buf is full
}

// NewTail returns a tail that keeps the last n bytes.
func NewTail(n int) *Tail { return &Tail{buf: make([]byte, 0, n)} }

// Write keeps the end of p; it never fails.
func (t *Tail) Write(p []byte) (int, error) {
	add(t, p)
	return len(p), nil
}

// WriteString is Write for a string, without converting it.
func (t *Tail) WriteString(s string) (int, error) {
	add(t, s)
	return len(s), nil
}

func add[T string | []byte](t *Tail, p T) {
	c := cap(t.buf)
	if c == 0 {
		return
	}
	if len(p) >= c {
		t.buf = append(t.buf[:0], p[len(p)-c:]...)
		t.start = 0
		return
	}
	for len(p) > 0 {
		if len(t.buf) < c {
			k := min(c-len(t.buf), len(p))
			t.buf = append(t.buf, p[:k]...)
			p = p[k:]
			continue
		}
		k := copy(t.buf[t.start:], p)
		p = p[k:]
		t.start = (t.start + k) % c
	}
}

// Len is how many bytes are kept.
func (t *Tail) Len() int { return len(t.buf) }

// Bytes is a copy of the kept bytes, oldest first.
func (t *Tail) Bytes() []byte {
	return append(append(make([]byte, 0, len(t.buf)), t.buf[t.start:]...), t.buf[:t.start]...)
}

// Text is Bytes starting at a character: the bytes of a character the
// ring cut in two are dropped from its front.
func (t *Tail) Text() []byte {
	b := t.Bytes()
	for len(b) > 0 && !utf8.RuneStart(b[0]) {
		b = b[1:]
	}
	return b
}
