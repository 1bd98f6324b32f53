// Package storebench measures the session store (engine/store) on the
// workloads a user feels: appending a fast stream of text deltas, the
// latency of acknowledging prompts, the time to the first screen when
// resuming a 100,000-event session, and `quire sessions` over 1,000
// sessions. There is no peer to compare with, so every row is
// BenchmarkStore<Workload>/quire with absolute numbers reported through
// b.ReportMetric (events/s, acks/s, sessions/s).
package storebench
