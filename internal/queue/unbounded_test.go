package queue

import (
	"sync"
	"testing"
)

// Items come out in the order they went in, across the ring's wrap and
// its growth, and an emptied queue takes up where it left off.
func TestOrderAcrossWrapAndGrowth(t *testing.T) {
	q := NewUnbounded[int]()
	next, want := 0, 0
	// Keep a few queued while pushing many, so the ring wraps before it
	// grows; then drain, and start again on the emptied queue.
	for round := 0; round < 3; round++ {
		for i := 0; i < 1000; i++ {
			q.Push(next)
			next++
			if i%3 == 0 {
				v, ok := q.Pop()
				if !ok || v != want {
					t.Fatalf("round %d: Pop = %d, %v; want %d", round, v, ok, want)
				}
				want++
			}
		}
		if q.Len() != next-want {
			t.Fatalf("Len %d, want %d", q.Len(), next-want)
		}
		for {
			v, ok := q.Pop()
			if !ok {
				break
			}
			if v != want {
				t.Fatalf("round %d: Pop = %d, want %d", round, v, want)
			}
			want++
		}
		if want != next {
			t.Fatalf("round %d: took %d of %d", round, want, next)
		}
	}
}

// A stall's peak is not kept once the queue empties; a trickle's ring is.
func TestEmptiedQueueKeepsOnlyASmallRing(t *testing.T) {
	q := NewUnbounded[int]()
	for i := 0; i < 10*keepCap; i++ {
		q.Push(i)
	}
	for range 10 * keepCap {
		q.Pop()
	}
	if q.ring != nil {
		t.Errorf("an emptied queue keeps a ring of %d", len(q.ring))
	}
	q.Push(1)
	q.Pop()
	if q.ring == nil {
		t.Error("an emptied small ring is dropped")
	}
	if n := testing.AllocsPerRun(100, func() { q.Push(1); q.Pop() }); n != 0 {
		t.Errorf("a push and a pop on a warm queue allocate %v times", n)
	}
}

// Every push leaves a token, tokens coalesce, and a consumer that found
// the queue empty is woken by the next push.
func TestWake(t *testing.T) {
	q := NewUnbounded[string]()
	select {
	case <-q.Wake():
		t.Fatal("a new queue wakes its consumer")
	default:
	}
	q.Push("a")
	q.Push("b")
	<-q.Wake()
	select {
	case <-q.Wake():
		t.Fatal("two pushes left two tokens")
	default:
	}
	q.Pop()
	q.Pop()
	if _, ok := q.Pop(); ok {
		t.Fatal("Pop on an empty queue")
	}
	done := make(chan string)
	go func() {
		for {
			if v, ok := q.Pop(); ok {
				done <- v
				return
			}
			<-q.Wake()
		}
	}()
	q.Push("c")
	if v := <-done; v != "c" {
		t.Fatalf("consumer took %q", v)
	}
}

// A push the consumer does not take merges into the newest queued item.
func TestPushOrGiveMerges(t *testing.T) {
	q := NewUnbounded[string]()
	noGive := func(string) bool { return false }
	join := func(last *string, v string) bool {
		if (*last)[0] != v[0] {
			return false
		}
		*last += v[1:]
		return true
	}
	for _, s := range []string{"a1", "a2", "b1", "a3"} {
		q.PushOrGive(s, join, noGive)
	}
	if v, _ := q.Pop(); v != "a12" {
		t.Fatalf("first %q", v)
	}
	q.Pop()
	if v, _ := q.Pop(); v != "a3" {
		t.Fatalf("third %q", v)
	}
	// An item taken is no longer there to merge into.
	q.PushOrGive("a4", join, noGive)
	if v, _ := q.Pop(); v != "a4" {
		t.Fatalf("fourth %q", v)
	}
	// Merging wakes too.
	select {
	case <-q.Wake():
	default:
		t.Fatal("no token after a merging push")
	}
}

// A consumer that waits on Wake until Drained takes every item, whatever
// the timing of the producers and of Close.
func TestDrainedLosesNothing(t *testing.T) {
	for run := 0; run < 200; run++ {
		q := NewUnbounded[int]()
		const producers, each = 4, 50
		var wg sync.WaitGroup
		for p := range producers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range each {
					q.Push(p*each + i)
				}
			}()
		}
		go func() { wg.Wait(); q.Close() }()
		last := make([]int, producers)
		for i := range last {
			last[i] = -1
		}
		n := 0
		for {
			v, ok := q.Pop()
			if !ok {
				if q.Drained() {
					break
				}
				<-q.Wake()
				continue
			}
			p := v / each
			if v <= last[p] {
				t.Fatalf("producer %d's %d after %d", p, v, last[p])
			}
			last[p] = v
			n++
		}
		if n != producers*each {
			t.Fatalf("run %d: took %d of %d", run, n, producers*each)
		}
	}
}

// PushOrGive gives only when nothing could be overtaken: the queue is
// empty, no held item is on its way, and the queue is open.
func TestPushOrGiveNeverOvertakes(t *testing.T) {
	keep := func(last *int, v int) bool { return false }
	var given []int
	give := func(v int) bool { given = append(given, v); return true }

	q := NewUnbounded[int]()
	q.PushOrGive(1, keep, give)
	if len(given) != 1 || q.Len() != 0 {
		t.Fatalf("empty queue: given %v, queued %d; want 1 given", given, q.Len())
	}

	q.Push(2)
	q.PushOrGive(3, keep, give)
	if len(given) != 1 || q.Len() != 2 {
		t.Fatalf("item waiting: given %v, queued %d; want 3 queued behind 2", given, q.Len())
	}

	if v, _ := q.Hold(); v != 2 {
		t.Fatalf("Hold = %d, want 2", v)
	}
	if v, _ := q.Hold(); v != 3 {
		t.Fatalf("Hold = %d, want 3", v)
	}
	q.PushOrGive(4, keep, give)
	if len(given) != 1 || q.Len() != 1 {
		t.Fatalf("item held: given %v, queued %d; want 4 queued", given, q.Len())
	}
	q.Release()
	if v, _ := q.Pop(); v != 4 {
		t.Fatalf("Pop = %d, want 4", v)
	}
	q.PushOrGive(5, keep, give)
	if len(given) != 2 || given[1] != 5 {
		t.Fatalf("released and empty: given %v, want 5 given", given)
	}

	refuse := func(int) bool { return false }
	q.PushOrGive(6, keep, refuse)
	if v, ok := q.Pop(); !ok || v != 6 {
		t.Fatalf("a refused give is queued: Pop = %d, %v", v, ok)
	}

	q.Close()
	q.PushOrGive(7, keep, give)
	if len(given) != 2 || q.Len() != 1 {
		t.Fatalf("closed: given %v, queued %d; want 7 queued", given, q.Len())
	}
}
