package markdown

// openBlock continues the layout of the tail's last top-level block as
// text arrives, without parsing and laying out the whole block again.
type openBlock interface {
	// extend brings the stream's lines up to src[:shown], which extends
	// the text the block last saw. It reports false, having changed
	// nothing, when the new text goes beyond what it can follow (the
	// block ended or turned into another kind); the stream then lays the
	// whole tail out.
	extend(s *Stream, shown int) bool
}

// newOpenBlock returns the continuation for the block a full tail render
// left open, or nil when the tail is better laid out whole each time.
func newOpenBlock(s *Stream, res tailResult) openBlock {
	return nil
}
