package render

// ForceDeferral makes s draw every frame with its styles deferred
// (deferred.go) as far as they can be, so the passes meet the oracle on
// frames too small to choose them.
func ForceDeferral(s *Screen) { s.dfr.force = true }
