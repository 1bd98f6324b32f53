// Package bench holds quire's side-by-side benchmarks, one suite per
// folder, each a package of Benchmark functions that `go test -bench`
// runs and bench/cmd/benchtable turns into a table:
//
//   - render: quire's renderer beside tcell v2 and ultraviolet on the same
//     logical frames (bytes, ns and allocations per frame), every
//     implementation's output checked by a headless VT emulator;
//   - markdown: streaming markdown rendering beside glamour;
//   - layout: the cost of a pager frame over 100 and 100,000 transcript
//     blocks;
//   - store: the session store's append, acknowledge, resume and listing
//     rates;
//   - app: whole-frame costs of the application;
//   - e2e: the real binary in a pseudo-terminal against the scripted
//     model, beside the peer agent UIs that are installed.
//
// Benchmarks are named Benchmark<Workload>/<params...>/<last>, where the
// last element is the implementation (quire, tcell, uv, glamour) or, in a
// suite without peers, a size. README.md explains the workloads, the
// harness rules and how to reproduce the numbers (`make bench`).
package bench
