package store

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/event"
)

// TestTwoWriterProcessesAndALister runs two quire-like processes, each
// writing its own session, while this process lists: the listing shows
// both sessions as running, with growing summaries, without waiting for
// either to exit; reading a running session from outside fails at once
// with ErrInUse; after both exit, both logs are whole.
func TestTwoWriterProcessesAndALister(t *testing.T) {
	root := t.TempDir()
	st, err := Open(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	type child struct {
		id, cwd string
		acks    []uint64
		last    uint64
	}
	children := []*child{{id: "alpha", cwd: "/src/alpha"}, {id: "beta", cwd: "/src/beta"}}
	var wg sync.WaitGroup
	stops := make([]func(), len(children))
	ready := make(chan struct{}, len(children))
	for i, c := range children {
		cmd, out, stdin := startChild(t, root, c.id, c.cwd, true)
		stops[i] = func() { stdin.Close() }
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				l, err := out.ReadString('\n')
				if err != nil {
					break
				}
				word, n, _ := childLine(l)
				switch word {
				case "ack":
					c.acks = append(c.acks, n)
					if len(c.acks) == 3 {
						ready <- struct{}{}
					}
				case "closed":
					c.last = n
				}
			}
			if err := cmd.Wait(); err != nil {
				t.Errorf("%s: child failed: %v", c.id, err)
			}
		}()
	}
	for range children {
		select {
		case <-ready:
		case <-time.After(30 * time.Second):
			t.Fatal("children did not start writing")
		}
	}

	// List while both write: both appear, running, and their summaries
	// move on between listings.
	seen := map[string]uint64{}
	for round := 0; round < 20; round++ {
		l, err := st.List(context.Background(), ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(l.Problems) != 0 {
			t.Fatalf("problems while listing running sessions: %+v", l.Problems)
		}
		if len(l.Sessions) != 2 {
			t.Fatalf("listing shows %d sessions, want 2", len(l.Sessions))
		}
		for _, s := range l.Sessions {
			if !s.Running {
				t.Fatalf("session %s not marked running", s.ID)
			}
			if s.LastSeq < seen[s.ID] {
				t.Fatalf("session %s went back from %d to %d", s.ID, seen[s.ID], s.LastSeq)
			}
			seen[s.ID] = s.LastSeq
		}
		here, err := st.List(context.Background(), ListOptions{Cwd: "/src/beta"})
		if err != nil || len(here.Sessions) != 1 || here.Sessions[0].ID != "beta" {
			t.Fatalf("listing by cwd: %+v, %v", here, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if _, err := st.OpenReader("alpha"); !errors.Is(err, ErrInUse) {
		t.Fatalf("reading a running session from outside: %v, want ErrInUse", err)
	}
	if _, err := st.Latest(context.Background(), "/src/alpha"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Latest offered a running session: %v", err)
	}

	for _, stop := range stops {
		stop()
	}
	wg.Wait()
	for _, c := range children {
		r, err := st.OpenReader(c.id)
		if err != nil {
			t.Fatal(err)
		}
		events, err := r.ReadAll()
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		if err := holeFree(events, 0, func(text string) int { return strings.Count(text, "delta ") }); err != nil {
			t.Fatalf("%s: %v", c.id, err)
		}
		if len(events) == 0 || events[len(events)-1].Seq != c.last || c.last == 0 {
			t.Fatalf("%s: %d events after a clean close at seq %d", c.id, len(events), c.last)
		}
		kinds := map[uint64]event.Kind{}
		for _, e := range events {
			kinds[e.Seq] = e.Kind
		}
		for _, seq := range c.acks {
			if kinds[seq] != event.UserMessage {
				t.Fatalf("%s: acknowledged prompt %d missing", c.id, seq)
			}
		}
	}
	l, err := st.List(context.Background(), ListOptions{Verify: true})
	if err != nil || len(l.Sessions) != 2 || l.Sessions[0].Running || l.Sessions[1].Running {
		t.Fatalf("listing after exit: %+v, %v", l, err)
	}
}

// TestWriterConcurrentReads records from one goroutine while others read
// the tail, flush and list, as the engine, the UI and a lister would.
func TestWriterConcurrentReads(t *testing.T) {
	st := newTestStore(t, Options{GroupWindow: time.Millisecond, GroupEvents: 16})
	w, err := st.Create("", "/src/x")
	if err != nil {
		t.Fatal(err)
	}
	events := sessionEvents(w.ID(), "/src/x", 30)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				tail, err := w.Tail(5)
				if err != nil {
					t.Error(err)
					return
				}
				if len(tail) > 0 {
					if err := holeFree(tail[1:], tail[0].Seq, wordParts); err != nil {
						t.Errorf("tail not contiguous: %v", err)
					}
				}
				if _, err := st.List(ctx, ListOptions{}); err != nil && ctx.Err() == nil {
					t.Error(err)
				}
				_ = w.Summary()
			}
		}()
	}
	recordAll(t, w, events)
	cancel()
	wg.Wait()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := st.OpenReader(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	mustEqualEvents(t, got, events)
	if !strings.HasPrefix(got[1].Text, "prompt 1") {
		t.Fatalf("first prompt = %q", got[1].Text)
	}
}
