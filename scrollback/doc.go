// Package scrollback is the transcript model behind quire's pager: the
// blocks a session shows, how they are laid out at the terminal's width,
// and the state a reader moves through them with. It does no I/O; the
// app owns one Transcript per session, feeds it the engine's events and
// draws what it returns.
//
// Blocks (prompts, answers, reasoning, tool calls, subagents, notices,
// errors) are kept in insertion order with O(1) lookup by a stable ID that
// is never reused in the process, not even after Clear. A prompt starts a
// turn; everything up to the next prompt belongs to it. Apply reduces one
// event.Event into the blocks, so the transcript is a pure function of the
// event log and the width, and a replay draws what the live run drew. (One
// thing a live session adds: SetNow moves the running time of a subagent
// still at work, which a replay shows as of each event.) A subagent is
// the block of its task call, showing the child's progress from the
// parent's SubagentUpdate events and then its report (subagent.go).
//
// Layout is lazy and incremental. Each block has a height at the current
// width, either exact (it was laid out) or a cheap estimate, and a
// LayoutCache keeps the prefix sums of those heights in a Fenwick tree:
// finding the blocks on screen is a binary search, a token streamed into
// the last block or a fold in the middle is an O(log n) patch, and a
// width change only marks every height as an estimate. A frame lays out
// just the blocks in and near the viewport plus those whose content
// changed, so its cost depends on the screen, not on the length of the
// transcript, and the first frame of a long resumed session lays out a
// screenful. The scroll position is a block ID plus a line offset, so
// measuring estimates above the viewport, prepending older history or
// folding elsewhere never moves what the reader is looking at.
//
// Text is laid out by BodyRenderers: the app plugs the markdown renderer
// in for answers, and the package's own Wrapper (grapheme-aware, word or
// character wrapping, incremental while streaming) lays out prompts,
// notices, reasoning and tool output. Frozen lines, those a renderer
// promises never to change, are what the inline view writes into the
// terminal's scrollback exactly once (TakeFinished), while the rest is
// redrawn in its live region (LiveLines).
//
// The pager keys follow less: line, half-page and page scrolling, top and
// bottom, follow mode that sticks to the bottom while a turn streams and
// is left by any upward scroll, h and l between turns, incremental / and ?
// search with smart case, regular expressions when the pattern is one,
// n and N, match counts and highlights, and a & filter that shows only
// matching blocks. The prompt of the turn on screen stays pinned at the
// top until the next prompt pushes it out (StickyGeometry). Copying gives
// a block's source, or a selection with wrapped prose joined back and
// code kept as it was.
package scrollback
