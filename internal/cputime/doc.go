// Package cputime reads the CPU time the process has used (user and
// system, every thread), which benchmarks report beside wall time: on a
// machine busy with other work it moves far less than the wall clock, so
// costs measured in it compare fairly between runs.
package cputime
