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
// Text is untrusted: control characters, escape sequences and
// bidirectional overrides become visible glyphs (render.Sanitize), link
// targets lose their control characters, nesting deeper than a cap is
// flattened to text, and inputs that goldmark cannot parse in linear time
// are bounded (see Limits).
//
// # Streaming
//
// A [Stream] takes chunks with Append. After Finish,
//
//	Lines() == Render(Source())
//
// exactly, however the text was chunked. Before Finish, a frame (Lines
// after some Appends) is Render(ShownPrefix(Source())) except where the
// freezing rule below says it may differ. Rendering is lazy: chunks that
// arrive between two frames cost one layout.
//
// [ShownPrefix] holds back an ambiguous end of the text until the next
// chunk decides it: trailing backticks, tildes or backslashes; an
// unfinished last line that is a marker run (a rule or heading underline
// in the making, "- ", "*"); an unfinished last word that starts with a
// markup character (a link, code span or emphasis appears whole); a table
// header whose delimiter row has not arrived; the unfinished last line of
// an open code fence, of an open top-level indented code block (unless it
// is the block's first line or blank), or the unfinished last row of a table. A
// chunk that only extends a held-back line costs nothing.
//
// # Freezing
//
// The first Frozen() lines are final: a caller can commit them to
// scrollback. A checkpoint sits after a top-level block once the text
// proves the block over:
//
//   - a complete line that starts another top-level block closes every
//     block before it;
//   - a complete blank line closes a paragraph, heading, table, quote,
//     rule or HTML block (an HTML block of kinds 1–5 only once its end
//     marker came);
//   - a list or indented code block continues across blank lines; after
//     one, it is over when the next line starts with a character that
//     cannot continue it: not indented, and not (the start of) an item of
//     the same list ("- " for a "-" list, digits and the list's delimiter
//     for an ordered one);
//   - a fenced block is over at its complete closing line, and inside an
//     open top-level fence every complete line is final once the language
//     is decided: highlighting runs line by line with the lexer state
//     carried from line to line (see lexer.go), so the stream keeps the
//     state at the last frozen line and never re-tokenises the fence;
//   - likewise inside an open top-level indented code block, whose
//     language is guessed (from its first 30 lines, as Render guesses
//     it): every complete line up to the last one that is not blank is
//     final once 30 lines are in (blank lines after it wait for the next
//     line of code, or are dropped with the block's end). The rest of the
//     block is parsed behind a code line of its own, which the layout
//     leaves out, so its blank lines, indentation and tabs read as in the
//     whole text; lines of code that follow frozen ones with nothing
//     between are laid out without parsing (see open_code.go);
//   - parts that goldmark splits out of one paragraph (lines of text above
//     a table, link reference definitions and the text after them) freeze
//     together, when the last part is over: a setext underline could still
//     turn them all into a heading.
//
// Blocks nested in lists and quotes never freeze on their own: the
// top-level container freezes as a whole.
//
// Link labels are frozen speculatively. A block that looks up a label
// ("[x]", also code like a[i] and [Enter]) that the text defines nowhere
// freezes as though it never will be. If a definition of the label then
// arrives and freezes, every frozen stretch that looked the label up is
// laid out again: its lines in Lines() change and [Stream.Revisions]
// reports which, so that a caller that already printed them can move its
// index by the revision. (quire's inline view does: the terminal keeps
// the lines it printed in their old form, and it goes on after the
// revised stretch, so no line is repeated or skipped; the full-screen
// view, which redraws, shows the new form.)
// Revisions lay out again at most as many bytes as
// the text holds plus 64 KiB before Finish; past that they wait for
// Finish. A block whose label is defined in the text but not yet frozen
// waits (does not freeze) until the definition freezes, which it does as
// soon as the definition's paragraph ends.
//
// # Open blocks
//
// The block that is still open at the end of the text is continued, not
// laid out again, so a chunk costs time proportional to the chunk:
//
//   - a table: new rows are parsed behind the header and delimiter lines
//     alone, and drawn in the columns' widths. When a row widens a column
//     the whole table is laid out again, but, past 64 rows, at most once
//     per doubling of its rows (so O(log n) times); until then new rows
//     are drawn in the old widths, a cell that does not fit wrapping inside
//     its column;
//   - a list: the open item is parsed from its marker line on (goldmark
//     decides what an item holds from that item's own lines); items
//     followed by an item whose marker line has content are laid out for
//     good. A list that turns loose, or whose ordered markers widen (at 10,
//     100, 1,000 items), is laid out again whole. The open item of a
//     tight list, when it is the only open one and its marker line is
//     complete with content after one to four spaces (not a tab, not
//     "["), streams as a quote does (below): the content of its lines,
//     without the indentation up to its content column, goes into a
//     Stream of its own, laid out at the item's inner width with its
//     blocks joined as a tight item's are, whose lines are drawn behind
//     the item's marker and indent (see open_item.go). A line indented
//     less (a new item, a lazy continuation line, the list's end), a
//     blank line in the item (it could make the list loose), or a tab
//     where it may decide the content's blocks hands the item back to
//     being parsed whole from its marker line on;
//   - a quote: the content of its lines, without their markers, streams
//     into a Stream of its own, laid out at the quote's inner width,
//     whose lines are drawn behind the bar; lines that stream froze, or
//     that its own open block keeps, are drawn once (see open_quote.go).
//     When a blank line ends the quote, that stream is finished and the
//     quote freezes as it laid the content out, which is Render's: a
//     paragraph it followed freezes as it stands, any other block it
//     left open is laid out whole once;
//   - an HTML block: each complete line is laid out once, as the text it
//     is (see open_html.go); when a complete blank line ends a block of
//     the kinds that end there, it freezes as it was laid out, which is
//     Render's;
//   - a paragraph (and a list item that is one paragraph): its inlines are
//     placed in a flow that keeps every line it wrapped (see open_para.go).
//     Text before the last cut point (after a space or line break, before
//     a plain character or a closed construct such as a code span, link or
//     emphasis, with no code span, link bracket, raw HTML or emphasis
//     opener left open before it) stays in the flow; only the window after
//     it is parsed again, plain text is not parsed at all, and neither is
//     text that arrives after a parsed window and cannot change it (no
//     character that opens, closes or escapes a construct, no line
//     break, no autolink or entity completed with the word before it),
//     which is laid out behind the window's pieces. A window of
//     text, code spans, emphasis and brackets that make no link is
//     parsed without goldmark, into the tree goldmark makes of it, with
//     the same labels looked up (see quick_inline.go). A paragraph
//     (or list item) that starts with "[" is continued so once its text
//     rules out a link reference definition ("[a](", "[Enter] to"), and a
//     list item that starts with a task's box once the flow has taken the
//     box in (a cut point after it); a paragraph over the
//     inline budget (see Limits) is continued as plain text, exactly,
//     taking in only each chunk's text (see open_plain.go).
//
// A table or list that ends is laid out whole once, as Render does, and
// frozen; a paragraph the stream followed exactly, and a quote (see
// above), freeze as they stand.
//
// So a frame may differ from Render(ShownPrefix(Source())) in these ways,
// and only these, and each lasts at most until the block concerned ends
// (or, for the first, until Finish):
//
//  1. a frozen block shows a label as text while the label's definition
//     is in the text but not yet frozen, or, past the revision budget,
//     until Finish;
//  2. an open table of more than 64 rows shows rows in column widths a
//     later row has widened, until its rows double or it ends;
//  3. an open paragraph whose window (the text since its last cut point)
//     grew past 256 bytes (64 once that happened in the paragraph) with an
//     opener (emphasis, a link, a code span, raw HTML) left unclosed is
//     cut anyway, at the window's last word start or, inside a word of
//     literal text, before its last '<', '[' or "![" that follows a
//     character showing as itself (or a '['): the openers before that
//     point show as text even if they are closed after all. A word (text
//     without white space) longer than 256 bytes shows as its own text,
//     markup and all, not parsed (a long URL loses its link,
//     "[a](b)[c](d)" shows its brackets), laying out those of its lines
//     that are full. Lines it wrapped stay wrapped as they were;
//  4. an open top-level quote, or an open list item streamed as its
//     content, holds back the unfinished end of its last line by the
//     rules ShownPrefix applies to a document's last line (an unfinished
//     line of code in a fence in it, or of a table row, a run of marker
//     characters, an ordered marker), which the quote's marker or the
//     item's indentation hides from ShownPrefix.
//
// A frame never shows text that has not arrived, never shows text out of
// order, and never changes a frozen line except by a revision.
//
// # Limits
//
// goldmark's inline parser takes more than linear time on some input (80
// KB of "[a](" takes seconds), so a paragraph longer than 16 KiB, or with
// a line longer than 8 KiB (which also bounds a table row), is shown as
// the text it is, markup and all. The budgets count content bytes, the
// same in Render and in a Stream: each of the paragraph's lines from
// where its content starts in the blocks it is in (after the markers of
// the quotes and list items it is in, and the indentation those take) to
// its end, line break included; a top-level paragraph's content is its
// lines. So a paragraph measures the same in a quote as on its own. A stream parses an open paragraph's
// window again on each chunk, so it keeps the window short: a word (text
// without white space) is not parsed once it is longer than 256 bytes
// (see the differences above), and a paragraph is parsed whole again only
// when it ends after a frame differed.
//
// Container markers are capped: past 64 on one line, or at column 128 or
// beyond, a marker opens no container (it shows as ␀ where the nesting
// was cut).
//
// Some open blocks are still laid out whole on every chunk: indented
// code while its language is undecided (its first 30 lines) or when its
// highlighter cannot lex line by line (as for a fence), a quote while a
// line of it has a tab where the tab may decide its blocks, and a list's
// open item with everything nested in it when the item is not streamed
// as its content (see Open blocks): an item of a loose list, an item
// holding a blank line (a loose list nested in it, say) or a tab in its
// indentation or where the tab may decide its blocks, an item whose
// marker line is unfinished or has no content, and the open item of a
// list one of whose complete items looked up a label the text does not
// define yet. Such an item costs each chunk time proportional to the
// item. A code fence nested in a list is highlighted
// whole each time. File links reflect the file system when the stream
// first laid out their code span: a path is checked once per stream.
//
// A code line whose highlighting needs more than 100 ms of CPU time (a
// pattern that backtracks without end) is shown plain. The limit is on
// the CPU time of the highlighting thread, which other processes do not
// consume, so a line is coloured the same on a busy machine as on an idle
// one (where that clock cannot be read, wall-clock time stands in). The
// CPU time of the same work still varies somewhat with cache and core
// contention, so a line whose patterns need close to the limit could tip
// either way; ordinary code needs microseconds.
//
// A setext underline or lazy continuation line can only change the block
// it follows, which is never frozen without a blank line or a new block
// after it. The equivalence is tested at every byte boundary of a corpus
// (testdata/corpus), split once at every byte boundary, at random
// chunkings of large documents and of the stress corpus ([StressDocs]),
// and by FuzzStream (with variants after a paragraph over the inline
// budget, after frozen indented code and inside a list item followed as
// its content).
package markdown
