package store

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quire-sh/quire/engine/event"
)

const lastMarker = "the-very-last-event"

// damagedStore makes three closed sessions, good1, bad and good2, and
// returns the path of bad's database.
func damagedStore(t *testing.T) (*Store, string, []event.Event) {
	st := newTestStore(t, Options{})
	var bad []event.Event
	for _, id := range []string{"good1", "bad", "good2"} {
		w, err := st.Create(id, "/p")
		if err != nil {
			t.Fatal(err)
		}
		events := sessionEvents(id, "/p", 20)
		n := uint64(len(events))
		events = append(events, event.Event{V: 1, Seq: n + 1, Kind: event.Notice, Text: lastMarker})
		recordAll(t, w, events)
		if id == "bad" {
			bad = events
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	dir, err := st.find("bad")
	if err != nil {
		t.Fatal(err)
	}
	return st, filepath.Join(dir, eventsFile), bad
}

// TestDamagedDatabase cuts or corrupts one session's database in the ways
// disks and people do, and checks that opening it fails with an error
// naming the file, that the process survives, and that the other sessions
// still list and open, with the bad one reported.
func TestDamagedDatabase(t *testing.T) {
	for _, tc := range []struct {
		name     string
		damage   func(t *testing.T, b []byte) []byte
		mustFail bool
	}{
		{"cut in half", func(t *testing.T, b []byte) []byte { return b[:len(b)/2] }, false},
		{"cut through the last event", func(t *testing.T, b []byte) []byte {
			return b[:bytes.LastIndex(b, []byte(lastMarker))]
		}, true},
		{"cut to 100 bytes", func(t *testing.T, b []byte) []byte { return b[:100] }, true},
		{"cut to nothing", func(t *testing.T, b []byte) []byte { return nil }, true},
		{"cut one page short", func(t *testing.T, b []byte) []byte { return b[:len(b)-4096] }, false},
		{"both meta pages flipped", func(t *testing.T, b []byte) []byte {
			for _, off := range []int{40, 4096 + 40} {
				b[off] ^= 0xff
			}
			return b
		}, true},
		{"byte flipped in the last event", func(t *testing.T, b []byte) []byte {
			i := bytes.LastIndex(b, []byte(lastMarker))
			if i < 0 {
				t.Fatal("marker not found")
			}
			b[i+3] ^= 0x01 // still valid JSON: only the checksum can tell
			return b
		}, true},
		{"not a database", func(t *testing.T, b []byte) []byte { return []byte(strings.Repeat("garbage ", 2000)) }, true},
		{"every page scribbled", func(t *testing.T, b []byte) []byte {
			rng := rand.New(rand.NewPCG(1, 2))
			for page := 0; page < len(b)/4096; page++ {
				for i := 0; i < 8; i++ {
					b[page*4096+rng.IntN(4096)] ^= byte(1 + rng.IntN(255))
				}
			}
			return b
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, path, want := damagedStore(t)
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, tc.damage(t, b), 0o600); err != nil {
				t.Fatal(err)
			}
			r, err := st.OpenReader("bad")
			if err == nil {
				// Cutting only free pages off the end, or scribbling on
				// free pages, harms nothing; but a damage bbolt survives
				// must never yield a silently different log.
				var got []event.Event
				got, err = r.ReadAll()
				r.Close()
				if err == nil {
					mustEqualEvents(t, got, want)
					if tc.mustFail {
						t.Fatal("damaged session read without error")
					}
					return
				}
			}
			if !strings.Contains(err.Error(), path) {
				t.Fatalf("error does not name the file: %v", err)
			}
			if !errors.Is(err, ErrDamaged) {
				t.Fatalf("error is not ErrDamaged: %v", err)
			}
			if _, err := st.Append("bad"); err == nil || !strings.Contains(err.Error(), path) {
				t.Fatalf("append to a damaged session: %v", err)
			}
			// A failed open leaves nothing locked or mapped behind.
			if _, err := st.OpenReader("bad"); !errors.Is(err, ErrDamaged) {
				t.Fatalf("after a failed append, reading says %v, want ErrDamaged", err)
			}

			l, err := st.List(context.Background(), ListOptions{Verify: true})
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, s := range l.Sessions {
				ids = append(ids, s.ID)
			}
			if strings.Join(ids, " ") != "good2 good1" && strings.Join(ids, " ") != "good1 good2" {
				t.Fatalf("listing shows %v, want the two good sessions", ids)
			}
			if len(l.Problems) != 1 || l.Problems[0].ID != "bad" || !strings.Contains(l.Problems[0].Err.Error(), path) {
				t.Fatalf("problems = %+v, want bad reported with its file", l.Problems)
			}
			for _, id := range []string{"good1", "good2"} {
				r, err := st.OpenReader(id)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := r.ReadAll(); err != nil {
					t.Fatal(err)
				}
				r.Close()
			}
		})
	}
}
