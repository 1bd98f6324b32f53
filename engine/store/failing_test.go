package store

// Failing returns the error of the last commit if it failed and no commit
// has succeeded since; nil when everything recorded is committed or on its
// way. Tests read it; the session learns of a failing commit from the
// writer's notices.
func (w *Writer) Failing() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}
