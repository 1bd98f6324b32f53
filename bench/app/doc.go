// Package app benchmarks the interactive loop as a user feels it: the
// time from a key arriving to the frame that shows it while the model
// streams 2,000 tokens per second, and the bytes written to the terminal
// per streamed token, full-screen and inline.
package app
