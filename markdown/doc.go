// Package markdown lays out markdown as styled terminal lines
// ([render.Line]) and does it incrementally while an answer streams in.
//
// # One-shot rendering
//
// [Render] parses CommonMark plus the GitHub extensions (tables,
// strikethrough, task lists, bare-URL autolinks) with goldmark and lays the
// document out at a width: headings, word-wrapped paragraphs (Unicode line
// breaking, display widths as the renderer measures them, URLs never split
// unless wider than a line), emphasis, inline code, OSC 8 links (images are
// labelled links; code spans naming files under Options.Cwd become file://
// links), quotes with a bar, nested and task lists with hanging indents,
// code highlighted by chroma with long lines wrapped behind a continuation
// mark, tables aligned by display width (shown as "header: value" records
// when too wide), thematic breaks, HTML and math shown as text, and
// mermaid flowcharts, state diagrams and sequence diagrams drawn with
// box-drawing characters, and pie charts as bars, once their block is
// whole (other diagram kinds, and charts
// that cannot be drawn whole in the width, stay code).
//
// Colours are full-fidelity RGB from the [Theme] ([DarkTheme] by default,
// [LightTheme]); the renderer degrades them to the terminal at its output
// edge. Every element that carries meaning also carries an attribute or a
// glyph (bold headings, reverse-video inline code, underlined links, quote
// and code bars), so the text reads the same when colour is off.
//
// Every line also says how it reads when copied from the screen
// ([render.Copy]): wrapped prose, list items and quotes join back into
// the lines they were cut from, a quote's bar copies as "> ", and a code
// block copies without its frame and continuation marks, between the
// fences it came in, and a table as a markdown table.
//
// Text is untrusted: control characters and escape sequences become
// visible glyphs (render.Sanitize), link targets lose their control
// characters, nesting deeper than a cap is flattened to text, and every
// layout step is linear in its input.
//
// # Streaming
//
// A [Stream] takes chunks with Append. At every moment
//
//	Lines() == Render(ShownPrefix(Source()))
//
// and after Finish, Lines() == Render(Source()). [ShownPrefix] holds back
// ambiguous suffixes (trailing backticks, tildes or backslashes; a table
// header whose delimiter row has not arrived; the unfinished last line of
// an open code fence or of a table) until the next chunk decides them. A
// chunk that only extends a held-back line costs nothing.
//
// Rendering is lazy: the first Lines or Frozen after some Appends
// re-renders only the tail after the last checkpoint. The first Frozen()
// lines are final: no later text changes them, so a caller
// can move them to scrollback. A checkpoint sits after a top-level block
// once the text proves the block is over:
//
//   - a complete line that starts another top-level block closes every
//     block before it (except that a table or paragraph carved out of the
//     same paragraph by goldmark is no such proof);
//   - otherwise a complete blank line after a paragraph, heading, table,
//     quote, thematic break or HTML block (an HTML block of kinds 1–5 only
//     once its end marker came); lists and indented code continue across
//     blank lines, so only the first kind of proof ends them;
//   - a fenced block is also over at its complete closing line;
//   - inside a long top-level code fence, every complete line is final
//     once the language is decided: highlighting runs line by line with
//     the lexer state carried from line to line (see lexer.go), so the
//     stream keeps the state at the last frozen line and never
//     re-tokenises the fence. Render highlights the same way, which is
//     what keeps the two equal.
//
// Blocks nested in lists and quotes never freeze on their own: the
// top-level container freezes as a whole.
//
// Link reference definitions can change text before them ("[x]" becomes a
// link when "[x]: url" arrives later). The parser records which labels
// each top-level block looked up; a checkpoint never passes a block that
// looked up a label whose first definition is not itself behind the
// checkpoint. Definitions behind a checkpoint are carried into every later
// tail parse (the first definition wins, as in CommonMark). The price: an
// unresolved "[label]" in prose pins the checkpoint before its block
// until a definition arrives, and the tail grows from there.
//
// # Limits
//
// Freezing is conservative, so some text keeps a long tail and costs each
// chunk time proportional to it: a list or quote that never ends, a code
// fence nested in a list, an unresolved "[label]" (see above), an
// unclosed HTML comment. File links reflect the file system when their
// line was laid out. A highlighting regexp that runs past its time limit
// shows that line plain, so on hostile code under extreme load a frozen
// line could differ from a later one-shot render.
//
// A setext underline or lazy continuation line can only change the block
// it follows, which is never frozen without a blank line or a new block
// after it. The equivalence is tested at every byte boundary of a corpus
// (testdata/corpus), at random chunkings of large documents, and by
// FuzzStream.
package markdown
