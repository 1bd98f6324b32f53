// Package render draws quire's terminal surfaces: a cell grid of grapheme
// clusters with styles and hyperlinks, double-buffered and diffed, and an
// encoder that writes only the difference between two frames in the
// fewest bytes it can find, each non-empty frame as one write inside a
// synchronized-update bracket.
//
// Two surfaces share the encoder. Screen is the full-screen surface on
// the alternate screen; Inline is a live region of a few rows at the
// bottom of the normal screen, with finished lines inserted above it so
// that they land in the terminal's own scrollback exactly once.
//
// # Drawing
//
// Each frame the caller draws the whole surface into a Buffer (Back, or
// Live for Inline) and calls Flush. Text is split into grapheme clusters
// with uniseg; a wide cluster covers two cells, and overwriting either
// half blanks the other. Control characters are drawn as visible glyphs
// (see VisibleControl) and invalid UTF-8 as U+FFFD, so nothing a model or
// a tool prints can reach the terminal as a control sequence. Links are a
// fourth dimension of a cell beside glyph, width and style: changing only
// a link rewrites the cell.
//
// # What a frame writes
//
// An unchanged frame with an unchanged cursor writes nothing at all, not
// even the bracket, so the terminal's cursor blink survives. Anything else
// is one Write of CSI ?2026h … CSI ?2026l, and every erase (ED, EL, ECH)
// happens inside it (on a terminal known not to have mode 2026,
// Options.NoSync, the bracket is left out). Cursor commands come from
// one pure function, DecideCursor. Colours are kept at full fidelity in
// cells and degraded to Options.Colors only as SGR is written
// (AdaptColor).
//
// # Byte-costing rules
//
// The encoder keeps the terminal's state (cursor, SGR pen, open link) and
// prices every alternative in bytes before writing the cheapest:
//
//   - Cursor moves: CUP, or a horizontal part (CR, CR+CUF, CUF, CUB, BS,
//     CHA) plus a vertical part (CUU, CUD, RI, VPA, and LF but only after
//     CR, since LF's column depends on the tty's ONLCR). Parameters equal
//     to 1 are omitted. Rewriting unchanged cells is priced as a move too:
//     from the cursor when it is up to 8 cells left of the next change on
//     the same row, or from a column up to 3 cells left of the change
//     that is cheaper to reach; it wins when it is shorter than the move
//     plus the style change the move would need.
//   - SGR is a transition from the current pen: only the attributes and
//     colours that differ (22 restores bold or dim when the other one is
//     dropped), or a reset (an empty first parameter) followed by the
//     whole new style when that is shorter. A blank shows only its
//     background, so it is drawn with the current pen's foreground and
//     attributes when that is cheaper than its own style: the spaces
//     between the words of a styled run cost no SGR. A run of blanks
//     just before a cell with the same background takes that cell's
//     style when one SGR is shorter than two, so indentation on a
//     coloured block costs no extra SGR.
//   - Erasing: a row's trailing run of blanks in one background is erased
//     with EL when that beats drawing the changed cells in it; an interior
//     run of four or more blanks with ECH when the ECH plus the move past
//     it beats spaces; a row's leading run (indentation on a coloured
//     block) with EL 1 from its last cell when that is shorter. Erases use a pen with the blanks' background and no
//     reverse, underline or strikethrough, and never carry a link.
//   - Shifts: when a row's change is k cells inserted or deleted (typing
//     in the middle of the prompt), ICH or DCH moves the rest of the row
//     and only the new cells are drawn, if that is shorter. Rows whose
//     shifted part holds wide or multi-code-point clusters are redrawn
//     instead, since terminals disagree on shifting those.
//   - Links: consecutive cells with one target are one OSC 8 wrapper with
//     an id= that is stable for the URL, so a link split across rows or
//     frames is one link; the link is closed before erases and at the end
//     of every frame. A frame without links writes exactly the bytes it
//     would without link support.
//   - Scrolling: the full-screen surface takes a ScrollHint, or finds the
//     shift itself by hashing rows once a plain redraw has changed a few
//     rows, and prices scrolling the region (DECSTBM, SU/SD, reset) plus
//     repainting the exposed rows against the plain redraw by encoding
//     both (the redraw abandoned as soon as it is longer), and writes the
//     shorter (the redraw on a tie). A wrong guess costs time, never
//     bytes. A hint by the region's whole height (a page) keeps no row
//     but still blanks the region in one scroll, so the new page is drawn
//     onto blank rows with no erases, when that is shorter.
//   - Deferred styles: a frame of 512 bytes or more of cell changes (a
//     repaint after a resize, a page of scrolling) is priced again with
//     the runs of its long, recurring styles (inline code in 24-bit
//     colour, whose SGR is 33 bytes) left out of reading order and drawn
//     last, one SGR per style and a cursor move per run, and the shorter
//     encoding is written. Rows the second encoding would write the same
//     way are copied from the first, so it costs little time.
//   - Inline insertion: lines the live region's top rows already show,
//     cell for cell (a streamed paragraph that just became final), are
//     taken as inserted where they are, and nothing is written for them.
//     For the rest, while the live region has room below it, it is
//     pushed down with SD inside a region from its top to the bottom of
//     the screen and the lines fill the gap; once it is at the bottom,
//     lines are written at the bottom of a region covering the rows above
//     it, each LF scrolling the region's top row into scrollback.
//   - Inline region rows that moved (the streamed tail rising as it
//     grows, the prompt and status line sinking as the region grows) are
//     found by hashing rows, as on the full screen, and moved rather than
//     redrawn when that is shorter: down with SD in a scroll region, up
//     with DL and IL (tmux puts what scrolls out of the top of any scroll
//     region on the normal screen into the scrollback, where a live row
//     must never go).
//   - A terminal known not to have mode 2026 (Options.NoSync) gets
//     frames without the bracket.
//   - Clusters a terminal may measure differently from uniseg (ZWJ
//     sequences, flags, variation selectors) are followed by an absolute
//     column move rather than trusted, so a disagreement cannot shift the
//     rest of the row.
//
// The rendertest package holds the test oracle: a headless terminal fed
// the renderer's bytes and compared with the intended frame.
package render
