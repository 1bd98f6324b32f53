package queue

import "sync"

// keepCap is the largest ring an emptied queue keeps for reuse: a steady
// trickle then queues without allocating, and a long stall does not pin
// its peak for the queue's life.
const keepCap = 256

// Unbounded is a first-in, first-out queue safe for any number of
// producers and consumers. Push never blocks. Every Push (and Close)
// leaves a token on the wake channel unless one is already there, so a
// consumer that finds the queue empty and then receives from Wake misses
// nothing pushed after it looked. Tokens coalesce: one receive may stand
// for many pushes, and a token may find the queue already emptied.
type Unbounded[T any] struct {
	mu     sync.Mutex
	ring   []T // the n queued items start at head and wrap around
	head   int
	n      int
	closed bool
	held   bool // a consumer took an item with Hold and has not Released it
	wake   chan struct{}
}

// NewUnbounded returns an empty, open queue.
func NewUnbounded[T any]() *Unbounded[T] {
	return &Unbounded[T]{wake: make(chan struct{}, 1)}
}

// Push appends v.
func (q *Unbounded[T]) Push(v T) {
	q.mu.Lock()
	q.add(v)
	q.mu.Unlock()
	q.signal()
}

// PushOrGive hands v to give instead of queueing it when nothing is
// queued, no item taken with Hold is still on its way, and the queue is
// open; give must not block (a select with a default) and reports
// whether it took v. A consumer that keeps up is then fed by the
// producer directly, with no wake-up and hand-off per item, and order
// still holds: v can only overtake nothing. Otherwise v is offered to
// merge together with the newest queued item; when merge folds v into
// it and reports true, nothing is appended, else v is appended as Push
// does. give and merge run with the queue locked: they must not call the
// queue.
func (q *Unbounded[T]) PushOrGive(v T, merge func(last *T, v T) bool, give func(T) bool) {
	q.mu.Lock()
	if q.n == 0 && !q.held && !q.closed && give(v) {
		q.mu.Unlock()
		return
	}
	if q.n == 0 || !merge(&q.ring[(q.head+q.n-1)%len(q.ring)], v) {
		q.add(v)
	}
	q.mu.Unlock()
	q.signal()
}

// Hold is Pop for a consumer that passes the item on: until it calls
// Release, PushOrGive queues rather than give anything past it.
func (q *Unbounded[T]) Hold() (T, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	v, ok := q.popLocked()
	q.held = ok
	return v, ok
}

// Release says the item taken with Hold has been passed on.
func (q *Unbounded[T]) Release() {
	q.mu.Lock()
	q.held = false
	q.mu.Unlock()
}

// add appends v, growing the ring when it is full; q.mu is held.
func (q *Unbounded[T]) add(v T) {
	if q.n == len(q.ring) {
		grown := make([]T, max(2*len(q.ring), 8))
		k := copy(grown, q.ring[q.head:])
		copy(grown[k:], q.ring[:q.head])
		q.ring, q.head = grown, 0
	}
	q.ring[(q.head+q.n)%len(q.ring)] = v
	q.n++
}

// Pop takes the oldest item, reporting false when there is none.
func (q *Unbounded[T]) Pop() (T, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.popLocked()
}

// popLocked takes the oldest item; q.mu is held.
func (q *Unbounded[T]) popLocked() (T, bool) {
	var zero T
	if q.n == 0 {
		return zero, false
	}
	v := q.ring[q.head]
	q.ring[q.head] = zero // what the consumer took is not kept alive here
	q.head = (q.head + 1) % len(q.ring)
	q.n--
	if q.n == 0 {
		q.head = 0
		if len(q.ring) > keepCap {
			q.ring = nil
		}
	}
	return v, true
}

// Len is how many items are queued.
func (q *Unbounded[T]) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.n
}

// Wake is the channel a consumer waits on after finding the queue empty.
func (q *Unbounded[T]) Wake() <-chan struct{} { return q.wake }

// Close says nothing more will be pushed, and wakes the consumer so that
// it sees Drained once it has taken what is queued. Pushing after Close
// still queues; Close only changes what Drained reports.
func (q *Unbounded[T]) Close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.signal()
}

// Drained reports whether the queue is closed and empty, in one look: a
// consumer that sees false after Pop found nothing waits on Wake, and an
// item pushed just before Close is never lost between the two.
func (q *Unbounded[T]) Drained() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.closed && q.n == 0
}

func (q *Unbounded[T]) signal() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}
