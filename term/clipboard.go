package term

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// MaxOSC52 is the longest OSC 52 sequence Copy sends. Terminals cap the
// sequence (about 75 000 bytes in the strictest ones) and silently drop
// anything longer, so a larger copy is refused with ErrClipboardTooLarge
// instead of vanishing.
const MaxOSC52 = 74994

// ErrClipboardTooLarge means the text is too long for OSC 52. Inside tmux
// the load-buffer leg may still have taken it.
var ErrClipboardTooLarge = errors.New("text too large for the terminal clipboard (OSC 52)")

// tmuxLoadTimeout bounds `tmux load-buffer`; a hung tmux is abandoned.
const tmuxLoadTimeout = 2 * time.Second

// EncodeOSC52 returns the bytes that put text on the clipboard through the
// terminal: "ESC ] 52 ; c ; <base64> BEL". Inside tmux with set-clipboard
// on, tmux takes the plain sequence itself and passes it on; otherwise
// inside tmux (and not inside an editor's :terminal, where libvterm would
// print the envelope) the sequence is wrapped in tmux's DCS passthrough
// with its ESCs doubled;
// inside GNU screen it is cut into DCS chunks screen passes through.
func EncodeOSC52(text string, c Caps) []byte {
	seq := "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(text)) + "\x07"
	switch {
	case c.Multiplexer == "tmux" && c.TmuxClipboard:
	case c.Multiplexer == "tmux" && !c.EmbeddedEditor:
		return []byte("\x1bPtmux;" + strings.ReplaceAll(seq, "\x1b", "\x1b\x1b") + "\x1b\\")
	case c.Multiplexer == "screen" && !c.EmbeddedEditor:
		// screen limits a DCS string to 768 bytes; each chunk is passed on
		// as it is and the terminal sees the sequence reassembled.
		const chunk = 76
		var b strings.Builder
		for len(seq) > 0 {
			n := min(chunk, len(seq))
			b.WriteString("\x1bP" + seq[:n] + "\x1b\\")
			seq = seq[n:]
		}
		return []byte(b.String())
	}
	return []byte(seq)
}

// Copy puts text on the system clipboard, best effort, by two legs tried
// together:
//
//   - OSC 52 through the terminal (wrapped for tmux or screen), queued
//     behind the frames already written;
//   - inside tmux, also `tmux load-buffer -` fed from a temporary file, so
//     the text lands in tmux's paste buffer even when passthrough is off.
//     It runs in the background and is abandoned after 2 s; its outcome
//     is not reported.
//
// The returned error covers only OSC 52: ErrClipboardTooLarge, or
// ErrClosed. Whether the terminal honoured the sequence cannot be known.
func (t *Terminal) Copy(text string) error {
	caps := t.Caps()
	if caps.Multiplexer == "tmux" {
		go func() { _ = t.tmuxLoad(text) }()
	}
	seq := EncodeOSC52(text, caps)
	if len(seq) > MaxOSC52 {
		return fmt.Errorf("copy %d bytes: %w", len(text), ErrClipboardTooLarge)
	}
	return t.submit(seq)
}

// tmuxShowOption returns the value of one of tmux's global options
// (`tmux show-options -gv name`), for the probe.
func tmuxShowOption(name string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), tmuxLoadTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "tmux", "show-options", "-gv", name)
	cmd.WaitDelay = 100 * time.Millisecond
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("tmux show-options %s: %w", name, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// tmuxLoadBuffer runs `tmux load-buffer -` with text on stdin. The input
// is a file on disk rather than a pipe so that a tmux that never reads
// cannot block us on a full pipe.
func tmuxLoadBuffer(text string) error {
	f, err := os.CreateTemp("", "quire-clip-*")
	if err != nil {
		return fmt.Errorf("tmux load-buffer: %w", err)
	}
	defer os.Remove(f.Name())
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		return fmt.Errorf("tmux load-buffer: %w", err)
	}
	if _, err := f.Seek(0, 0); err != nil {
		return fmt.Errorf("tmux load-buffer: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), tmuxLoadTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "tmux", "load-buffer", "-")
	cmd.Stdin = f
	cmd.WaitDelay = 100 * time.Millisecond
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("tmux load-buffer: %w: %s", err, strings.TrimSpace(string(out)))
	}
	return nil
}
