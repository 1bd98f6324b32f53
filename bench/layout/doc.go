// Package layout benchmarks the cost of a pager frame over transcripts of
// very different lengths: laying out the viewport, producing its lines,
// painting them and diffing the result against the previous frame. The
// claim under test is that a frame costs the same over 100 blocks as over
// 100,000, while streaming at the bottom and while scrolling through the
// middle, and that the first frame of a long resumed transcript measures
// only what it shows.
//
// Benchmarks are named Benchmark<Workload>/<blocks> for the table tool,
// and report custom metrics with b.ReportMetric: bytes/frame written to
// the terminal, cpu-ns/op (process CPU time per frame, which a busy
// machine distorts far less than ns/op), relayouts/frame and rebuilds
// (the layout work itself, independent of the machine), measured-blocks
// for first frames and heap-bytes for whole transcripts.
package layout
