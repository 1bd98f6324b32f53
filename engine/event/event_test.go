package event

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestUnknownFieldsTolerated(t *testing.T) {
	var e Event
	in := `{"v":1,"seq":3,"kind":"notice","text":"hi","from_the_future":{"x":1}}`
	if err := json.Unmarshal([]byte(in), &e); err != nil {
		t.Fatal(err)
	}
	if e.Kind != Notice || e.Text != "hi" || e.Seq != 3 {
		t.Fatalf("decoded %+v", e)
	}
}

func TestNewerVersionRefused(t *testing.T) {
	e := Event{V: SchemaVersion + 1}
	err := Upgrade(&e)
	if err == nil {
		t.Fatal("a newer schema was accepted")
	}
	if want := "event schema v2; this binary reads up to v1"; !strings.Contains(err.Error(), want) {
		t.Fatalf("error %q does not name both versions", err)
	}
}

func TestTypedIsTheCommandWhenThereIsOne(t *testing.T) {
	plain := Event{Kind: UserMessage, Text: "fix it"}
	cmd := Event{Kind: UserMessage, Text: "Review a.go closely.", Command: "/review a.go"}
	if plain.Typed() != "fix it" || cmd.Typed() != "/review a.go" {
		t.Fatalf("Typed: %q, %q", plain.Typed(), cmd.Typed())
	}
	js, _ := json.Marshal(cmd)
	var back Event
	if err := json.Unmarshal(js, &back); err != nil || back.Command != cmd.Command || !strings.Contains(string(js), `"command":"/review a.go"`) {
		t.Fatalf("round trip %s: %+v %v", js, back, err)
	}
	if js, _ := json.Marshal(plain); strings.Contains(string(js), "command") {
		t.Fatalf("a plain prompt writes a command field: %s", js)
	}
}
