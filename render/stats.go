package render

// Stats describes one flushed frame: what it cost on the wire and which
// kinds of escape sequence it spent the bytes on.
type Stats struct {
	// Bytes is everything written, sync bracket included; 0 for an
	// unchanged frame.
	Bytes int
	// CellsChanged is the number of cells whose content, style or link
	// was rewritten (by drawing or erasing).
	CellsChanged int
	// Writes is the number of Write calls: 0 or 1.
	Writes int

	// Escape sequences by kind.
	Moves         int // cursor positioning: CUP, CHA, VPA, CUU/CUD/CUF/CUB, CR, LF, BS, RI used to move
	SGR           int // style transitions
	Erases        int // EL and ECH
	Shifts        int // ICH and DCH
	Clears        int // ED (2J, 3J, J)
	ScrollRegions int // DECSTBM set or reset
	Scrolls       int // SU, SD, and LF or RI used to scroll a region
	Links         int // OSC 8 opens and closes
	Cursor        int // cursor show or hide
	Modes         int // alternate screen enter or leave
}

// Add accumulates o into s, for totals over many frames.
func (s *Stats) Add(o Stats) {
	s.Bytes += o.Bytes
	s.CellsChanged += o.CellsChanged
	s.Writes += o.Writes
	s.Moves += o.Moves
	s.SGR += o.SGR
	s.Erases += o.Erases
	s.Shifts += o.Shifts
	s.Clears += o.Clears
	s.ScrollRegions += o.ScrollRegions
	s.Scrolls += o.Scrolls
	s.Links += o.Links
	s.Cursor += o.Cursor
	s.Modes += o.Modes
}
