// Package renderbench puts quire's renderer beside two peer renderers, tcell
// v2 and ultraviolet, on the same logical frames, and checks every
// implementation's output with a headless VT emulator.
//
// A workload is a loop of logical frames: grids of cells (grapheme, width,
// style, link) plus the hints an application knows for free (rows scrolled,
// finished lines inserted into history). Each implementation gets the frames
// in its own native form, converted before timing starts, so a benchmark
// times only what the renderer does per frame: updating its back buffer,
// diffing, encoding and writing. Output goes to a byte counter; the same
// frames fed to a fresh instance writing into a vt.Emulator tell whether
// the bytes draw the frame that was meant. The benchmarks live in this
// package's tests; bench/cmd/benchtable turns their output into a table.
package renderbench
