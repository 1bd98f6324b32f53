package ring

import (
	"strings"
	"testing"
)

// Whatever the sizes of the writes, the tail is the stream's last Cap
// bytes.
func TestTailKeepsTheLastBytes(t *testing.T) {
	const n = 7
	stream := strings.Repeat("abcdefghijklmnopqrstuvwxyz0123456789", 5)
	for _, size := range []int{1, 2, 3, 6, 7, 8, 13, len(stream)} {
		tail := NewTail(n)
		for i := 0; i < len(stream); i += size {
			part := stream[i:min(i+size, len(stream))]
			if size%2 == 0 {
				tail.WriteString(part)
			} else {
				tail.Write([]byte(part))
			}
			want := stream[max(0, i+len(part)-n) : i+len(part)]
			if got := string(tail.Bytes()); got != want {
				t.Fatalf("writes of %d, after %d bytes: %q, want %q", size, i+len(part), got, want)
			}
		}
	}
}

func TestTailTextStartsAtACharacter(t *testing.T) {
	tail := NewTail(4)
	tail.WriteString("xxé€") // é is 2 bytes, € is 3: the ring holds é's last byte and €
	if got := string(tail.Text()); got != "€" {
		t.Fatalf("Text = %q, want %q", got, "€")
	}
	if tail.Len() != 4 {
		t.Fatalf("Len = %d, want 4", tail.Len())
	}
}

func TestZeroTailKeepsNothing(t *testing.T) {
	var tail Tail
	tail.WriteString("abc")
	if tail.Len() != 0 || len(tail.Bytes()) != 0 {
		t.Fatalf("zero Tail kept %q", tail.Bytes())
	}
}
