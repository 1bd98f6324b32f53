package term

import (
	"strings"
	"testing"

	"github.com/quire-sh/quire/render"
)

func envOf(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

func TestDetectCaps(t *testing.T) {
	tests := []struct {
		name  string
		env   []string
		check func(t *testing.T, c Caps)
	}{
		{"NO_COLOR beats everything", []string{"NO_COLOR", "1", "COLORTERM", "truecolor", "KITTY_WINDOW_ID", "1", "TERM", "xterm-256color"},
			func(t *testing.T, c Caps) { wantColors(t, c, render.ColorNone, "NO_COLOR") }},
		{"empty NO_COLOR is unset", []string{"NO_COLOR", "", "TERM", "xterm-256color"},
			func(t *testing.T, c Caps) { wantColors(t, c, render.Color256, "TERM") }},
		{"COLORTERM=truecolor", []string{"COLORTERM", "truecolor", "TERM", "xterm-256color"},
			func(t *testing.T, c Caps) { wantColors(t, c, render.ColorTrue, "COLORTERM") }},
		{"COLORTERM=24bit", []string{"COLORTERM", "24bit", "TERM", "xterm"},
			func(t *testing.T, c Caps) { wantColors(t, c, render.ColorTrue, "COLORTERM") }},
		{"xterm-256color", []string{"TERM", "xterm-256color"},
			func(t *testing.T, c Caps) {
				wantColors(t, c, render.Color256, "TERM")
				if c.TermProgram != "" || c.Hyperlinks || c.Multiplexer != "" {
					t.Errorf("plain xterm-256color: %+v", c)
				}
			}},
		{"plain xterm", []string{"TERM", "xterm"}, func(t *testing.T, c Caps) { wantColors(t, c, render.Color16, "TERM") }},
		{"xterm-direct", []string{"TERM", "xterm-direct"}, func(t *testing.T, c Caps) { wantColors(t, c, render.ColorTrue, "TERM") }},
		{"dumb", []string{"TERM", "dumb", "COLORTERM", "truecolor"},
			func(t *testing.T, c Caps) {
				wantColors(t, c, render.ColorNone, "TERM")
				if c.BracketedPaste || c.Hyperlinks || c.ShouldProbeVersion() {
					t.Errorf("dumb terminal claims features: %+v", c)
				}
			}},
		{"kitty var survives tmux", []string{"TERM", "tmux-256color", "TMUX", "/tmp/tmux-1000/default,1,0", "TERM_PROGRAM", "tmux", "TERM_PROGRAM_VERSION", "3.4", "KITTY_WINDOW_ID", "3"},
			func(t *testing.T, c Caps) {
				wantColors(t, c, render.ColorTrue, "KITTY_WINDOW_ID")
				if c.Multiplexer != "tmux" || c.MultiplexerVersion != "3.4" || c.TermProgram != "kitty" {
					t.Errorf("got mux %q %q brand %q", c.Multiplexer, c.MultiplexerVersion, c.TermProgram)
				}
				if !c.Hyperlinks || !c.SyncOutput {
					t.Errorf("tmux 3.4 in kitty should pass links and sync: %+v", c)
				}
				if !c.ShouldProbeVersion() {
					t.Error("tmux answers XTVERSION with its own version; it should be asked")
				}
			}},
		{"tmux 3.4, terminal outside unknown", []string{"TERM", "tmux-256color", "TMUX", "x", "TERM_PROGRAM", "tmux", "TERM_PROGRAM_VERSION", "3.4"},
			func(t *testing.T, c Caps) {
				if !c.Hyperlinks || c.SyncUnsupported() {
					t.Errorf("tmux 3.4 passes OSC 8 and has mode 2026: %+v", c)
				}
			}},
		{"tmux 3.3a: no sync, no links", []string{"TERM", "tmux-256color", "TMUX", "x", "TERM_PROGRAM", "tmux", "TERM_PROGRAM_VERSION", "3.3a"},
			func(t *testing.T, c Caps) {
				if c.Hyperlinks || c.SyncOutput || !c.SyncUnsupported() {
					t.Errorf("tmux 3.3a: %+v", c)
				}
			}},
		{"emacs terminal keeps its scrollback", []string{"TERM", "eterm-color", "INSIDE_EMACS", "29.1,vterm"},
			func(t *testing.T, c Caps) {
				if !c.NoScrollbackClear {
					t.Errorf("INSIDE_EMACS: %+v", c)
				}
			}},
		{"old tmux blocks links", []string{"TERM", "screen-256color", "TMUX", "x", "TERM_PROGRAM", "tmux", "TERM_PROGRAM_VERSION", "3.2a", "WEZTERM_VERSION", "2024"},
			func(t *testing.T, c Caps) {
				wantColors(t, c, render.ColorTrue, "WEZTERM_VERSION")
				if c.Hyperlinks || c.SyncOutput {
					t.Errorf("tmux 3.2a: %+v", c)
				}
			}},
		{"ITERM_SESSION_ID", []string{"TERM", "xterm-256color", "ITERM_SESSION_ID", "w0t0p0"},
			func(t *testing.T, c Caps) {
				wantColors(t, c, render.ColorTrue, "ITERM_SESSION_ID")
				wantBrand(t, c, "iterm2")
			}},
		{"WEZTERM_VERSION", []string{"TERM", "xterm-256color", "WEZTERM_VERSION", "20240203"},
			func(t *testing.T, c Caps) {
				wantColors(t, c, render.ColorTrue, "WEZTERM_VERSION")
				wantBrand(t, c, "wezterm")
			}},
		{"TERM_PROGRAM=iTerm.app", []string{"TERM", "xterm-256color", "TERM_PROGRAM", "iTerm.app"},
			func(t *testing.T, c Caps) {
				wantColors(t, c, render.ColorTrue, "TERM_PROGRAM")
				wantBrand(t, c, "iterm2")
			}},
		{"vscode", []string{"TERM", "xterm-256color", "TERM_PROGRAM", "vscode"},
			func(t *testing.T, c Caps) {
				wantColors(t, c, render.ColorTrue, "TERM_PROGRAM")
				if !c.Hyperlinks {
					t.Error("vscode supports OSC 8")
				}
			}},
		{"apple terminal stays 256", []string{"TERM", "xterm-256color", "TERM_PROGRAM", "Apple_Terminal"},
			func(t *testing.T, c Caps) {
				wantColors(t, c, render.Color256, "TERM")
				if c.Hyperlinks {
					t.Error("Terminal.app has no OSC 8")
				}
			}},
		{"old vte", []string{"TERM", "xterm-256color", "VTE_VERSION", "3405"},
			func(t *testing.T, c Caps) {
				wantColors(t, c, render.Color256, "TERM")
				if c.Hyperlinks {
					t.Error("VTE 0.34 has no OSC 8")
				}
			}},
		{"new vte", []string{"TERM", "xterm-256color", "VTE_VERSION", "7200"},
			func(t *testing.T, c Caps) {
				wantColors(t, c, render.ColorTrue, "VTE_VERSION")
				if !c.Hyperlinks || c.Clipboard {
					t.Errorf("VTE 0.72: links yes, OSC 52 no; got %+v", c)
				}
			}},
		{"xterm-kitty over ssh", []string{"TERM", "xterm-kitty", "SSH_CONNECTION", "1.2.3.4 5 6.7.8.9 22"},
			func(t *testing.T, c Caps) {
				wantColors(t, c, render.ColorTrue, "TERM")
				wantBrand(t, c, "kitty")
				if !c.SSH {
					t.Error("SSH not detected")
				}
			}},
		{"iterm2 over ssh via LC_TERMINAL", []string{"TERM", "xterm-256color", "LC_TERMINAL", "iTerm2", "SSH_TTY", "/dev/pts/1"},
			func(t *testing.T, c Caps) {
				wantColors(t, c, render.ColorTrue, "LC_TERMINAL")
				wantBrand(t, c, "iterm2")
			}},
		{"screen blocks truecolor and links", []string{"TERM", "screen-256color", "STY", "123.pts-1", "KITTY_WINDOW_ID", "1"},
			func(t *testing.T, c Caps) {
				wantColors(t, c, render.Color256, "TERM")
				if c.Multiplexer != "screen" || c.Hyperlinks {
					t.Errorf("screen: %+v", c)
				}
			}},
		{"zellij", []string{"TERM", "xterm-256color", "ZELLIJ", "0"},
			func(t *testing.T, c Caps) {
				if c.Multiplexer != "zellij" || c.ShouldProbeVersion() {
					t.Errorf("zellij: %+v", c)
				}
			}},
		{"nvim terminal inside tmux", []string{"TERM", "xterm-256color", "TMUX", "x", "NVIM", "/run/nvim.sock"},
			func(t *testing.T, c Caps) {
				if !c.EmbeddedEditor || c.Multiplexer != "tmux" {
					t.Errorf("got %+v", c)
				}
			}},
		{"unknown terminal probes", []string{"TERM", "xterm-256color"},
			func(t *testing.T, c Caps) {
				if !c.ShouldProbeVersion() || !c.BracketedPaste {
					t.Errorf("got %+v", c)
				}
			}},
		{"TERM unset", nil, func(t *testing.T, c Caps) { wantColors(t, c, render.Color16, "TERM unset") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.check(t, DetectCaps(envOf(tt.env...))) })
	}
}

func wantColors(t *testing.T, c Caps, level render.ColorLevel, reason string) {
	t.Helper()
	if c.Colors != level || c.ColorReason != reason {
		t.Errorf("colors = %v (from %s), want %v (from %s)", c.Colors, c.ColorReason, level, reason)
	}
}

func wantBrand(t *testing.T, c Caps, brand string) {
	t.Helper()
	if c.TermProgram != brand {
		t.Errorf("brand = %q, want %q", c.TermProgram, brand)
	}
}

func TestApplyXTVersion(t *testing.T) {
	tests := []struct {
		reply, brand, version string
		colors                render.ColorLevel
	}{
		{"kitty(0.35.2)", "kitty", "0.35.2", render.ColorTrue},
		{"WezTerm 20240203-110809-5046fc22", "wezterm", "20240203-110809-5046fc22", render.ColorTrue},
		{"foot(1.16.2)", "foot", "1.16.2", render.ColorTrue},
		{"XTerm(388)", "xterm", "388", render.Color256},
		{"garbage \x01", "", "", render.Color256},
	}
	for _, tt := range tests {
		c := DetectCaps(envOf("TERM", "xterm-256color"))
		c.applyXTVersion(tt.reply)
		if c.TermProgram != tt.brand || c.TermVersion != tt.version || c.Colors != tt.colors {
			t.Errorf("%q: got %q %q %v, want %q %q %v", tt.reply, c.TermProgram, c.TermVersion, c.Colors, tt.brand, tt.version, tt.colors)
		}
	}
	c := DetectCaps(envOf("TERM", "xterm-256color", "NO_COLOR", "1"))
	c.applyXTVersion("kitty(0.35.2)")
	if c.Colors != render.ColorNone {
		t.Error("XTVERSION overrode NO_COLOR")
	}
}

func TestDescribe(t *testing.T) {
	c := DetectCaps(envOf("TERM", "tmux-256color", "TMUX", "x", "TERM_PROGRAM", "tmux", "TERM_PROGRAM_VERSION", "3.4", "KITTY_WINDOW_ID", "1"))
	got := strings.Join(c.Describe(), "\n")
	for _, want := range []string{
		"terminal: kitty (TERM=tmux-256color)",
		"colors: truecolor (from KITTY_WINDOW_ID)",
		"multiplexer: tmux 3.4",
		"hyperlinks (OSC 8): yes",
		"clipboard: OSC 52 in tmux passthrough",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("Describe lacks %q:\n%s", want, got)
		}
	}
}

func TestVersionAtLeast(t *testing.T) {
	tests := []struct {
		v    string
		want bool
	}{{"3.4", true}, {"3.3a", false}, {"3.10", true}, {"4.0", true}, {"2.9", false}, {"", false}, {"next-3.5", false}}
	for _, tt := range tests {
		if got := versionAtLeast(tt.v, 3, 4); got != tt.want {
			t.Errorf("versionAtLeast(%q, 3, 4) = %v", tt.v, got)
		}
	}
}
