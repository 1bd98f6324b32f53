package scrollback

// Action is a pager command, what a key means once the app has decided
// the key is for the transcript (not a modal or the prompt editor).
type Action uint8

const (
	ActLineDown Action = iota + 1
	ActLineUp
	ActHalfPageDown
	ActHalfPageUp
	ActPageDown
	ActPageUp
	ActTop    // or, with a count, go to line count
	ActBottom // and follow
	ActFollow
	ActPrevTurn
	ActNextTurn
	ActSearchNext
	ActSearchPrev
	ActFocusNext
	ActFocusPrev
	ActUnfocus
	ActToggleCollapse
	ActCollapseAll
	ActExpandAll
	ActPercent // with a count, go to that percent of the transcript
)

// LessKey is the default binding, in less's muscle memory where less has
// the command. Keys are named the way the app's input layer names them:
// a printable key by its character, others by lower-case names with
// "ctrl+" and "shift+" prefixes. / ? & and digits (counts) open prompts
// or accumulate, and m and ' take a letter (SetMark, GotoMark): those are
// the app's to handle.
func LessKey(key string) (Action, bool) {
	switch key {
	case "j", "down", "enter", "ctrl+n", "e":
		return ActLineDown, true
	case "k", "up", "y", "ctrl+p":
		return ActLineUp, true
	case "d", "ctrl+d":
		return ActHalfPageDown, true
	case "u", "ctrl+u":
		return ActHalfPageUp, true
	case "space", "f", "pgdown", "ctrl+f":
		return ActPageDown, true
	case "b", "pgup", "ctrl+b":
		return ActPageUp, true
	case "g", "<", "home":
		return ActTop, true
	case "G", ">", "end":
		return ActBottom, true
	case "F":
		return ActFollow, true
	case "h":
		return ActPrevTurn, true
	case "l":
		return ActNextTurn, true
	case "n":
		return ActSearchNext, true
	case "N":
		return ActSearchPrev, true
	case "tab":
		return ActFocusNext, true
	case "shift+tab":
		return ActFocusPrev, true
	case "esc":
		return ActUnfocus, true
	case "o":
		return ActToggleCollapse, true
	case "O":
		return ActCollapseAll, true
	case "E":
		return ActExpandAll, true
	case "p", "%":
		return ActPercent, true
	}
	return 0, false
}

// Do performs a pager action count times (count <= 0 means once). For
// ActTop a count is a line number, like less's <n>g. It reports whether
// the action could do anything.
func (t *Transcript) Do(a Action, count int) bool {
	n := max(count, 1)
	switch a {
	case ActLineDown:
		t.ScrollLines(n)
	case ActLineUp:
		t.ScrollLines(-n)
	case ActHalfPageDown:
		t.ScrollHalfPages(n)
	case ActHalfPageUp:
		t.ScrollHalfPages(-n)
	case ActPageDown:
		t.ScrollPages(n)
	case ActPageUp:
		t.ScrollPages(-n)
	case ActTop:
		if count > 0 {
			t.GotoLine(count)
		} else {
			t.ScrollTop()
		}
	case ActBottom, ActFollow:
		t.ScrollBottom()
	case ActPrevTurn, ActNextTurn:
		ok := false
		for range n {
			if a == ActPrevTurn {
				ok = t.PrevTurn() || ok
			} else {
				ok = t.NextTurn() || ok
			}
		}
		return ok
	case ActSearchNext, ActSearchPrev:
		ok := false
		for range n {
			ok = t.SearchNext(a == ActSearchPrev) || ok
		}
		return ok
	case ActFocusNext:
		return t.FocusNext(n)
	case ActFocusPrev:
		return t.FocusNext(-n)
	case ActUnfocus:
		had := t.Focused() != 0
		t.Unfocus()
		return had
	case ActToggleCollapse:
		t.ToggleCollapse()
	case ActCollapseAll:
		t.CollapseAll(true)
	case ActExpandAll:
		t.CollapseAll(false)
	case ActPercent:
		t.GotoPercent(max(count, 0))
	default:
		return false
	}
	return true
}
