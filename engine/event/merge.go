package event

// Mergeable reports whether b continues a's stream of text, so that the
// two may be delivered or stored as one event holding a's text then b's,
// with b's Seq and Time: consecutive assistant or reasoning fragments of
// one turn, or consecutive output fragments of one call. Whoever merges
// keeps every byte in order; only the Seqs in between are skipped, which
// the log allows (Seq increases strictly but may skip).
func Mergeable(a, b Event) bool {
	if a.Kind != b.Kind || a.Turn != b.Turn {
		return false
	}
	switch a.Kind {
	case AssistantDelta, ReasoningDelta:
		return true
	case ToolOutputDelta:
		return a.CallID == b.CallID
	}
	return false
}
