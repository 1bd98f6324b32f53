// Package pathx answers one question about paths, the same way for every
// package that asks it: does a path lie inside a directory. Sandbox
// profiles, the guarded writer, the engine's write serialisation, the
// store's checkpoints and the tools' display of paths all rely on the
// answer, so it is written once. The comparison is lexical: both paths
// are cleaned, nothing on disk is consulted and no symlink is resolved
// (a caller that needs resolved paths resolves them first). Display
// builds on it to name a path in a notice the same way everywhere:
// relative to the working directory, else under ~.
package pathx
