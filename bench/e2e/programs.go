package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
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
func QuirePrograms(bin string) []Program { return quireVariant("quire", bin, nil) }

// quireVariant is QuirePrograms under another name, with env added to
// quire's environment: one build or setting of several compared in the
// same interleaved run (E2E_VARIANTS).
func quireVariant(name, bin string, env []string) []Program {
	mk := func(mode string, args ...string) Program {
		var runs atomic.Int32 // numbers the profiles of successive rounds
		return Program{
			Name: name, Mode: mode,
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
				cmd.Env = append(cmd.Env, env...)
				if prof := os.Getenv("QUIRE_BENCH_CPUPROFILE"); prof != "" {
					// One file per round, so rounds can be pooled
					// (go tool pprof takes several).
					n := runs.Add(1)
					cmd.Env = append(cmd.Env, fmt.Sprintf("QUIRE_CPUPROFILE=%s.%s.%s.%d", prof, name, mode, n))
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

// Variants are the quire builds and settings E2E_VARIANTS names, each
// run beside the others in the same rounds, so that a comparison does not
// depend on how busy the machine was from one run to the next. The list
// is space-separated, each item name=binary, optionally followed by
// settings for quire's environment: "old=/tmp/quire-old
// new=/tmp/quire-new,GOMAXPROCS=1". A binary of "-" is the one under
// test.
func Variants(spec, bin string) ([]Program, error) {
	var progs []Program
	for _, item := range strings.Fields(spec) {
		name, rest, ok := strings.Cut(item, "=")
		if !ok || name == "" {
			return nil, fmt.Errorf("E2E_VARIANTS: %q is not name=binary[,KEY=VALUE...]", item)
		}
		parts := strings.Split(rest, ",")
		b := parts[0]
		if b == "-" {
			b = bin
		}
		progs = append(progs, quireVariant("quire-"+name, b, parts[1:])...)
	}
	return progs, nil
}
