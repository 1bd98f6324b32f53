// Package markdownbench puts quire's streaming markdown renderer beside
// glamour, the renderer a Go program would otherwise reach for, and beside
// its own one-shot render on answers built to be hard to stream.
//
// The workloads are streamed in 16-byte chunks at 80 columns:
//
//   - a deterministic assistant answer (markdown.GenerateAnswer: prose,
//     nested and task lists, code blocks in several languages, tables,
//     quotes) of 500, 5,000 and 50,000 lines (MarkdownAnswer/Stream<N>,
//     MarkdownAnswer/OneShot<N>);
//   - a stress answer of the same sizes (markdown.GenerateStressAnswer:
//     tables under a line of text, bracketed code like arr[i] and [Enter],
//     long tables and lists, long paragraphs, unclosed emphasis, references
//     defined at the end) (MarkdownStress/Stream<N>,
//     MarkdownStress/OneShot<N>);
//   - each document of the stress corpus (markdown.StressDocs(2000): a
//     table under a line of text, bracketed code, a 2,000-row table, a
//     2,000-item list, a list of 2,000 items nested in one item, a 100 KB
//     paragraph line, a paragraph of 2,000 short
//     lines, unclosed emphasis, runs of 50,000 '*', seven 12 KB paragraphs
//     of one construct repeated (link, image, label and autolink openers
//     that never close, "[a](b)" and "**a**" with no space between them, a
//     list of code spans), late references, a quoted paragraph of 2,000
//     lines, a 2,000-line HTML block, a quote of paragraphs and lists, a
//     quote of 2,000 lines most of which come without the marker (lazy
//     continuation), a 2,000-line indented code block)
//     (MarkdownStressDoc/Stream/<doc>, MarkdownStressDoc/OneShot/<doc>).
//
// What each benchmark measures:
//
//   - …Stream…/quire: one op streams the whole text through a
//     markdown.Stream (Append and Lines per chunk, then Finish); ns/chunk
//     is the mean cost of one chunk. p99-cpu-ns/chunk is the 99th
//     percentile of one chunk's CPU time on the streaming thread
//     (p99-ns/chunk the same in wall time), read from one more, untimed
//     stream of the same chunks, so the clock reads around every chunk do
//     not weigh on the totals. A Stream renders lazily, so asking for the
//     lines after every chunk is its worst case.
//   - MarkdownAnswer/Stream<N>/glamour (up to 5,000 lines): what a Go
//     program does without a streaming renderer: re-render the whole text
//     so far on every chunk. That is O(N²) and takes far too long to run in full at
//     5,000 lines, so each op renders an evenly spaced sample of the
//     prefixes the stream would show, the mean cost of one sampled render
//     is reported as ns/chunk, and ns/op is extrapolated to every chunk
//     (mean × chunks). Render cost grows with the prefix, so evenly spaced
//     samples average to the mean over all chunks.
//   - …OneShot…: render the finished text once.
//
// Each workload's stream and one-shot run back to back, size after size
// (glamour after all of quire's), so that the timings a ratio divides
// are taken under the same load.
//
// Besides wall time (ns/op), every benchmark reports cpu-ns/op, the
// process CPU time per op, which a busy machine disturbs less.
//
// Every quire stream checks its output after Finish against a one-shot
// render of the same text once per benchmark and reports oracle-bad: 0
// when they are equal, 1 when not.
package markdownbench
