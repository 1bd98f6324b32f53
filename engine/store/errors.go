package store

import "errors"

var (
	// ErrNotFound means no session matches the id (or the cwd).
	ErrNotFound = errors.New("no such session")
	// ErrAmbiguous means an id prefix matches more than one session.
	ErrAmbiguous = errors.New("session id prefix is ambiguous")
	// ErrInUse means another quire process has the session open for
	// writing (or is reading it at this instant).
	ErrInUse = errors.New("session is open in another quire process")
	// ErrDamaged means a session file cannot be read: truncated, bytes
	// flipped, or not a quire file at all. Other sessions are unaffected.
	ErrDamaged = errors.New("session file is damaged")
	// ErrTooNew means the data was written by a newer quire.
	ErrTooNew = errors.New("written by a newer quire")
	// ErrClosed is returned by a Writer after Close.
	ErrClosed = errors.New("session writer is closed")
)
