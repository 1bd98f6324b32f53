// Package demo is `quire demo`'s wiring: a temporary copy of a small
// sample project, the scripted test server playing a model that reads a
// file, proposes an edit, runs a sandboxed check and answers, and a
// session (no store) against it. The UI runs it like any other session.
package demo
