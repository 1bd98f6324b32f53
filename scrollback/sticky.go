package scrollback

// StickyGeometry places the pinned prompt of the turn on screen. The
// prompt's content occupies lines [promptTop, promptTop+promptHeight) of
// the transcript, the next prompt (or the end) starts at nextTop, and the
// viewport's first line is top. The header shows while the prompt has
// scrolled past the top and the next one has not: it is at most maxRows
// tall, and as the next prompt comes within reach it pushes the header up,
// clipping clipTop rows off its top, until it is gone.
//
// rows is how many screen rows the header covers (0: no header); they
// show the header's lines [clipTop, clipTop+rows).
func StickyGeometry(promptTop, promptHeight, nextTop, top, maxRows int) (rows, clipTop int) {
	if promptHeight <= 0 || maxRows <= 0 || top <= promptTop || top >= nextTop {
		return 0, 0
	}
	full := min(promptHeight, maxRows)
	room := nextTop - top // rows between the viewport top and the next prompt
	if room >= full {
		return full, 0
	}
	return room, full - room
}
