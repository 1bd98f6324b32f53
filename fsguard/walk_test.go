package fsguard

// WithWalk returns a copy of w that resolves paths with the O_NOFOLLOW
// walk even where openat2 exists: the fallback older kernels get, so the
// tests check both.
func (w *Writer) WithWalk() *Writer {
	c := *w
	c.resolver = walkResolver{}
	return &c
}
