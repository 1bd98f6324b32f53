// Package markdownbench puts quire's streaming markdown renderer beside
// glamour, the renderer a Go program would otherwise reach for.
//
// The workload is a deterministic assistant answer (markdown.GenerateAnswer:
// prose, nested and task lists, code blocks in several languages, tables,
// quotes) of 500 and 5,000 lines, streamed in 16-byte chunks at 80
// columns:
//
//   - BenchmarkMarkdownStream<N>/quire: one op streams the whole answer
//     through a markdown.Stream (Append and Lines per chunk, then Finish);
//     ns/chunk is the mean cost of one chunk. A Stream renders lazily, so
//     asking for the lines after every chunk is its worst case.
//   - BenchmarkMarkdownStream<N>/glamour: what a Go program does without a
//     streaming renderer: re-render the whole text so far on every chunk.
//     That is O(N²) and takes far too long to run in full at 5,000 lines,
//     so each op renders an evenly spaced sample of the prefixes the
//     stream would show, the mean cost of one sampled render is reported as
//     ns/chunk, and ns/op is extrapolated to every chunk (mean × chunks).
//     Render cost grows with the prefix, so evenly spaced samples average
//     to the mean over all chunks.
//   - BenchmarkMarkdownOneShot<N>/quire and /glamour render the finished
//     answer once.
//
// Besides wall time (ns/op), every benchmark reports cpu-ns/op, the
// process CPU time per op, which a busy machine disturbs less.
//
// The quire stream checks its own output against a one-shot render of the
// same text once per benchmark and reports oracle-bad 1 if they differ.
package markdownbench
