package engine

// estimateTokens is the token estimate used wherever the API has not
// reported usage: bytes/4, with no tokenizer. It underestimates CJK text
// two- to three-fold; the compaction margin and the overflow retry cover
// that.
func estimateTokens(s string) int { return len(s) / 4 }

// messageBytes is what a message contributes to the estimate.
func messageBytes(m Message) int {
	n := len(m.Content)
	for _, c := range m.Calls {
		n += len(c.Name) + len(c.Arguments) + len(c.ID)
	}
	return n
}

func historyBytes(msgs []Message) int {
	n := 0
	for _, m := range msgs {
		n += messageBytes(m)
	}
	return n
}
