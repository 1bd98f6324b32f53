package redact

import (
	"strings"
	"testing"
)

// The keys below are made up for these tests; they only have the shape of
// real ones.
const (
	openaiKey    = "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"
	anthropicKey = "sk-ant-api03-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe"
	awsID        = "AKIAQ3EXAMPLE7ZZ4TQA"
	ghToken      = "ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R"
	jwtToken     = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
)

func TestRedactsSecrets(t *testing.T) {
	r := New("/home/alice")
	cases := []struct{ name, in, want string }{
		{"openai key", "export OPENAI_API_KEY=" + openaiKey, "export OPENAI_API_KEY=[REDACTED]"},
		{"openai key in prose", "the key is " + openaiKey + ".", "the key is sk-[REDACTED]."},
		{"anthropic key", "key: '" + anthropicKey + "'", "key: 'sk-[REDACTED]'"},
		{"stripe key", "stripe sk_live_4eC39HqLyjWDarjtT1zdp7dc", "stripe sk_[REDACTED]"},
		{"xai key", "xai-Qw3rTy7uIoP1aSdF5gHjK9lZ", "xai-[REDACTED]"},
		{"groq key", "gsk_8fJ2kL0pQ4rT6vX9zB1nM3cV5bN7mQ2wE4rT6y", "gsk_[REDACTED]"},
		{"aws key id", "aws_access_key_id " + awsID + " in use", "aws_access_key_id AKIA[REDACTED] in use"},
		{"aws session id", "ASIAY34FZKBOKMUTVV7A", "ASIA[REDACTED]"},
		{"github token", "git clone https://" + ghToken + "@github.com/x/y", "git clone https://ghp_[REDACTED]@github.com/x/y"},
		{"github fine-grained", "github_pat_11ABCDEFG0abcdefghijkl_mnopqrstuvwxyz0123456789ABCDEF", "github_pat_[REDACTED]"},
		{"gitlab token", "glpat-xY7zK2mN9pQ4rS6tU8vW", "glpat-[REDACTED]"},
		{"slack bot token", "SLACK=xoxb-123456789012-abcdefghijkl", "SLACK=xoxb-[REDACTED]"},
		{"slack user token in prose", "use xoxp-1234-5678-abcdefgh now", "use xoxp-[REDACTED] now"},
		{"slack app token", "xapp-1-A0123-4567-abcdef", "xapp-[REDACTED]"},
		{"google key", "AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY", "AIza[REDACTED]"},
		{"bearer header", "curl -H 'Authorization: Bearer abc.DEF-123_xyz~789'", "curl -H 'Authorization: Bearer [REDACTED]'"},
		{"bearer alone", "bearer abcDEF0123456789xyz", "bearer [REDACTED]"},
		{"basic auth header", "Authorization: Basic dXNlcjpwYXNzd29yZA==", "Authorization: Basic [REDACTED]"},
		{"json auth header", `{"Authorization": "token 0123456789abcdef"}`, `{"Authorization": "token [REDACTED]"}`},
		{"jwt", "cookie=" + jwtToken, "cookie=[REDACTED]"},
		{"jwt in prose", "got " + jwtToken + " back", "got [REDACTED] back"},
		{"password env", "DB_PASSWORD=hunter", "DB_PASSWORD=[REDACTED]"},
		{"password digits", "password = hunter2", "password = [REDACTED]"},
		{"api_key yaml", "api_key: AbCd1234EfGh", "api_key: [REDACTED]"},
		{"secret quoted", `secret = "correct horse battery staple"`, `secret = "[REDACTED]"`},
		{"json password", `{"user":"bob","password":"p4ss!"}`, `{"user":"bob","password":"[REDACTED]"}`},
		{"header api key", "X-Api-Key: 9f8e7d6c5b4a", "X-Api-Key: [REDACTED]"},
		{"flag token", "tool --token=abc123def --verbose", "tool --token=[REDACTED] --verbose"},
		{"aws secret", "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws_secret_access_key = [REDACTED]"},
		{"go short assign", `apiKey := "k3y-from-code"`, `apiKey := "[REDACTED]"`},
		{"query token", "GET https://api.example.com/v1/items?token=abc123&page=2", "GET https://api.example.com/v1/items?token=[REDACTED]&page=2"},
		{"query key", "https://maps.example.com/js?v=3&key=Zm9vYmFy", "https://maps.example.com/js?v=3&key=[REDACTED]"},
		{"query sig", "https://b.blob.example.net/c/f?sv=2020&sig=AbC%2FdEf%3D&se=2030", "https://b.blob.example.net/c/f?sv=2020&sig=[REDACTED]&se=2030"},
		{"query amz", "?X-Amz-Credential=AK%2F20240101&X-Amz-Signature=deadbeef", "?X-Amz-Credential=[REDACTED]&X-Amz-Signature=[REDACTED]"},
		{"query html", `<a href="/x?a=1&amp;access_token=q1w2e3">`, `<a href="/x?a=1&amp;access_token=[REDACTED]">`},
		{"url password", "postgres://app:s3cr3t@db.internal:5432/prod", "postgres://app:[REDACTED]@db.internal:5432/prod"},
		{"home path", "open /home/alice/src/quire/main.go", "open ~/src/quire/main.go"},
		{"home itself", "cd /home/alice", "cd ~"},
		{"home in quotes", `"/home/alice/.ssh/id_ed25519"`, `"~/.ssh/id_ed25519"`},
		{"pem block", "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8\n-----END RSA PRIVATE KEY-----\n",
			"-----BEGIN RSA PRIVATE KEY-----[REDACTED]-----END RSA PRIVATE KEY-----\n"},
		{"pem in json", `{"private_key": "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg\n-----END PRIVATE KEY-----\n"}`,
			`{"private_key": "-----BEGIN PRIVATE KEY-----[REDACTED]-----END PRIVATE KEY-----\n"}`},
		{"pem cut short", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\nAAAABG5vbmUAAAAE\n[… output truncated …]",
			"-----BEGIN OPENSSH PRIVATE KEY-----[REDACTED][… output truncated …]"},
		{"two secrets", "a=1 token=zz9 b=" + awsID, "a=1 token=[REDACTED] b=AKIA[REDACTED]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := r.String(c.in); got != c.want {
				t.Errorf("String(%q)\n got %q\nwant %q", c.in, got, c.want)
			}
			if !r.Contains(c.in) {
				t.Errorf("Contains(%q) = false", c.in)
			}
		})
	}
}

func TestLeavesOrdinaryTextAlone(t *testing.T) {
	r := New("/home/alice")
	cases := []struct{ name, in string }{
		{"sk- inside words", "task-runner disk-usage risk-assessment-for-the-quarterly-review-2024"},
		{"sk- short", "pip install sk-video"},
		{"sk- without digits", "sk-learn-preprocessing-pipeline-steps"},
		{"underscore words", "ask_user_for_input_and_wait_for_reply_1234 desk_lamp_brightness_level"},
		{"base64 blob", "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="},
		{"sha", "commit 3f786850e387550fdab836ed7e6dc881de23001b"},
		{"key value config", "key = value\nname = quire\nmax_tokens = 4096\ntimeout = 30"},
		{"keymap", `key = "ctrl+c"`},
		{"python expressions", "password = getpass.getpass()\ntoken = self.next_token()\napi_key = os.environ[\"API_KEY\"]\nsecret = None"},
		{"python annotations", "def login(user: str, password: str, token: Optional[str] = None) -> bool:"},
		{"typescript", "interface Auth { token: string; secret?: boolean }"},
		{"go struct", "Password: cfg.Password,\nToken: t.Token,\ntoken := p.next()"},
		{"go tag", "Token string `json:\"token\"`"},
		{"comparisons", "if token == nil || password != other { token += x }"},
		{"c code", "token=next;"},
		{"placeholders", "OPENAI_API_KEY=$OPENAI_API_KEY\ntoken: ${{ secrets.GITHUB_TOKEN }}\npassword: \"{{ vault_password }}\"\napi_key: <your-api-key>"},
		{"bearer prose", "Bearer authentication sends the bearer token in a header."},
		{"bearer variable", `curl -H "Authorization: Bearer $TOKEN"`},
		{"jwt-ish", "eyJhbGci is how a JWT header starts"},
		{"aws-ish", "AKIAFOO is not a key; neither is AKIA0123456789ABCDEFGH"},
		{"google-ish", "AIzaShortKey"},
		{"url without password", "https://user@example.com/path?q=tokens&page=2&monkey=banana"},
		{"other homes", "/home/alicebob/x /home/bob/y /srv/home/alice/z"},
		{"yaml kind", "kind: Secret\nmetadata:\n  name: api-token"},
		{"pem public", "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkq\n-----END PUBLIC KEY-----"},
		{"prose", "The token expires after an hour; rotate the secret: it is not shared."},
		{"help string", `token: "The API token used to authenticate every request"`},
		{"small numbers", "token: 0\nsecret_version: 3"},
		{"already redacted", "password=[REDACTED] sk-[REDACTED] Authorization: Bearer [REDACTED]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := r.String(c.in); got != c.in {
				t.Errorf("String changed ordinary text\n  in %q\n got %q", c.in, got)
			}
			if r.Contains(c.in) {
				t.Errorf("Contains(%q) = true", c.in)
			}
		})
	}
}

func TestHomeOnlyWhenKnown(t *testing.T) {
	for _, home := range []string{"", "/", "relative/dir"} {
		r := New(home)
		in := "/home/alice/x " + home
		if got := r.String(in); got != in {
			t.Errorf("New(%q).String(%q) = %q", home, in, got)
		}
	}
	var zero Redactor
	if got := zero.String("k: " + awsID); got != "k: AKIA[REDACTED]" {
		t.Errorf("zero Redactor: %q", got)
	}
	var nilR *Redactor
	if got := nilR.String("k: " + awsID); got != "k: AKIA[REDACTED]" {
		t.Errorf("nil Redactor: %q", got)
	}
}

func TestIdempotent(t *testing.T) {
	r := New("/home/alice")
	in := "token=" + openaiKey + " " + jwtToken + " /home/alice -----BEGIN EC PRIVATE KEY-----\nabc\n-----END EC PRIVATE KEY----- Authorization: Bearer abc123def456ghi"
	once := r.String(in)
	if twice := r.String(once); twice != once {
		t.Errorf("not idempotent:\n once %q\ntwice %q", once, twice)
	}
}

func TestNoMatchDoesNotAllocate(t *testing.T) {
	r := New("/home/alice")
	text := strings.Repeat("func (s *Server) handle(w http.ResponseWriter, req *http.Request) { key := req.URL.Query().Get(\"q\"); if key == \"\" { return } }\n", 200)
	var out string
	allocs := testing.AllocsPerRun(100, func() { out = r.String(text) })
	if allocs != 0 {
		t.Errorf("String allocated %.1f times on text without a secret", allocs)
	}
	if out != text {
		t.Error("String changed text without a secret")
	}
}

func BenchmarkRedactNoMatch(b *testing.B) {
	r := New("/home/alice")
	text := strings.Repeat("func (s *Server) handle(w http.ResponseWriter, req *http.Request) { key := req.URL.Query().Get(\"q\"); if key == \"\" { return } }\n", 256)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		_ = r.String(text)
	}
}

func BenchmarkRedactOneMatch(b *testing.B) {
	r := New("/home/alice")
	text := strings.Repeat("func (s *Server) handle(w http.ResponseWriter, req *http.Request) { key := req.URL.Query().Get(\"q\"); if key == \"\" { return } }\n", 256) + "OPENAI_API_KEY=" + openaiKey + "\n"
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		_ = r.String(text)
	}
}

func FuzzRedact(f *testing.F) {
	for _, s := range []string{
		"export OPENAI_API_KEY=" + openaiKey, jwtToken, awsID, ghToken, "password: \"x y\"",
		"https://u:p@h/?token=a&sig=b", "-----BEGIN RSA PRIVATE KEY-----\nAAA\n-----END RSA PRIVATE KEY-----",
		"Authorization: Bearer abcdef0123456789", "/home/alice/x", "key = value", "token := \"abc\"",
	} {
		f.Add(s)
	}
	r := New("/home/alice")
	f.Fuzz(func(t *testing.T, s string) {
		once := r.String(s)
		if twice := r.String(once); twice != once {
			t.Fatalf("not idempotent:\n   in %q\n once %q\ntwice %q", s, once, twice)
		}
		if once == s && r.Contains(s) {
			t.Fatalf("Contains(%q) but String left it unchanged", s)
		}
		if once != s && !r.Contains(s) {
			t.Fatalf("String changed %q to %q but Contains is false", s, once)
		}
	})
}

func TestHasSecretQuery(t *testing.T) {
	for s, want := range map[string]bool{
		"postgres://db/x?user=u&password=hunter2": true,
		"https://s3/b/o?X-Amz-Signature=abc":      true,
		"https://x/cb?upload_token=t":             true,
		"https://example.com/page?id=42&lang=en":  false,
		"https://x/?token=${TOKEN}":               false,
		"key=value without a query":               false,
		"":                                        false,
	} {
		if got := HasSecretQuery(s); got != want {
			t.Errorf("HasSecretQuery(%q) = %v, want %v", s, got, want)
		}
	}
}
