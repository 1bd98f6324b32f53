// Command benchtable runs one benchmark suite (the package bench/<suite>,
// or the one the suite names, such as engine/llm for the SSE reader whose
// benchmarks sit beside the unexported code) and prints its results as a
// plain-text table: rows are workloads, columns are the implementations
// (or parameters) named by the last element of each benchmark's name,
// followed by ratios of quire to each peer (or the columns the suite
// names), a geometric mean where the suite asks for one, the VT oracle's
// findings, and each of the suite's targets judged PASS or FAIL.
//
//	benchtable -suite render -benchtime 1s
//	benchtable -suite render -in saved.txt   # format saved go test output
//
// The suites and their targets are the table in suites.go.
package main
