package store

import (
	"encoding/hex"
	"fmt"

	"github.com/zeebo/blake3"
	bolt "go.etcd.io/bbolt"
)

// Hash is the blake3-256 digest that names a blob.
type Hash [32]byte

// HashOf returns the address data is stored under.
func HashOf(data []byte) Hash { return blake3.Sum256(data) }

// String is the lowercase hex form used in records and checkpoints.
func (h Hash) String() string { return hex.EncodeToString(h[:]) }

// IsZero reports whether h is the zero hash (no blob).
func (h Hash) IsZero() bool { return h == Hash{} }

// ParseHash reads the hex form of a Hash.
func ParseHash(s string) (Hash, error) {
	var h Hash
	if len(s) != 2*len(h) {
		return h, fmt.Errorf("blob hash %q: want %d hex digits", s, 2*len(h))
	}
	if _, err := hex.Decode(h[:], []byte(s)); err != nil {
		return h, fmt.Errorf("blob hash %q: %w", s, err)
	}
	return h, nil
}

// blobThreshold is the size from which a tool output, diff or preview is
// stored once as a content-addressed blob instead of inline in its event:
// the same file read twice, or a long output shown in an approval and then
// returned as a result, costs its bytes once.
const blobThreshold = 8 << 10

// putBlob stores data under its hash unless it is already there.
func putBlob(b *bolt.Bucket, h Hash, data []byte) error {
	if b.Get(h[:]) != nil {
		return nil
	}
	return b.Put(h[:], data)
}

// getBlob reads a blob and verifies it still hashes to its name. The
// returned slice is a copy, safe after the transaction ends.
func getBlob(b *bolt.Bucket, h Hash) ([]byte, error) {
	v := b.Get(h[:])
	if v == nil {
		return nil, fmt.Errorf("%w: blob %s missing", ErrDamaged, h)
	}
	if HashOf(v) != h {
		return nil, fmt.Errorf("%w: blob %s does not match its hash", ErrDamaged, h)
	}
	return append([]byte(nil), v...), nil
}
