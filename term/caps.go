package term

import (
	"strconv"
	"strings"

	"github.com/quire-sh/quire/render"
)

// Caps is what quire believes the terminal can do. DetectCaps fills it
// from the environment alone (free, and needs no reply from the tty);
// Terminal.Probe may then refine it with DECRQM and XTVERSION replies.
type Caps struct {
	// Colors is the colour ceiling; styles are degraded to it at output.
	Colors render.ColorLevel
	// ColorReason names the variable that decided Colors ("NO_COLOR",
	// "COLORTERM", "KITTY_WINDOW_ID", "TERM", …), for `quire doctor`.
	ColorReason string
	// Hyperlinks: OSC 8 links are shown as links, not printed as garbage
	// or silently dropped by a multiplexer in between.
	Hyperlinks bool
	// SyncOutput: DEC mode 2026 (synchronized update) is known to work.
	// Frames are bracketed either way; this only reports.
	SyncOutput bool
	// SyncProbed is set once a DECRQM reply decided SyncOutput.
	SyncProbed bool
	// BracketedPaste: pastes arrive whole as PasteEvent.
	BracketedPaste bool
	// Clipboard: OSC 52 is known to reach the system clipboard. Copy sends
	// it regardless, as a safety net.
	Clipboard bool
	// Multiplexer is "tmux", "screen", "zellij" or "".
	Multiplexer string
	// MultiplexerVersion is tmux's version when known ("3.4").
	MultiplexerVersion string
	// TermProgram is the terminal's brand in lower case ("kitty",
	// "wezterm", "iterm2", "ghostty", "vscode", "vte", …) or "" if unknown.
	TermProgram string
	// TermVersion is the brand's version when known.
	TermVersion string
	// Term is $TERM.
	Term string
	// SSH: the session runs over ssh.
	SSH bool
	// EmbeddedEditor: inside vim's or neovim's :terminal (libvterm), which
	// does not understand tmux's passthrough envelope.
	EmbeddedEditor bool
	// NoScrollbackClear: the terminal ignores CSI 3 J (libvterm before
	// 0.3, which the terminals of neovim, vim and emacs-libvterm embed),
	// so the inline view must not rely on clearing the scrollback.
	NoScrollbackClear bool
	// TmuxClipboard: tmux's set-clipboard is on, so tmux takes a plain
	// OSC 52 itself (and passes it on to the terminal outside).
	TmuxClipboard bool
	// XTVersion is the raw XTVERSION reply, when a probe got one.
	XTVersion string
}

// brandCaps is what a known terminal brand supports.
type brandCaps struct {
	truecolor, hyperlinks, sync, clipboard bool
}

var brands = map[string]brandCaps{
	"kitty":            {true, true, true, true},
	"wezterm":          {true, true, true, true},
	"ghostty":          {true, true, true, true},
	"foot":             {true, true, true, true},
	"contour":          {true, true, true, true},
	"iterm2":           {true, true, true, true},
	"alacritty":        {true, true, true, true},
	"windows-terminal": {true, true, true, true},
	"vscode":           {true, true, true, true},
	"rio":              {true, true, true, true},
	"konsole":          {true, true, false, false},
	"warp":             {true, false, false, false},
	"tabby":            {true, true, false, true},
	"hyper":            {true, true, false, false},
	"vte":              {true, true, false, false}, // refined by VTE_VERSION
	"xterm":            {false, false, false, true},
	"apple-terminal":   {false, false, false, false},
	"jetbrains":        {false, false, false, false},
	"linux":            {false, false, false, false},
}

// termProgramBrands maps $TERM_PROGRAM (and $LC_TERMINAL, which ssh
// forwards) to a brand.
var termProgramBrands = map[string]string{
	"kitty":           "kitty",
	"wezterm":         "wezterm",
	"ghostty":         "ghostty",
	"iterm.app":       "iterm2",
	"iterm2":          "iterm2",
	"vscode":          "vscode",
	"apple_terminal":  "apple-terminal",
	"alacritty":       "alacritty",
	"rio":             "rio",
	"warpterminal":    "warp",
	"tabby":           "tabby",
	"hyper":           "hyper",
	"contour":         "contour",
	"foot":            "foot",
	"windowsterminal": "windows-terminal",
}

// termBrands maps a $TERM prefix to a brand, for terminals whose own
// terminfo entry is in use.
var termBrands = []struct{ prefix, brand string }{
	{"xterm-kitty", "kitty"},
	{"xterm-ghostty", "ghostty"},
	{"wezterm", "wezterm"},
	{"alacritty", "alacritty"},
	{"foot", "foot"},
	{"contour", "contour"},
	{"rio", "rio"},
	{"linux", "linux"},
}

// DetectCaps decides the terminal's capabilities from environment
// variables only; env is os.Getenv in production and a map in tests. The
// brand variables checked (KITTY_WINDOW_ID, WEZTERM_VERSION,
// ITERM_SESSION_ID, …) survive tmux, where TERM_PROGRAM and COLORTERM are
// often replaced, and LC_TERMINAL survives ssh.
func DetectCaps(env func(string) string) Caps {
	c := Caps{Term: env("TERM")}
	c.SSH = env("SSH_CONNECTION") != "" || env("SSH_CLIENT") != "" || env("SSH_TTY") != ""
	c.EmbeddedEditor = env("NVIM") != "" || env("VIM_TERMINAL") != ""
	c.NoScrollbackClear = c.EmbeddedEditor || env("INSIDE_EMACS") != ""
	switch {
	case env("TMUX") != "":
		c.Multiplexer = "tmux"
		if strings.EqualFold(env("TERM_PROGRAM"), "tmux") {
			c.MultiplexerVersion = env("TERM_PROGRAM_VERSION")
		}
	case env("STY") != "":
		c.Multiplexer = "screen"
	case env("ZELLIJ") != "" || env("ZELLIJ_SESSION_NAME") != "":
		c.Multiplexer = "zellij"
	}
	c.TermProgram, c.TermVersion = detectBrand(env, c.Term)

	dumb := c.Term == "dumb"
	c.BracketedPaste = !dumb
	c.Colors, c.ColorReason = detectColors(env, c, dumb)

	b := brands[c.TermProgram]
	c.Hyperlinks = b.hyperlinks
	c.SyncOutput = b.sync
	c.Clipboard = b.clipboard
	if c.TermProgram == "vte" {
		v, _ := strconv.Atoi(env("VTE_VERSION"))
		c.Hyperlinks = v >= 5000 // VTE 0.50 added OSC 8
	}
	switch c.Multiplexer {
	case "tmux":
		c.applyTmuxVersion()
	case "screen":
		c.Hyperlinks, c.SyncOutput = false, false
	}
	if dumb {
		c.Hyperlinks, c.SyncOutput, c.Clipboard = false, false, false
	}
	return c
}

func detectBrand(env func(string) string, term string) (brand, version string) {
	tp := strings.ToLower(env("TERM_PROGRAM"))
	if b, ok := termProgramBrands[tp]; ok {
		return b, env("TERM_PROGRAM_VERSION")
	}
	switch {
	case env("KITTY_WINDOW_ID") != "":
		return "kitty", ""
	case env("WEZTERM_VERSION") != "" || env("WEZTERM_PANE") != "":
		return "wezterm", env("WEZTERM_VERSION")
	case env("ITERM_SESSION_ID") != "":
		return "iterm2", ""
	case env("GHOSTTY_RESOURCES_DIR") != "" || env("GHOSTTY_BIN_DIR") != "":
		return "ghostty", ""
	case env("ALACRITTY_WINDOW_ID") != "" || env("ALACRITTY_SOCKET") != "":
		return "alacritty", ""
	case env("KONSOLE_VERSION") != "":
		return "konsole", env("KONSOLE_VERSION")
	case env("WT_SESSION") != "":
		return "windows-terminal", ""
	case env("TERMINAL_EMULATOR") == "JetBrains-JediTerm":
		return "jetbrains", ""
	case env("VTE_VERSION") != "":
		return "vte", env("VTE_VERSION")
	case env("XTERM_VERSION") != "":
		return "xterm", env("XTERM_VERSION")
	}
	if b, ok := termProgramBrands[strings.ToLower(env("LC_TERMINAL"))]; ok {
		return b, env("LC_TERMINAL_VERSION")
	}
	for _, tb := range termBrands {
		if strings.HasPrefix(term, tb.prefix) {
			return tb.brand, ""
		}
	}
	return "", ""
}

func detectColors(env func(string) string, c Caps, dumb bool) (render.ColorLevel, string) {
	if env("NO_COLOR") != "" {
		return render.ColorNone, "NO_COLOR"
	}
	if dumb {
		return render.ColorNone, "TERM"
	}
	if ct := strings.ToLower(env("COLORTERM")); ct == "truecolor" || ct == "24bit" {
		return render.ColorTrue, "COLORTERM"
	}
	if strings.HasSuffix(c.Term, "-direct") {
		return render.ColorTrue, "TERM"
	}
	// A known true-colour brand upgrades, except through GNU screen,
	// which mangles 24-bit SGR.
	if b := brands[c.TermProgram]; c.Multiplexer != "screen" {
		truecolor := b.truecolor
		if c.TermProgram == "vte" {
			v, _ := strconv.Atoi(env("VTE_VERSION"))
			truecolor = v >= 3600
		}
		if truecolor {
			return render.ColorTrue, brandVariable(env, c.TermProgram)
		}
	}
	switch {
	case strings.Contains(c.Term, "256color"):
		return render.Color256, "TERM"
	case c.TermProgram == "apple-terminal":
		return render.Color256, "TERM_PROGRAM"
	case c.Term == "":
		return render.Color16, "TERM unset"
	}
	return render.Color16, "TERM"
}

// brandVariable names the variable that identified brand, for Describe.
func brandVariable(env func(string) string, brand string) string {
	for _, v := range []string{"TERM_PROGRAM", "KITTY_WINDOW_ID", "WEZTERM_VERSION", "WEZTERM_PANE",
		"ITERM_SESSION_ID", "GHOSTTY_RESOURCES_DIR", "GHOSTTY_BIN_DIR", "ALACRITTY_WINDOW_ID", "ALACRITTY_SOCKET",
		"KONSOLE_VERSION", "WT_SESSION", "VTE_VERSION", "LC_TERMINAL"} {
		if val := env(v); val != "" {
			if v == "TERM_PROGRAM" || v == "LC_TERMINAL" {
				if termProgramBrands[strings.ToLower(val)] != brand {
					continue
				}
			}
			return v
		}
	}
	return "TERM"
}

// versionAtLeast compares a dotted version ("3.4", "3.3a") with major.minor.
func versionAtLeast(v string, major, minor int) bool {
	a, b, _ := strings.Cut(v, ".")
	maj, err := strconv.Atoi(a)
	if err != nil {
		return false
	}
	end := 0
	for end < len(b) && b[end] >= '0' && b[end] <= '9' {
		end++
	}
	mnr, _ := strconv.Atoi(b[:end])
	return maj > major || maj == major && mnr >= minor
}

// applyTmuxVersion decides what tmux lets through, by its version: OSC 8
// links from 3.4 on (tmux drops them itself when the terminal outside has
// none, so only a brand known to lack them says no), and mode 2026 from
// 3.4 on. An unknown version lets nothing through.
func (c *Caps) applyTmuxVersion() {
	newEnough := versionAtLeast(c.MultiplexerVersion, 3, 4)
	outer, known := brands[c.TermProgram]
	c.Hyperlinks = newEnough && (!known || outer.hyperlinks)
	if !c.SyncProbed {
		c.SyncOutput = newEnough
	}
}

// SyncUnsupported reports whether the terminal is known not to have
// synchronized output: it answered DECRQM so, or it is GNU screen, or
// tmux older than 3.4. Unknown is not unsupported: frames stay bracketed,
// which a terminal without the mode ignores.
func (c Caps) SyncUnsupported() bool {
	switch {
	case c.SyncProbed:
		return !c.SyncOutput
	case c.Multiplexer == "screen":
		return true
	case c.Multiplexer == "tmux" && c.MultiplexerVersion != "":
		return !versionAtLeast(c.MultiplexerVersion, 3, 4)
	}
	return false
}

// ShouldProbeVersion reports whether an XTVERSION query is worth sending:
// directly to a terminal, or to tmux, which answers with its own version
// (what decides what it lets through); not through screen or zellij,
// which swallow it, and not on a dumb terminal.
func (c Caps) ShouldProbeVersion() bool {
	return (c.Multiplexer == "" || c.Multiplexer == "tmux") && c.Term != "dumb" && c.TermProgram != "jetbrains"
}

// applyXTVersion refines c with an XTVERSION reply such as "kitty(0.35.2)",
// "WezTerm 20240203-110809-5046fc22" or "tmux 3.4". Only upgrades: a user's
// NO_COLOR and an explicit brand from the environment stay as they are.
func (c *Caps) applyXTVersion(text string) {
	c.XTVersion = text
	name, version := splitXTVersion(text)
	switch lower := strings.ToLower(name); {
	case lower == "tmux":
		c.Multiplexer, c.MultiplexerVersion = "tmux", version
		c.applyTmuxVersion()
		return
	case strings.HasPrefix(lower, "nvim"), strings.HasPrefix(lower, "vim"), strings.HasPrefix(lower, "libvterm"), strings.HasPrefix(lower, "emacs"):
		// Terminals built on libvterm: no CSI 3 J before libvterm 0.3.
		c.NoScrollbackClear = true
		return
	}
	brand := termProgramBrands[strings.ToLower(name)]
	if brand == "" {
		if _, ok := brands[strings.ToLower(name)]; ok {
			brand = strings.ToLower(name)
		}
	}
	if brand == "" || c.TermProgram != "" {
		return
	}
	c.TermProgram, c.TermVersion = brand, version
	b := brands[brand]
	if b.truecolor && c.Colors != render.ColorNone && c.Colors < render.ColorTrue && c.Multiplexer != "screen" {
		c.Colors, c.ColorReason = render.ColorTrue, "XTVERSION"
	}
	if c.Multiplexer == "" {
		c.Hyperlinks = c.Hyperlinks || b.hyperlinks
		c.Clipboard = c.Clipboard || b.clipboard
		if !c.SyncProbed {
			c.SyncOutput = c.SyncOutput || b.sync
		}
	}
}

func splitXTVersion(text string) (name, version string) {
	if i := strings.IndexByte(text, '('); i > 0 && strings.HasSuffix(text, ")") {
		return text[:i], text[i+1 : len(text)-1]
	}
	name, version, _ = strings.Cut(text, " ")
	return name, version
}
