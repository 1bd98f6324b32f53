// Package redact removes secrets from text that quire writes for people to
// share: exported transcripts, terminal recordings, printed replays, error
// reports and, when the user asks for it, tool output before the model
// sees it.
//
// One rule set covers them all (see Redactor.String for the list). Each
// rule starts at an anchor: a vendor prefix at a word boundary (sk-,
// ghp_, AKIA, AIza, xoxb-, ...), a PEM "-----BEGIN", the word Bearer, a
// JWT's "eyJ", an '=' or ':' after a secret-sounding name (password,
// api_key, token, ...) or a URL query parameter (token, key, sig, ...), a
// URL's user:password@, and the user's home directory. A scan looks for
// anchors byte by byte, so text without a secret comes back unchanged
// and without allocating; only a hit builds a new string. The secret part
// of a match becomes [REDACTED] (the prefix, key name or header scheme
// stays, so a reader still sees what was there) and the home directory
// becomes ~.
//
// The rules lean towards leaving ordinary code alone: a prefix inside a
// word (task-, disk-) is no anchor, a token must be long enough and, for
// the loosest prefixes, contain a digit; an assignment whose value is an
// expression (a call, an index, an attribute, a variable name, a type
// such as str, a placeholder such as $TOKEN or <your-key>) is kept.
// Applying a Redactor twice gives what applying it once gave.
//
// The package is a leaf: it imports nothing of quire's.
package redact
