package testserver

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"strings"
)

// The server signs the reasoning it sends the way the real APIs do, so
// a client that alters it or sends it to the wrong place is refused. The
// key is fixed: this guards tests, not secrets.
var sealKey = []byte("quire testserver reasoning")

func mac(kind, text string) string {
	h := hmac.New(sha256.New, sealKey)
	h.Write([]byte(kind + "\x00" + text))
	return base64.RawURLEncoding.EncodeToString(h.Sum(nil))
}

// signature is a thinking block's signature.
func signature(thinking string) string { return "sig_" + mac("thinking", thinking) }

// seal is a reasoning item's encrypted content: the summary, readable
// only by this server.
func seal(summary string) string {
	return "enc_" + base64.RawURLEncoding.EncodeToString([]byte(summary)) + "." + mac("reasoning", summary)
}

// unseal returns what seal sealed, reporting false for anything else.
func unseal(content string) (string, bool) {
	body, tag, ok := strings.Cut(strings.TrimPrefix(content, "enc_"), ".")
	if !ok || !strings.HasPrefix(content, "enc_") {
		return "", false
	}
	b, err := base64.RawURLEncoding.DecodeString(body)
	if err != nil || !hmac.Equal([]byte(tag), []byte(mac("reasoning", string(b)))) {
		return "", false
	}
	return string(b), true
}
