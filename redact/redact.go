package redact

import (
	"os"
	"path/filepath"
	"strings"
)

// Mask is what a secret is replaced with.
const Mask = "[REDACTED]"

// Redactor applies the rule set. Its zero value applies every rule except
// the home directory's; build one with New to have the home directory
// replaced by ~ as well. A Redactor is immutable and safe for concurrent
// use.
type Redactor struct {
	home string // clean absolute home directory, "" for none
}

// New returns a Redactor that also replaces the home directory home
// (typically $HOME) by ~ where it starts a path. An empty, relative or
// root home is ignored.
func New(home string) *Redactor {
	r := &Redactor{}
	if home != "" && filepath.IsAbs(home) {
		if h := filepath.Clean(home); h != "/" {
			r.home = h
		}
	}
	return r
}

// match is one secret found in a string: s[start:end] is replaced by repl.
type match struct {
	start, end int
	repl       string
}

// String returns s with every secret the rules find replaced. When
// nothing matches it returns s itself without allocating.
//
// The rules, in the order a match is tried at each anchor:
//   - vendor keys with anchored prefixes: sk-, sk_ (OpenAI, Anthropic,
//     Stripe), xai-, gsk_, hf_, npm_, AWS access key ids (AKIA, ASIA, ...),
//     GitHub (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_), GitLab (glpat-,
//     gldt-, glrt-), Slack (xoxb-, xoxp-, xoxa-, xoxr-, xoxs-, xapp-),
//     Google API keys (AIza);
//   - PEM private key blocks (-----BEGIN ... PRIVATE KEY-----);
//   - Bearer credentials;
//   - JWTs (eyJ....eyJ....sig);
//   - the value of a secret-sounding name assigned with = or :
//     (password, passwd, passphrase, secret, token, api_key, access_key,
//     private_key, secret_key, authorization, ...), quoted or bare;
//   - the value of a secret URL query parameter (token, key, sig,
//     signature, password, secret, X-Amz-Signature, ...);
//   - the password in a URL's user:password@;
//   - the home directory, as ~.
func (r *Redactor) String(s string) string {
	var b *strings.Builder
	last := 0
	for i := 0; i < len(s); i++ {
		if !anchorByte[s[i]] && !(r != nil && r.home != "" && s[i] == '/') {
			continue
		}
		m, ok := r.at(s, i, last)
		if !ok {
			continue
		}
		if b == nil {
			b = &strings.Builder{}
			b.Grow(len(s))
		}
		b.WriteString(s[last:m.start])
		b.WriteString(m.repl)
		last = m.end
		i = max(m.end, i+1) - 1
	}
	if b == nil {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

func (r *Redactor) hasString(s string) bool {
	for i := 0; i < len(s); i++ {
		if !anchorByte[s[i]] && !(r != nil && r.home != "" && s[i] == '/') {
			continue
		}
		if _, ok := r.at(s, i, 0); ok {
			return true
		}
	}
	return false
}

// Contains reports whether s holds something the rules would redact.
func (r *Redactor) Contains(s string) bool { return r.hasString(s) }

// anchorByte marks the bytes a rule can be anchored at.
var anchorByte = func() (t [256]bool) {
	for _, c := range []byte("sxgAhn-Bbe=:") {
		t[c] = true
	}
	return t
}()

// at tries every rule anchored at s[i]. last is where the text not yet
// copied starts: a match may not begin before it.
func (r *Redactor) at(s string, i, last int) (match, bool) {
	var m match
	var ok bool
	switch c := s[i]; c {
	case '=':
		if m, ok = queryParam(s, i); !ok {
			m, ok = assignment(s, i)
		}
	case ':':
		if m, ok = urlPassword(s, i); !ok {
			m, ok = assignment(s, i)
		}
	case '-':
		m, ok = pemBlock(s, i)
	case 'B', 'b':
		m, ok = bearer(s, i)
	case 'e':
		m, ok = jwt(s, i)
	case '/':
		if r != nil && r.home != "" {
			m, ok = homePath(s, i, r.home)
		}
	default:
		m, ok = prefixed(s, i)
	}
	if !ok || m.start < last || m.end <= m.start {
		return match{}, false
	}
	return m, true
}

// ForUser returns the Redactor for the user running quire: the rule set,
// and $HOME (else the account's home directory) replaced by ~.
func ForUser() *Redactor {
	home := os.Getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	return New(home)
}
