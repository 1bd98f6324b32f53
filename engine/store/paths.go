package store

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"github.com/zeebo/blake3"
)

// File names inside a session directory.
const (
	eventsFile  = "events.db"
	summaryFile = "session.json"
	lockName    = "lock"
	sessionsDir = "sessions"
	// A session is built under a dot-prefixed name and renamed into place,
	// so a crash during creation never leaves a half-made session visible.
	tmpPrefix = ".tmp-"
)

// maxDirName keeps a cwd key well under NAME_MAX (255 bytes).
const maxDirName = 200

// cwdKey names the directory that partitions sessions by working
// directory. It is the path-escaped cwd, so a listing filtered by cwd reads
// one directory; a cwd too long for a file name is cut and suffixed with a
// hash of the whole, which keeps keys distinct.
func cwdKey(cwd string) string {
	key := url.PathEscape(cwd)
	key = strings.ReplaceAll(key, "/", "%2F") // PathEscape keeps '/'
	if key == "" || key == "." || key == ".." {
		key = "%" + hex.EncodeToString([]byte(key))
	}
	if len(key) <= maxDirName {
		return key
	}
	sum := blake3.Sum256([]byte(cwd))
	cut := key[:maxDirName-17]
	// Never cut through a %XX escape.
	if i := strings.LastIndexByte(cut, '%'); i >= len(cut)-2 {
		cut = cut[:i]
	}
	return cut + "-" + hex.EncodeToString(sum[:8])
}

// NewID returns a fresh session id: the UTC creation time to the second,
// which sorts ids by age, and 6 random hex digits, which keeps two
// sessions started in the same second apart.
func NewID(now time.Time) string {
	var b [3]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(fmt.Sprintf("crypto/rand failed: %v", err)) // never happens on supported systems
	}
	return now.UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b[:])
}

// validID reports whether id can name a directory: no separators, no dot
// files, nothing empty.
func validID(id string) bool {
	if id == "" || len(id) > 128 || strings.HasPrefix(id, ".") {
		return false
	}
	for _, r := range id {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
		default:
			return false
		}
	}
	return true
}

func (s *Store) sessionsRoot() string { return filepath.Join(s.root, sessionsDir) }
