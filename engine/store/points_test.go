package store

import (
	"reflect"
	"testing"

	"github.com/quire-sh/quire/engine/event"
)

func TestRewindPoints(t *testing.T) {
	msg := func(seq uint64, turn int, text string) event.Event {
		return event.Event{Seq: seq, Kind: event.UserMessage, Turn: turn, Text: text}
	}
	start := func(seq uint64, turn int) event.Event {
		return event.Event{Seq: seq, Kind: event.TurnStarted, Turn: turn}
	}
	for _, tc := range []struct {
		name   string
		events []event.Event
		want   []RewindPoint
	}{
		{"one prompt per turn", []event.Event{msg(1, 0, "a"), start(2, 1), msg(3, 0, "b"), start(4, 2)},
			[]RewindPoint{{1, 1, "a"}, {2, 3, "b"}}},
		{"queued during a turn", []event.Event{msg(1, 0, "a"), start(2, 1), msg(3, 0, "b"), msg(4, 0, "c"), start(5, 2), start(6, 3)},
			[]RewindPoint{{1, 1, "a"}, {2, 3, "b"}, {3, 4, "c"}}},
		{"turn named by the message", []event.Event{start(1, 1), msg(2, 1, "a"), start(3, 2), msg(4, 2, "b")},
			[]RewindPoint{{1, 2, "a"}, {2, 4, "b"}}},
		{"a turn without a prompt", []event.Event{msg(1, 0, "a"), start(2, 1), start(3, 2)},
			[]RewindPoint{{1, 1, "a"}}},
		{"a command's prompt is what was typed", []event.Event{{Seq: 1, Kind: event.UserMessage, Turn: 1, Text: "Review a.go closely.", Command: "/review a.go"}, start(2, 1)},
			[]RewindPoint{{1, 1, "/review a.go"}}},
		{"nothing", nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := RewindPoints(tc.events); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}
