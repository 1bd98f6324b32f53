package provider

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/quire-sh/quire/engine/llm"
)

// ReasoningNotice says what reasoning state of a history is not sent to
// this provider's model — written by another protocol, or by another
// model — so a switch drops it visibly; "" when nothing is dropped.
// states holds each assistant message's reasoning state, in order.
func (r Resolved) ReasoningNotice(states [][]llm.ReasoningState) string {
	type source struct{ protocol, model string }
	dropped := map[source]int{}
	for _, state := range states {
		seen := map[source]bool{}
		for _, st := range state {
			if r.Keeps(st) {
				continue
			}
			var d struct {
				Model string `json:"model"`
			}
			_ = json.Unmarshal(st.Data, &d)
			src := source{st.Protocol, d.Model}
			if !seen[src] {
				seen[src] = true
				dropped[src]++
			}
		}
	}
	if len(dropped) == 0 {
		return ""
	}
	var parts []string
	for src, n := range dropped {
		from := src.protocol
		if src.model != "" {
			from += " " + src.model
		}
		answers := "answer"
		if n > 1 {
			answers = "answers"
		}
		parts = append(parts, fmt.Sprintf("%d earlier %s %s", n, from, answers))
	}
	sort.Strings(parts)
	return fmt.Sprintf("reasoning of %s is not sent to %s: it cannot read it", strings.Join(parts, " and "), r.Label())
}
