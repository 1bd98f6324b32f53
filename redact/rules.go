package redact

import "strings"

// vendor is a key recognised by its prefix: the prefix at a word
// boundary, then a body of at least min bytes of class.
type vendor struct {
	prefix string
	min    int
	class  func(byte) bool
	// digit requires a digit in the body, for prefixes short enough to
	// start ordinary hyphenated words.
	digit bool
	// exact bodies are exactly min bytes and end at a word boundary.
	exact bool
}

// vendors is checked in order; a longer prefix comes before a shorter one
// it starts with.
var vendors = []vendor{
	{prefix: "sk-", min: 20, class: isKeyChar, digit: true},
	{prefix: "sk_", min: 20, class: isKeyChar, digit: true},
	{prefix: "xai-", min: 20, class: isKeyChar, digit: true},
	{prefix: "gsk_", min: 20, class: isAlnum},
	{prefix: "hf_", min: 30, class: isAlnum},
	{prefix: "npm_", min: 36, class: isAlnum},
	{prefix: "github_pat_", min: 22, class: isWord},
	{prefix: "ghp_", min: 30, class: isAlnum},
	{prefix: "gho_", min: 30, class: isAlnum},
	{prefix: "ghu_", min: 30, class: isAlnum},
	{prefix: "ghs_", min: 30, class: isAlnum},
	{prefix: "ghr_", min: 30, class: isAlnum},
	{prefix: "glpat-", min: 20, class: isKeyChar},
	{prefix: "gldt-", min: 20, class: isKeyChar},
	{prefix: "glrt-", min: 20, class: isKeyChar},
	{prefix: "xoxb-", min: 10, class: isKeyChar},
	{prefix: "xoxp-", min: 10, class: isKeyChar},
	{prefix: "xoxa-", min: 10, class: isKeyChar},
	{prefix: "xoxr-", min: 10, class: isKeyChar},
	{prefix: "xoxs-", min: 10, class: isKeyChar},
	{prefix: "xapp-", min: 10, class: isKeyChar},
	{prefix: "AIza", min: 35, class: isKeyChar},
	// AWS access key ids: four letters naming the kind, then 16.
	{prefix: "AKIA", min: 16, class: isUpperDigit, exact: true},
	{prefix: "ASIA", min: 16, class: isUpperDigit, exact: true},
	{prefix: "AGPA", min: 16, class: isUpperDigit, exact: true},
	{prefix: "AIDA", min: 16, class: isUpperDigit, exact: true},
	{prefix: "AROA", min: 16, class: isUpperDigit, exact: true},
	{prefix: "AIPA", min: 16, class: isUpperDigit, exact: true},
	{prefix: "ANPA", min: 16, class: isUpperDigit, exact: true},
	{prefix: "ANVA", min: 16, class: isUpperDigit, exact: true},
	{prefix: "ABIA", min: 16, class: isUpperDigit, exact: true},
	{prefix: "ACCA", min: 16, class: isUpperDigit, exact: true},
}

// vendorsByFirst lists the vendors by the first byte of their prefix.
var vendorsByFirst = func() (t [256][]vendor) {
	for _, v := range vendors {
		t[v.prefix[0]] = append(t[v.prefix[0]], v)
	}
	return t
}()

// prefixed matches a vendor key starting at s[i]; the body is redacted and
// the prefix kept.
func prefixed(s string, i int) (match, bool) {
	if !wordStart(s, i) {
		return match{}, false
	}
	for _, v := range vendorsByFirst[s[i]] {
		if !strings.HasPrefix(s[i:], v.prefix) {
			continue
		}
		j := i + len(v.prefix)
		e := runOf(s, j, v.class)
		n := e - j
		switch {
		case v.exact && (n != v.min || e < len(s) && isWord(s[e])):
			continue
		case n < v.min:
			continue
		case v.digit && !hasDigit(s[j:e]):
			continue
		}
		return match{j, e, Mask}, true
	}
	return match{}, false
}

// pemSearch bounds how far a PEM block's END line is looked for.
const pemSearch = 64 << 10

// pemBlock matches the body of a PEM private key block: everything between
// its BEGIN and END lines. A block cut short (no END, as in truncated
// output) is redacted as far as it looks like one.
func pemBlock(s string, i int) (match, bool) {
	const begin = "-----BEGIN "
	if !strings.HasPrefix(s[i:], begin) {
		return match{}, false
	}
	j := i + len(begin)
	k := j
	for k < len(s) && (isUpperDigit(s[k]) || s[k] == ' ') {
		k++
	}
	if !strings.HasSuffix(s[j:k], "PRIVATE KEY") || !strings.HasPrefix(s[k:], "-----") {
		return match{}, false
	}
	body := k + len("-----")
	rest := s[body:min(len(s), body+pemSearch)]
	end := -1
	if e := strings.Index(rest, "-----END "); e >= 0 {
		end = body + e
	} else {
		end = body
		for end < len(s) && isPEMBodyChar(s[end]) {
			end++
		}
	}
	if end <= body || s[body:end] == Mask {
		return match{}, false
	}
	return match{body, end, Mask}, true
}

func isPEMBodyChar(c byte) bool {
	return isAlnum(c) || strings.IndexByte("+/=\\:,- \t\r\n", c) >= 0
}

// bearer matches the credential after the word Bearer.
func bearer(s string, i int) (match, bool) {
	if !wordStart(s, i) || !hasPrefixFold(s[i:], "bearer") {
		return match{}, false
	}
	j := i + len("bearer")
	k := j
	for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
		k++
	}
	if k == j {
		return match{}, false
	}
	e := runOf(s, k, isTokenChar)
	tok := s[k:e]
	if len(tok) < 12 || !hasDigitOrSymbol(tok) {
		return match{}, false
	}
	return match{k, e, Mask}, true
}

// jwt matches a JSON web token: header.payload.signature, the first two
// base64url-encoded JSON objects (so both start eyJ).
func jwt(s string, i int) (match, bool) {
	if !wordStart(s, i) || !strings.HasPrefix(s[i:], "eyJ") {
		return match{}, false
	}
	a := runOf(s, i, isB64URL)
	if a-i < 10 || a >= len(s) || s[a] != '.' || !strings.HasPrefix(s[a+1:], "eyJ") {
		return match{}, false
	}
	b := runOf(s, a+1, isB64URL)
	if b-(a+1) < 10 || b >= len(s) || s[b] != '.' {
		return match{}, false
	}
	return match{i, runOf(s, b+1, isB64URL), Mask}, true
}

// secretNames are the endings of names whose value is a secret, compared
// without case: DB_PASSWORD, apiKey, X-Api-Key, --token, aws_secret_access_key.
var secretNames = []string{
	"password", "passwd", "passphrase", "secret", "token",
	"apikey", "api_key", "api-key", "accesskey", "access_key", "access-key",
	"secretkey", "secret_key", "secret-key", "privatekey", "private_key", "private-key",
	"signingkey", "signing_key", "encryptionkey", "encryption_key", "masterkey", "master_key",
	"authorization",
}

func secretName(name string) bool {
	for _, n := range secretNames {
		if hasSuffixFold(name, n) {
			return true
		}
	}
	return false
}

// notSecrets are bare or quoted values that name a type, a constant or
// the key itself rather than hold a secret.
var notSecrets = []string{
	"true", "false", "null", "none", "nil", "undefined", "yes", "no", "on", "off",
	"string", "str", "bytes", "int", "bool", "required", "optional", "empty",
	"secret", "password", "token", "redacted",
}

func notSecret(v string) bool {
	for _, n := range notSecrets {
		if len(v) == len(n) && hasPrefixFold(v, n) {
			return true
		}
	}
	return false
}

// assignment matches the value given to a secret-sounding name with = or :
// (also :=), quoted or bare.
func assignment(s string, i int) (match, bool) {
	sep, after := i, i+1
	if s[i] == '=' {
		if i+1 < len(s) && (s[i+1] == '=' || s[i+1] == '>' || s[i+1] == '~') {
			return match{}, false // ==, =>, =~
		}
		if i > 0 && strings.IndexByte("=!<>+-*/%&|^:~", s[i-1]) >= 0 {
			return match{}, false // !=, <=, +=, ... and := (handled at the colon)
		}
	} else {
		if i+1 < len(s) && (s[i+1] == ':' || s[i+1] == '/') {
			return match{}, false // ::, ://
		}
		if i > 0 && s[i-1] == ':' {
			return match{}, false
		}
		if i+1 < len(s) && s[i+1] == '=' {
			after = i + 2
		}
	}
	k := sep
	for k > 0 && (s[k-1] == ' ' || s[k-1] == '\t') {
		k--
	}
	spacedBefore := k < sep
	if k > 0 && (s[k-1] == '"' || s[k-1] == '\'') {
		k--
	}
	nameEnd := k
	for k > 0 && isNameChar(s[k-1]) {
		k--
	}
	name := s[k:nameEnd]
	if name == "" || !secretName(name) {
		return match{}, false
	}
	j := after
	for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
		j++
	}
	if j >= len(s) {
		return match{}, false
	}
	spaced := spacedBefore || j > after
	if hasSuffixFold(name, "authorization") {
		return authorization(s, j)
	}
	if q := s[j]; q == '"' || q == '\'' || q == '`' {
		e := closingQuote(s, j)
		if e < 0 || !quotedSecret(s[j+1:e]) {
			return match{}, false
		}
		return match{j + 1, e, Mask}, true
	}
	e := j
	for e < len(s) && !isBareStop(s[e]) {
		e++
	}
	v := s[j:e]
	env := s[sep] == '=' && !spaced && (!hasLower(name) || lineEnds(s, e))
	if !bareSecret(v, env) {
		return match{}, false
	}
	return match{j, e, Mask}, true
}

// authorization matches the credential of an Authorization value, keeping
// its scheme: "Bearer x", "Basic x", "token x", or a bare credential.
func authorization(s string, j int) (match, bool) {
	start, end := j, -1
	if q := s[j]; q == '"' || q == '\'' {
		start, end = j+1, closingQuote(s, j)
	} else {
		end = j
		for end < len(s) && strings.IndexByte("\n\r'\"`", s[end]) < 0 {
			end++
		}
	}
	if end <= start {
		return match{}, false
	}
	v := s[start:end]
	if w := runOf(v, 0, isAlpha); w > 0 && w < len(v) && (v[w] == ' ' || v[w] == '\t') {
		k := w
		for k < len(v) && (v[k] == ' ' || v[k] == '\t') {
			k++
		}
		start += k
		v = v[k:]
	}
	v = strings.TrimRight(v, " \t")
	if v == "" || v == Mask || isPlaceholder(v) {
		return match{}, false
	}
	return match{start, start + len(v), Mask}, true
}

// quotedSecret reports whether a quoted value holds a secret rather than
// a placeholder, a reference, a type name or a sentence.
func quotedSecret(v string) bool {
	if v == "" || v == Mask || isPlaceholder(v) || notSecret(v) {
		return false
	}
	return strings.Count(v, " ") <= 3
}

// bareSecret reports whether an unquoted value is a literal secret rather
// than an expression. env is set for KEY=value with nothing around the =
// (a .env file, a shell assignment, a command-line flag), where any
// literal counts.
func bareSecret(v string, env bool) bool {
	if v == "" || v == Mask || notSecret(v) || strings.IndexByte("$%{<([*@&#!?\\", v[0]) >= 0 {
		return false
	}
	if strings.ContainsAny(v, "([") {
		return false // a call or an index: code
	}
	if allDigits(v) && len(v) < 8 {
		return false // a count, a port, a small number
	}
	if env {
		return true
	}
	return hasDigit(v) || strings.ContainsAny(v, "!@#$%^&*+=~?|:")
}

// isPlaceholder reports values that stand for a secret without being one:
// $VAR, ${VAR}, {{ var }}, <your-key>, %s.
func isPlaceholder(v string) bool {
	switch {
	case v[0] == '$' || v[0] == '%':
		return true
	case strings.HasPrefix(v, "{{"):
		return true
	case v[0] == '<' && v[len(v)-1] == '>':
		return true
	}
	return false
}

// closingQuote finds the quote closing the one at s[j] on the same line,
// skipping backslash escapes; -1 if there is none.
func closingQuote(s string, j int) int {
	q := s[j]
	for k := j + 1; k < len(s); k++ {
		switch s[k] {
		case '\\':
			k++
		case q:
			return k
		case '\n':
			return -1
		}
	}
	return -1
}

func isBareStop(c byte) bool {
	return c <= ' ' || strings.IndexByte("\"'`,;)]}&", c) >= 0
}

// lineEnds reports whether only spaces follow s[e] on its line.
func lineEnds(s string, e int) bool {
	for ; e < len(s); e++ {
		switch s[e] {
		case '\n', '\r':
			return true
		case ' ', '\t':
		default:
			return false
		}
	}
	return true
}

// secretParams are URL query parameters whose value is a secret.
var secretParams = []string{
	"token", "access_token", "refresh_token", "id_token", "auth", "auth_token", "authorization",
	"key", "api_key", "apikey", "api-key", "sig", "signature", "password", "passwd", "pass", "pwd",
	"secret", "client_secret", "x-amz-signature", "x-amz-credential", "x-amz-security-token",
	"x-goog-signature", "x-goog-credential",
}

// secretParamEnds are endings that make any parameter secret when a
// separator comes before them (upload_token, session-key).
var secretParamEnds = []string{"token", "key", "secret", "signature", "password"}

func secretParam(name string) bool {
	for _, p := range secretParams {
		if len(name) == len(p) && hasPrefixFold(name, p) {
			return true
		}
	}
	for _, p := range secretParamEnds {
		if n := len(name) - len(p); n > 0 && hasSuffixFold(name, p) && strings.IndexByte("_-.", name[n-1]) >= 0 {
			return true
		}
	}
	return false
}

// queryParam matches the value of a secret URL query parameter: the = of
// ?token=... or &sig=... (also &amp;sig=...).
func queryParam(s string, i int) (match, bool) {
	k := i
	for k > 0 && isNameChar(s[k-1]) {
		k--
	}
	if k == i || k == 0 {
		return match{}, false
	}
	if c := s[k-1]; c != '?' && c != '&' && !(c == ';' && strings.HasSuffix(s[:k], "&amp;")) {
		return match{}, false
	}
	if !secretParam(s[k:i]) {
		return match{}, false
	}
	e := i + 1
	for e < len(s) && !isQueryStop(s[e]) {
		e++
	}
	if e == i+1 || s[i+1:e] == Mask || s[i+1] == '$' || s[i+1] == '{' {
		return match{}, false
	}
	return match{i + 1, e, Mask}, true
}

func isQueryStop(c byte) bool { return c <= ' ' || strings.IndexByte("&#\"'<>`", c) >= 0 }

// urlPassword matches the password of scheme://user:password@host.
func urlPassword(s string, i int) (match, bool) {
	if !strings.HasPrefix(s[i:], "://") || i == 0 || !isAlpha(s[i-1]) {
		return match{}, false
	}
	j := i + 3
	e := j
	for e < len(s) && !isAuthorityStop(s[e]) {
		e++
	}
	at := strings.LastIndexByte(s[j:e], '@')
	if at < 0 {
		return match{}, false
	}
	c := strings.IndexByte(s[j:j+at], ':')
	if c < 0 {
		return match{}, false
	}
	pw := s[j+c+1 : j+at]
	if pw == "" || pw == Mask || isPlaceholder(pw) {
		return match{}, false
	}
	return match{j + c + 1, j + at, Mask}, true
}

func isAuthorityStop(c byte) bool { return c <= ' ' || strings.IndexByte("/?#\"'<>`", c) >= 0 }

// homePath matches the home directory where it starts a path.
func homePath(s string, i int, home string) (match, bool) {
	if !strings.HasPrefix(s[i:], home) {
		return match{}, false
	}
	if i > 0 && isPathNameChar(s[i-1]) {
		return match{}, false
	}
	e := i + len(home)
	if e < len(s) && isPathNameChar(s[e]) {
		return match{}, false // /home/bob is not /home/bobby
	}
	return match{i, e, "~"}, true
}

func isPathNameChar(c byte) bool { return isWord(c) || c == '.' || c == '-' || c == '~' }

// Byte classes.

func isAlpha(c byte) bool      { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isDigit(c byte) bool      { return c >= '0' && c <= '9' }
func isAlnum(c byte) bool      { return isAlpha(c) || isDigit(c) }
func isWord(c byte) bool       { return isAlnum(c) || c == '_' }
func isKeyChar(c byte) bool    { return isWord(c) || c == '-' }
func isB64URL(c byte) bool     { return isKeyChar(c) }
func isNameChar(c byte) bool   { return isWord(c) || c == '-' || c == '.' }
func isUpperDigit(c byte) bool { return c >= 'A' && c <= 'Z' || isDigit(c) }
func isTokenChar(c byte) bool  { return isKeyChar(c) || strings.IndexByte("._~+/=", c) >= 0 }

func wordStart(s string, i int) bool { return i == 0 || !isWord(s[i-1]) }

func runOf(s string, i int, in func(byte) bool) int {
	for i < len(s) && in(s[i]) {
		i++
	}
	return i
}

func hasDigit(s string) bool {
	for i := 0; i < len(s); i++ {
		if isDigit(s[i]) {
			return true
		}
	}
	return false
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

func hasLower(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 'a' && s[i] <= 'z' {
			return true
		}
	}
	return false
}

func hasDigitOrSymbol(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isAlpha(s[i]) {
			return true
		}
	}
	return false
}

// hasPrefixFold is strings.HasPrefix ignoring ASCII case; prefix is lower case.
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != prefix[i] {
			return false
		}
	}
	return true
}

// hasSuffixFold is strings.HasSuffix ignoring ASCII case; suffix is lower case.
func hasSuffixFold(s, suffix string) bool {
	return len(s) >= len(suffix) && hasPrefixFold(s[len(s)-len(suffix):], suffix)
}

// HasSecretQuery reports whether s holds a URL query parameter whose
// value is a secret (?password=…, &sig=…), the rule a Redactor applies: for the
// sandbox, which keeps a variable holding such a URL from commands.
func HasSecretQuery(s string) bool {
	for i := strings.IndexByte(s, '='); i >= 0; {
		if _, ok := queryParam(s, i); ok {
			return true
		}
		j := strings.IndexByte(s[i+1:], '=')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}
