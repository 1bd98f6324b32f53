package e2e

// PeerPrograms are the other agent UIs, as far as they are installed.
func PeerPrograms(dir string) []Program { return nil }
