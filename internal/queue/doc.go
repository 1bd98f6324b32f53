// Package queue holds the one unbounded queue with a wake channel that
// quire's producers and consumers meet in: the engine's outbox (events
// to a consumer that may be slow) and mailbox (commands to the session
// actor), and the terminal's frame queue (frames to the writer
// goroutine, which adds a limit and a write budget of its own). A
// producer never blocks on it; a consumer takes items in the order they
// were pushed and, when it finds none, waits on the wake channel in a
// select beside whatever else it waits for.
package queue
