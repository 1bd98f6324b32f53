package sandbox

import (
	"regexp"
	"sort"
	"strings"

	"github.com/quire-sh/quire/redact"
)

// injectionEnv are variables a command never inherits, under any profile
// and whatever PassEnv says: loader and interpreter hooks that would run
// code in every program the command starts.
var injectionEnv = map[string]bool{
	"LD_PRELOAD": true, "LD_AUDIT": true, "LD_LIBRARY_PATH": true,
	"BASH_ENV": true, "ENV": true, "ZDOTDIR": true, "PROMPT_COMMAND": true,
	"SHELLOPTS": true, "BASHOPTS": true, "PS4": true,
	"NODE_OPTIONS": true, "PYTHONSTARTUP": true, "PYTHONINSPECT": true,
	"PERL5OPT": true, "RUBYOPT": true, "JAVA_TOOL_OPTIONS": true, "_JAVA_OPTIONS": true,
}

// ProviderKeyEnv are the variables holding quire's own API keys. Every
// profile, off included, keeps them from commands; callers add the key
// variable of every configured provider to Profile.SecretEnv.
var ProviderKeyEnv = []string{"OPENAI_API_KEY", "QUIRE_API_KEY"}

// credentialName matches variable names that usually hold a credential,
// word by word (words are separated by "_", so PWD the working directory
// and KEYMAP survive while MYSQL_PWD and STRIPE_KEY do not), plus
// run-together spellings (APIKEY, SECRETKEY, PGPASSWORD, MYTOKEN) and the
// handles to a credential agent.
var credentialName = regexp.MustCompile(`(?i)` +
	`(^|_)(TOKENS?|SECRETS?|PASSWORDS?|PASSWD|PASS|PWD|PASSPHRASE|PW|PAT|KEYS?|CREDENTIALS?|CREDS|AUTH|AUTHTOKEN|COOKIES?|JWT|BEARER|OAUTH|DSN|WEBHOOK|PRIVATE|SALT)($|_)` +
	`|(API|ACCESS|SECRET|PRIVATE|AUTH|SESSION|SIGNING|ENCRYPTION|MASTER|CLIENT)_?KEY` +
	`|(PASSWORD|PASSWD|PASSPHRASE|TOKEN|SECRET)S?$` +
	`|^SSH_AUTH_SOCK$|^GPG_AGENT_INFO$|^CONNECTION_?STRING$|_CONNECTION_?STRING$`)

// credentialValue matches values that are credentials whatever the
// variable is called: URLs carrying a password, private keys, and tokens
// in the formats services issue.
var credentialValue = regexp.MustCompile(`` +
	`[a-zA-Z][a-zA-Z0-9+.-]*://[^/@\s:]*:[^/@\s]+@` + // scheme://user:password@host
	`|-----BEGIN [A-Z ]*PRIVATE KEY-----` +
	`|\b(ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}|\bgithub_pat_[A-Za-z0-9_]{20,}` +
	`|\bglpat-[A-Za-z0-9_-]{16,}|\bxox[abposr]-[A-Za-z0-9-]{10,}` +
	`|\bsk-[A-Za-z0-9_-]{20,}|\b(AKIA|ASIA)[0-9A-Z]{16}\b|\bAIza[0-9A-Za-z_-]{35}` +
	`|\bnpm_[A-Za-z0-9]{36}|\bhf_[A-Za-z0-9]{30,}|\bpypi-[A-Za-z0-9_-]{50,}` +
	`|\b[rs]k_(live|test)_[A-Za-z0-9]{16,}|\bdckr_pat_[A-Za-z0-9_-]{20,}|\bdop_v1_[a-f0-9]{40,}|\bshp(at|ss|ca)_[a-fA-F0-9]{20,}` +
	`|\bhvs\.[A-Za-z0-9_-]{20,}|\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.` +
	`|\bhooks\.slack\.com/services/[A-Za-z0-9/]{10,}`)

// notCredentials are names the word rule would catch but that hold no
// secret and that programs need.
var notCredentials = map[string]bool{"PWD": true, "OLDPWD": true, "XAUTHORITY": true}

// IsCredential is the one rule for what a command's environment must not
// carry under an enforced profile: a variable whose name or value looks
// like a credential, or whose name is in extra (the API key variables of
// quire's providers). Names are compared case-sensitively against extra,
// as the environment does.
func IsCredential(name, value string, extra []string) bool {
	for _, e := range extra {
		if name == e {
			return true
		}
	}
	if notCredentials[name] {
		return false
	}
	return credentialName.MatchString(name) || credentialValue.MatchString(value) || redact.HasSecretQuery(value)
}

// nonInteractiveEnv keeps commands from waiting for a terminal that is not
// there: pagers print, editors succeed at once, prompts fail fast.
var nonInteractiveEnv = []string{
	"PAGER=cat", "GIT_PAGER=cat", "MANPAGER=cat", "SYSTEMD_PAGER=", "LESS=FRX",
	"GIT_EDITOR=true", "GIT_SEQUENCE_EDITOR=true", "EDITOR=true", "VISUAL=true",
	"GIT_TERMINAL_PROMPT=0", "GIT_ASKPASS=", "SSH_ASKPASS=", "GPG_TTY=",
	"DEBIAN_FRONTEND=noninteractive", "TERM=dumb", "NO_COLOR=1", "CLICOLOR=0",
	"PIP_NO_INPUT=1", "npm_config_yes=true", "CI=1",
}

// isInjection reports whether a variable makes every program (or every
// bash) run extra code: the list above, and functions exported to bash.
func isInjection(name string) bool {
	return injectionEnv[name] || strings.HasPrefix(name, "BASH_FUNC_")
}

// CommandEnv returns the environment for a command run under p: base
// (usually os.Environ()) without the injection variables and quire's own
// provider keys, under every enforced profile also without credentials
// (IsCredential, with p.SecretEnv) unless p.PassEnv names them, with the
// non-interactive settings above, and with every tool cache p could not
// write moved into quire's own cache (CacheRoot; see the package
// documentation).
func CommandEnv(base []string, p Profile) []string {
	override := map[string]bool{}
	for _, kv := range nonInteractiveEnv {
		override[kv[:strings.IndexByte(kv, '=')]] = true
	}
	out := make([]string, 0, len(base)+len(nonInteractiveEnv))
	for _, kv := range base {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || override[name] || dropEnv(name, value, p) != "" {
			continue
		}
		out = append(out, kv)
	}
	return append(redirectCaches(out, p), nonInteractiveEnv...)
}

// dropEnv says why the variable is kept from a command under p, or ""
// when it is passed.
func dropEnv(name, value string, p Profile) string {
	switch {
	case isInjection(name):
		return "runs code in every program"
	case contains(p.PassEnv, name):
		return ""
	case contains(p.keyEnv(), name):
		return "quire's API key"
	case p.Enforced && IsCredential(name, value, nil):
		return "looks like a credential"
	}
	return ""
}

// EnvDecision is what CommandEnv does with one variable.
type EnvDecision struct {
	Name   string
	Reason string // why it is dropped; "" when PassEnv passes it on purpose
}

// DroppedEnv lists, sorted by name, the variables of base that a command
// under p does not get, and the credential-looking ones PassEnv lets
// through (with an empty Reason), for `quire doctor`. Values are never
// reported.
func DroppedEnv(base []string, p Profile) []EnvDecision {
	var out []EnvDecision
	for _, kv := range base {
		name, value, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		if r := dropEnv(name, value, p); r != "" {
			out = append(out, EnvDecision{name, r})
		} else if contains(p.PassEnv, name) && !isInjection(name) && IsCredential(name, value, p.keyEnv()) {
			out = append(out, EnvDecision{Name: name})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// keyEnv are the variables holding quire's own API keys.
func (p Profile) keyEnv() []string {
	return append(append([]string(nil), ProviderKeyEnv...), p.SecretEnv...)
}
