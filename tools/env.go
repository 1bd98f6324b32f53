package tools

// Env is what every call runs in: the working directory, the sandbox
// profile the file tools enforce in-process and the shell tool hands to the
// launcher, and a hook the engine uses to snapshot a file before its first
// change in a turn (checkpoints for /rewind).
type Env struct {
	// Dir is the absolute, symlink-resolved working directory.
	Dir string
	// BeforeWrite, when set, is called with the absolute path of a file
	// before a tool changes or creates it. An error aborts the write.
	BeforeWrite func(path string) error
}
