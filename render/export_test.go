package render

// ForceDeferral makes s draw every frame with its styles deferred
// (deferred.go) as far as they can be, so the passes meet the oracle on
// frames too small to choose them.
func ForceDeferral(s *Screen) { s.dfr.force = true }

// RedrawFirst makes s finish the redraw of every unhinted frame before it
// prices a scroll against it, the order a screen that stops early must
// choose alike to.
func RedrawFirst(s *Screen) { s.redrawFirst = true }

// InlineRedrawFirst is RedrawFirst for an inline view.
func InlineRedrawFirst(v *Inline) { v.redrawFirst = true }
