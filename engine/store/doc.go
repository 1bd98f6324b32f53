// Package store keeps quire's sessions on disk: every event of a session
// in order, content-addressed blobs for large tool outputs and file
// snapshots, and the checkpoints /rewind restores files from. It imports
// only the event vocabulary (engine/event) and the leaf package redact
// (an export is redacted), never the engine.
//
// # On-disk layout
//
// The state directory is ${QUIRE_HOME:-${XDG_STATE_HOME:-~/.local/state}/quire};
// the caller passes it to Open. Sessions are partitioned by the directory
// they were started in, so listing one cwd reads one directory:
//
//	{root}/sessions/{path-escaped cwd}/{id}/
//	    events.db     bbolt: the truth
//	    session.json  the listing summary, replaced atomically (temp + rename)
//	    lock          flock held exclusively by the process writing the session
//
// events.db has four buckets:
//
//	events       8-byte big-endian seq → CRC-32C(JSON) ‖ JSON {"e": event, "blobs": refs, "raw_args": …}
//	blobs        32-byte blake3 of the content → the content
//	checkpoints  4-byte big-endian turn ‖ absolute path → JSON {before, after}
//	meta         "format" → FormatVersion; "summary" → the Summary as of the last commit
//
// A tool output, diff or approval preview of 8 KiB or more is moved out of
// its event into the blobs bucket and named by its hash, so it is stored
// once however often it recurs; file snapshots live in the same bucket.
// Reads verify every record's CRC and every blob's hash, so a flipped byte
// is an error naming the file, never a silently different history.
//
// An id is the UTC creation time and six random hex digits
// (20261130-065226-ab12cd): ids sort by age and a prefix is enough to
// resume. A session is built under {cwd key}/.tmp-{id} and renamed into
// place once its database and summary exist, so a crash during creation
// leaves nothing a listing would show (Prune removes the leftover).
//
// # Writing and durability
//
// A Writer satisfies the engine's Recorder. Record(e, true) commits e and
// everything recorded before it in one bbolt transaction (fsync) before it
// returns: this is how a user message is acknowledged. Record(e, false)
// joins a group commit that happens when GroupWindow (200 ms) has passed
// since the first waiting event or GroupEvents (512) are waiting, whichever
// comes first: a fast stream of events costs one commit per 512, a slow
// one at most five commits a second. Text fragments (the deltas of a
// streamed answer, a command's output) wait longer when nothing else
// does, FragmentWindow (1 s): a commit is two fdatasyncs, and at five a
// second they were a tenth of a streamed answer's CPU; an answer cut
// short by a crash is partial anyway. Text fragments recorded in a row
// (event.Mergeable: an answer's deltas, one call's output) wait as one
// event that takes in each fragment's text, and are encoded once, at the
// commit, as one event with the last fragment's Seq and Time: the log keeps
// every byte of the stream, in order, and skips the Seqs in between, so a
// streamed answer costs a few stored events, not one per chunk. A full batch is
// committed in the background while the stream goes on; only when eight
// batches' worth are waiting (the disk is slower than the stream) does
// Record commit in the caller's goroutine. bbolt commits are atomic (data
// pages first, then a checksummed meta page), so a kill -9 at any moment
// loses at most the events of the current window (GroupWindow, or
// FragmentWindow for a stream's text) and never leaves a half-written
// event: the session reopens at its last committed event and Append
// continues after it.
//
// A commit the file system refuses (a full disk, an I/O error, a
// read-only remount) loses nothing and leaves the file as it was (bbolt
// rolls the transaction back), so every other session stays readable. The
// batch goes back to the front of the queue, ahead of later events, so
// the log never gets a hole; Record keeps accepting events into memory
// and returns the *SaveError ("saving the session failed: no space left
// on device (…/events.db)") until a commit succeeds: one is tried at every
// durable Record and every second, so the session goes on by itself once
// space returns. A durable Record that fails keeps nothing of its event
// (the engine does not show a prompt it could not save). What a failure can
// cost: the events waiting in memory are lost if quire exits, or is killed,
// before a commit succeeds; Close then returns the error.

// The summary inside events.db is written in the same transaction as the
// events it describes. session.json is a cache of it for listings, rewritten
// after a commit that acknowledged a prompt or changed the title, turns,
// tokens or model, and otherwise at most every 10 s. It is not fsynced:
// a stale or missing session.json is rebuilt from events.db by List.
//
// # Locking: two quire processes at once
//
// bbolt locks a whole file per process (flock, exclusive for a writer,
// shared for a reader), and a reader opening a file a writer holds would
// wait for it. So nothing that lists sessions ever opens a database:
//
//   - A writer takes {id}/lock exclusively (retrying for a second, since
//     listers and pruners hold it for microseconds), then opens events.db.
//     Each session has its own file, so two processes writing two sessions
//     never contend.
//   - List reads session.json files and probes each lock with a
//     non-blocking shared flock, released at once, to mark running
//     sessions. It never waits, and it shows a running session with the
//     summary its writer last published. Only when session.json is missing
//     or damaged, or with ListOptions.Verify, does it open a database, and
//     then only of a session that is not running (bbolt's own flock is
//     bounded by a timeout as a second guard).
//   - A Reader (export, Fork, resume preview) takes the lock shared without
//     waiting more than a second, and fails with ErrInUse if a writer has
//     the session: a running session is read through its own Writer.
//   - Prune takes the lock exclusively without waiting and skips the
//     session if it cannot, so it never removes a running session.
//
// # Checkpoints, rewind and forks
//
// Checkpoints.BeforeWrite (plugged into tools.Env.BeforeWrite) snapshots a
// file under the session's cwd before its first change in a turn, and
// commits the snapshot before the write goes ahead; EndTurn records the
// hash of what quire left, so Rewind can tell a file someone else changed
// since (reported, and left alone unless Overwrite) from quire's own
// writes. Rewind is a dry run unless Apply. Applied, it writes only through
// the FileWriter given to Checkpoints (the session wiring passes the same
// guarded writer the file tools use, package fsguard), so a restore gets
// the sandbox profile's check, refuses a path on which a directory was
// replaced by a link since the checkpoint, and never restores setuid bits
// or execute bits into git hooks; without a FileWriter it refuses. The conversation part of
// /rewind is Fork: a new session holding a prefix of the events, with the
// file checkpoints of the discarded turns folded into the last kept one.
//
// # Child sessions
//
// A task call's child session is a session like any other, created in its
// parent's working directory; its SessionStarted names the parent session
// and call, which its Summary keeps (Parent, ParentCall, Agent, and the
// task's description as its Title). Latest never picks one (it is not a
// conversation to continue), WriteTable lists each under its parent
// (Nest), and Prune keeps one as long as its parent is in the store.
//
// # Retention
//
// Prune removes sessions idle for longer than Options.Retention (30 days)
// and never one that is running or whose files changed in the last hour.
// A session is renamed to a dot name before it is removed, so a prune cut
// short leaves nothing a listing shows. Callers run it once per process,
// in the background.
//
// # Export
//
// Export and WriteTranscript write a session as JSONL (a header line, then
// one event per line) for people to share, so every text in it goes
// through package redact first: keys, tokens, private key blocks,
// secret assignments and URL parameters become [REDACTED] and the user's
// home directory becomes ~. The session on disk keeps what happened.
//
// # Versions
//
// Three versions are checked on read, each with an error naming both the
// version found and the one this binary knows: FormatVersion for the layout
// of events.db, event.SchemaVersion for every event (older events are
// upgraded in memory by event.Upgrade and the disk is never rewritten), and
// TranscriptFormat for exported transcripts.
//
// # Damage
//
// bbolt trusts the pages it maps; a truncated file or flipped bytes can make
// it panic or fault. Every access runs under a guard that turns a panic or
// a memory fault into ErrDamaged wrapped with the file's path, so one
// damaged session is reported while every other session stays usable. If
// bbolt panics inside Open, the file it mapped and locked is unmapped and
// closed, so the failure does not hold the session's lock for the rest of
// the process. `quire sessions` lists with ListOptions.Verify, so a damaged
// session is reported there and not first on resume.
package store
