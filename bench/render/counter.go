package renderbench

// Counter is an io.Writer that only counts what is written to it.
type Counter struct {
	Bytes  int64
	Writes int64
}

func (c *Counter) Write(p []byte) (int, error) {
	c.Bytes += int64(len(p))
	c.Writes++
	return len(p), nil
}

// Reset forgets everything counted so far.
func (c *Counter) Reset() { *c = Counter{} }
