package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Prompt is what every program is asked; the scripted model ignores it.
const Prompt = "Explain how to read a large log file in Go without running out of memory."

// baseEnv is the environment every program starts with: a private home,
// a known terminal, a UTF-8 locale, and nothing of the harness's own.
func baseEnv(home string) []string {
	return []string{
		"HOME=" + home,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_STATE_HOME=" + filepath.Join(home, "state"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"TERM=xterm-256color",
		"COLORTERM=truecolor",
		"LANG=C.UTF-8",
		"PATH=" + os.Getenv("PATH"),
	}
}

// QuirePrograms are quire full-screen and quire --minimal, run from bin.
func QuirePrograms(bin string) []Program {
	mk := func(mode string, args ...string) Program {
		return Program{
			Name: "quire", Mode: mode,
			Command: func(baseURL, home string) (*exec.Cmd, error) {
				// E2E_WRAP runs quire under a tool, for a profile
				// ("perf record -g -o quire.perf --").
				argv := append(strings.Fields(os.Getenv("E2E_WRAP")), bin)
				cmd := exec.Command(argv[0], append(argv[1:], args...)...)
				cmd.Env = append(baseEnv(home),
					"QUIRE_HOME="+filepath.Join(home, "state", "quire"),
					"OPENAI_BASE_URL="+baseURL,
					"OPENAI_API_KEY=bench",
					"QUIRE_MODEL=bench-model",
				)
				// E2E_QUIRE_ENV adds settings for an experiment
				// ("QUIRE_DRAW_INTERVAL_MS=50 QUIRE_THEME=light").
				cmd.Env = append(cmd.Env, strings.Fields(os.Getenv("E2E_QUIRE_ENV"))...)
				if prof := os.Getenv("QUIRE_BENCH_CPUPROFILE"); prof != "" {
					cmd.Env = append(cmd.Env, "QUIRE_CPUPROFILE="+prof+"."+mode)
				}
				return cmd, nil
			},
			Ready:  "Ask anything",
			Submit: Prompt, Enter: "\r",
			// Ctrl+C on an empty prompt arms quitting; the second quits.
			Quit: "\x03\x03",
		}
	}
	return []Program{mk("fullscreen"), mk("inline", "--minimal")}
}
