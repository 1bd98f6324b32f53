// Package patch parses and applies the apply_patch format: a patch
// envelope ("*** Begin Patch" … "*** End Patch") of Add, Delete and Update
// hunks, where update chunks are located with "@@ context" cursors and a
// forward-only search that tolerates, in strictly increasing order of
// leniency, trailing whitespace, surrounding whitespace, typographic
// look-alike characters and drifted whitespace inside a line. The parser
// accepts what the reference implementation models were trained against
// accepts (padded marker lines, blank lines between chunks, a shell
// heredoc around the patch) and reports anything else with its line.
//
// The package is pure: strings in, strings out. It never touches the
// filesystem (a test enforces its imports), so callers decide where the
// bytes come from and go, under their own sandbox rules.
package patch
