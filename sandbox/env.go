package sandbox

import (
	"regexp"
	"strings"
)

// droppedEnv are variables a command never inherits: loader and
// interpreter injection hooks (they would run code in every program the
// command starts) and quire's own credentials.
var droppedEnv = map[string]bool{
	"LD_PRELOAD": true, "LD_AUDIT": true, "LD_LIBRARY_PATH": true,
	"BASH_ENV": true, "ENV": true, "ZDOTDIR": true, "PROMPT_COMMAND": true,
	"SHELLOPTS": true, "BASHOPTS": true, "PS4": true,
	"NODE_OPTIONS": true, "PYTHONSTARTUP": true, "PYTHONINSPECT": true,
	"PERL5OPT": true, "RUBYOPT": true, "JAVA_TOOL_OPTIONS": true, "_JAVA_OPTIONS": true,
	"OPENAI_API_KEY": true, "QUIRE_API_KEY": true,
}

// secretEnv matches variable names that usually hold credentials; the
// strict profile drops them too, with SSH_AUTH_SOCK and GPG_AGENT_INFO.
var secretEnv = regexp.MustCompile(`(?i)(TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_?KEY|CREDENTIAL|PRIVATE_?KEY|^SSH_AUTH_SOCK$|^GPG_AGENT_INFO$)`)

// nonInteractiveEnv keeps commands from waiting for a terminal that is not
// there: pagers print, editors succeed at once, prompts fail fast.
var nonInteractiveEnv = []string{
	"PAGER=cat", "GIT_PAGER=cat", "MANPAGER=cat", "SYSTEMD_PAGER=", "LESS=FRX",
	"GIT_EDITOR=true", "GIT_SEQUENCE_EDITOR=true", "EDITOR=true", "VISUAL=true",
	"GIT_TERMINAL_PROMPT=0", "GIT_ASKPASS=", "SSH_ASKPASS=", "GPG_TTY=",
	"DEBIAN_FRONTEND=noninteractive", "TERM=dumb", "NO_COLOR=1", "CLICOLOR=0",
	"PIP_NO_INPUT=1", "npm_config_yes=true", "CI=1",
}

// CommandEnv returns the environment for a command run under p: base
// (usually os.Environ()) without the dropped variables, with the
// non-interactive settings above, under strict without variables that look
// like credentials, and with every tool cache p could not write moved into
// quire's own cache (CacheRoot; see the package documentation).
func CommandEnv(base []string, p Profile) []string {
	override := map[string]bool{}
	for _, kv := range nonInteractiveEnv {
		override[kv[:strings.IndexByte(kv, '=')]] = true
	}
	out := make([]string, 0, len(base)+len(nonInteractiveEnv))
	for _, kv := range base {
		name, _, ok := strings.Cut(kv, "=")
		if !ok || droppedEnv[name] || override[name] {
			continue
		}
		if p.Name == Strict && secretEnv.MatchString(name) {
			continue
		}
		out = append(out, kv)
	}
	return append(redirectCaches(out, p), nonInteractiveEnv...)
}

// CredentialName reports whether an environment variable's name looks
// like it holds a credential: the variables the strict profile drops
// from every command's environment.
func CredentialName(name string) bool { return secretEnv.MatchString(name) }
