// Package patch parses and applies the apply_patch format: a patch
// envelope ("*** Begin Patch" … "*** End Patch") of Add, Delete and Update
// hunks, where update chunks are located with "@@ context" cursors and a
// forward-only search that tolerates, in strictly increasing order of
// leniency, trailing whitespace, surrounding whitespace and typographic
// look-alike characters.
//
// The package is pure: strings in, strings out. It never touches the
// filesystem (a test enforces its imports), so callers decide where the
// bytes come from and go, under their own sandbox rules.
package patch
