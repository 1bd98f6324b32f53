package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"strconv"
	"strings"

	"github.com/quire-sh/quire/engine/event"
	bolt "go.etcd.io/bbolt"
)

// record is how one event is stored: the event with its large strings
// moved out to blobs, plus the references to them. Each stored value is a
// CRC-32C of the JSON followed by the JSON, so a flipped byte inside a
// record is caught on read instead of silently changing what the model
// sees on resume.
type record struct {
	E     *event.Event `json:"e"`
	Blobs *blobRefs    `json:"blobs,omitempty"`
	// RawArgs keeps tool-call arguments byte for byte where encoding/json
	// would compact them ("call" for Call, "calls.N" for Calls[N]), so the
	// history rebuilt on resume is exactly what the model wrote.
	RawArgs map[string]string `json:"raw_args,omitempty"`
}

// compact reports whether raw is already in the form encoding/json writes
// a json.RawMessage in.
func compact(raw json.RawMessage) bool {
	var b bytes.Buffer
	return json.Compact(&b, raw) == nil && bytes.Equal(b.Bytes(), raw)
}

// blobRefs names the blobs holding fields moved out of an event.
type blobRefs struct {
	Output  string `json:"output,omitempty"`  // Result.Output
	Diff    string `json:"diff,omitempty"`    // Result.Diff
	Preview string `json:"preview,omitempty"` // Approval.Preview
}

type pendingBlob struct {
	hash Hash
	data []byte
}

// encoded is an event ready to commit.
type encoded struct {
	seq   uint64
	value []byte
	blobs []pendingBlob
}

func crc(b []byte) uint32 { return crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli)) }

// encodeEvent frames e for the events bucket, moving large fields to blobs.
func encodeEvent(e event.Event) (encoded, error) {
	out := encoded{seq: e.Seq}
	var refs blobRefs
	move := func(s *string, ref *string) {
		if len(*s) < blobThreshold {
			return
		}
		data := []byte(*s)
		h := HashOf(data)
		out.blobs = append(out.blobs, pendingBlob{hash: h, data: data})
		*ref = h.String()
		*s = ""
	}
	if e.Result != nil && (len(e.Result.Output) >= blobThreshold || len(e.Result.Diff) >= blobThreshold) {
		r := *e.Result
		move(&r.Output, &refs.Output)
		move(&r.Diff, &refs.Diff)
		e.Result = &r
	}
	if e.Approval != nil && len(e.Approval.Preview) >= blobThreshold {
		a := *e.Approval
		move(&a.Preview, &refs.Preview)
		e.Approval = &a
	}
	rec := record{E: &e}
	if refs != (blobRefs{}) {
		rec.Blobs = &refs
	}
	if e.Call != nil && !compact(e.Call.Arguments) {
		rec.RawArgs = map[string]string{"call": string(e.Call.Arguments)}
	}
	for i, c := range e.Calls {
		if !compact(c.Arguments) {
			if rec.RawArgs == nil {
				rec.RawArgs = map[string]string{}
			}
			rec.RawArgs[fmt.Sprintf("calls.%d", i)] = string(c.Arguments)
		}
	}
	js, err := json.Marshal(rec)
	if err != nil {
		return out, fmt.Errorf("encode event %d (%s): %w", e.Seq, e.Kind, err)
	}
	out.value = make([]byte, 4+len(js))
	binary.BigEndian.PutUint32(out.value, crc(js))
	copy(out.value[4:], js)
	return out, nil
}

// decodeEvent reads the stored value of event seq, verifies it, brings it
// to the current schema and puts its blobs back.
func decodeEvent(seq uint64, v []byte, blobs *bolt.Bucket) (event.Event, error) {
	var e event.Event
	if len(v) < 4 {
		return e, fmt.Errorf("%w: event %d is %d bytes", ErrDamaged, seq, len(v))
	}
	js := v[4:]
	if binary.BigEndian.Uint32(v) != crc(js) {
		return e, fmt.Errorf("%w: event %d fails its checksum", ErrDamaged, seq)
	}
	rec := record{E: &e}
	if err := json.Unmarshal(js, &rec); err != nil {
		return e, fmt.Errorf("%w: event %d: %v", ErrDamaged, seq, err)
	}
	if e.Seq != seq {
		return e, fmt.Errorf("%w: event stored under seq %d claims seq %d", ErrDamaged, seq, e.Seq)
	}
	if err := event.Upgrade(&e); err != nil {
		return e, fmt.Errorf("event %d: %w", seq, err)
	}
	for where, raw := range rec.RawArgs {
		dst := argsAt(&e, where)
		if dst == nil {
			return e, fmt.Errorf("%w: event %d: raw arguments for %q", ErrDamaged, seq, where)
		}
		*dst = json.RawMessage(raw)
	}
	if rec.Blobs == nil {
		return e, nil
	}
	load := func(ref string, dst *string) error {
		if ref == "" {
			return nil
		}
		h, err := ParseHash(ref)
		if err != nil {
			return fmt.Errorf("%w: event %d: %v", ErrDamaged, seq, err)
		}
		data, err := getBlob(blobs, h)
		if err != nil {
			return fmt.Errorf("event %d: %w", seq, err)
		}
		*dst = string(data)
		return nil
	}
	if e.Result != nil {
		if err := load(rec.Blobs.Output, &e.Result.Output); err != nil {
			return e, err
		}
		if err := load(rec.Blobs.Diff, &e.Result.Diff); err != nil {
			return e, err
		}
	}
	if e.Approval != nil {
		if err := load(rec.Blobs.Preview, &e.Approval.Preview); err != nil {
			return e, err
		}
	}
	return e, nil
}

// argsAt finds the arguments a RawArgs key names: "call" or "calls.N".
func argsAt(e *event.Event, where string) *json.RawMessage {
	if where == "call" {
		if e.Call == nil {
			return nil
		}
		return &e.Call.Arguments
	}
	n, ok := strings.CutPrefix(where, "calls.")
	if !ok {
		return nil
	}
	i, err := strconv.Atoi(n)
	if err != nil || i < 0 || i >= len(e.Calls) || strconv.Itoa(i) != n {
		return nil
	}
	return &e.Calls[i].Arguments
}
