package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// PeersDir is where scripts/install-peers put the peer agent UIs.
func PeersDir() string {
	if d := os.Getenv("QUIRE_PEERS_DIR"); d != "" {
		return d
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".cache", "quire-bench-peers")
}

// PeerPrograms are the other agent UIs, each pointed at the scripted
// model the way its own configuration allows. A peer that is not
// installed, or that cannot speak to an OpenAI chat-completions server,
// comes back with Skip saying why.
func PeerPrograms(dir string) []Program {
	root := PeersDir()
	npmBin := func(name string) (string, string) {
		p := filepath.Join(root, "node_modules", ".bin", name)
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Sprintf("not installed (scripts/install-peers puts it in %s)", root)
		}
		return p, ""
	}
	var progs []Program

	claude, skip := npmBin("claude")
	if skip == "" {
		skip = "Claude Code speaks only the Anthropic Messages API (ANTHROPIC_BASE_URL), and the scripted server speaks OpenAI chat completions; it runs once an Anthropic scripted server exists"
	}
	_ = claude
	progs = append(progs, Program{Name: "claude", Mode: "inline", Skip: skip})

	codex, skip := npmBin("codex")
	progs = append(progs, Program{
		Name: "codex", Mode: "inline", Skip: skip,
		Command: func(baseURL, home string) (*exec.Cmd, error) {
			// codex reads its provider from config.toml; recent versions
			// accept only the Responses API and say so on start-up.
			cfg := fmt.Sprintf("model = \"bench-model\"\nmodel_provider = \"bench\"\n"+
				"[model_providers.bench]\nname = \"bench\"\nbase_url = %q\nwire_api = \"chat\"\nenv_key = \"OPENAI_API_KEY\"\n"+
				"[projects.%q]\ntrust_level = \"trusted\"\n", baseURL, filepath.Join(home, "work"))
			if err := writeFile(filepath.Join(home, ".codex", "config.toml"), cfg); err != nil {
				return nil, err
			}
			cmd := exec.Command(codex, "--no-alt-screen")
			cmd.Env = append(baseEnv(home), "OPENAI_API_KEY=bench", "CODEX_HOME="+filepath.Join(home, ".codex"))
			return cmd, nil
		},
		Ready: "context left", Submit: Prompt, Enter: "\r", Quit: "\x03\x03",
	})

	opencode, skip := npmBin("opencode")
	progs = append(progs, Program{
		Name: "opencode", Mode: "fullscreen", Skip: skip,
		Command: func(baseURL, home string) (*exec.Cmd, error) {
			cfg := fmt.Sprintf(`{"provider": {"bench": {"npm": "@ai-sdk/openai-compatible", "name": "bench",
  "options": {"baseURL": %q, "apiKey": "bench"}, "models": {"bench-model": {"name": "bench-model"}}}},
 "model": "bench/bench-model", "autoupdate": false, "share": "disabled"}`, baseURL)
			if err := writeFile(filepath.Join(home, ".config", "opencode", "opencode.json"), cfg); err != nil {
				return nil, err
			}
			cmd := exec.Command(opencode)
			cmd.Env = append(baseEnv(home), "OPENCODE_DISABLE_AUTOUPDATE=true", "OPENCODE_DISABLE_MODELS_FETCH=true")
			return cmd, nil
		},
		Ready: "bench-model", Submit: Prompt, Enter: "\r", Quit: "\x03\x03",
	})

	qwen, skip := npmBin("qwen")
	progs = append(progs, Program{
		Name: "qwen", Mode: "inline", Skip: skip,
		Command: func(baseURL, home string) (*exec.Cmd, error) {
			cmd := exec.Command(qwen)
			cmd.Env = append(baseEnv(home), "OPENAI_API_KEY=bench", "OPENAI_BASE_URL="+baseURL, "OPENAI_MODEL=bench-model")
			return cmd, nil
		},
		Ready: "Type your message", Submit: Prompt, Enter: "\r", Quit: "\x03\x03",
	})

	crush := filepath.Join(root, "bin", "crush")
	skip = ""
	if _, err := os.Stat(crush); err != nil {
		skip = "not built: scripts/install-peers builds it from source through the Go module proxy, which does not serve github.com/charmbracelet/crush here (its npm package downloads a prebuilt binary from outside the registries)"
	}
	progs = append(progs, Program{
		Name: "crush", Mode: "fullscreen", Skip: skip,
		Command: func(baseURL, home string) (*exec.Cmd, error) {
			cfg := fmt.Sprintf(`{"providers": {"bench": {"type": "openai", "base_url": %q, "api_key": "bench",
  "models": [{"id": "bench-model", "name": "bench-model", "context_window": 128000, "default_max_tokens": 4096}]}},
 "models": {"large": {"provider": "bench", "model": "bench-model"}, "small": {"provider": "bench", "model": "bench-model"}}}`, baseURL)
			if err := writeFile(filepath.Join(home, ".config", "crush", "crush.json"), cfg); err != nil {
				return nil, err
			}
			cmd := exec.Command(crush)
			cmd.Env = baseEnv(home)
			return cmd, nil
		},
		Ready: "bench-model", Submit: Prompt, Enter: "\r", Quit: "\x03\x03",
	})
	return progs
}

func writeFile(path, text string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(text), 0o600)
}
