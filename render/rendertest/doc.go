// Package rendertest is test support for code that writes to a terminal
// through package render: an Oracle (a headless VT emulator that records
// and interprets every byte and compares its screen, cursor and
// scrollback with the intended frame) and ScanSync, which checks any byte
// stream for erases outside synchronized-update brackets.
package rendertest
