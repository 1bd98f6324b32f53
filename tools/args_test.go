package tools

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestLenientIntegers(t *testing.T) {
	for _, raw := range []string{`{"path":"f","limit":"5"}`, `{"path":"f","limit":5.0}`, `{"path":"f","limit":5}`} {
		var a readFileArgs
		if err := decodeArgs(json.RawMessage(raw), readFileParams, &a); err != nil || a.Limit != 5 {
			t.Errorf("%s: limit %d, err %v", raw, a.Limit, err)
		}
	}
	for _, raw := range []string{`{"path":"f","limit":"five"}`, `{"path":"f","limit":5.5}`, `{"path":"f","limit":0}`, `{"path":"f","limit":99999}`} {
		var a readFileArgs
		if err := decodeArgs(json.RawMessage(raw), readFileParams, &a); err == nil {
			t.Errorf("%s was accepted", raw)
		}
	}
}

func TestArgumentErrorsAreReportedTogether(t *testing.T) {
	err := decodeArgs(json.RawMessage(`{"pth":"x","old_string":3,"replace_all":"maybe"}`), editFileParams, &editFileArgs{})
	if err == nil {
		t.Fatal("accepted")
	}
	msg := err.Error()
	for _, want := range []string{
		`unknown field "pth" (did you mean "path"?)`,
		`missing required field "path"`,
		`missing required field "new_string"`,
		`field "old_string": must be a string, got a number`,
		`field "replace_all": must be true or false`,
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
	if err := decodeArgs(json.RawMessage(`[1,2]`), editFileParams, &editFileArgs{}); err == nil || !strings.Contains(err.Error(), "JSON object") {
		t.Errorf("non-object: %v", err)
	}
}

func TestToolErrorsNeverEnterTheBody(t *testing.T) {
	te := newTestEnv(t, "workspace")
	res := runRaw(t, ReadFile{}, te.Env, json.RawMessage(`{"path":"x","limit":"five"}`), nil)
	if !res.IsError || !strings.Contains(res.Output, "limit") {
		t.Fatalf("%+v", res)
	}
}

func TestSchemas(t *testing.T) {
	names := map[string]bool{}
	for _, tool := range Builtin() {
		s := tool.Spec()
		names[s.Name] = true
		schema := string(s.Schema)
		if strings.Contains(schema, "$ref") || strings.Contains(schema, `"format"`) {
			t.Errorf("%s schema has $ref or format: %s", s.Name, schema)
		}
		var m map[string]any
		if err := json.Unmarshal(s.Schema, &m); err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		if m["$schema"] != "http://json-schema.org/draft-07/schema#" || m["type"] != "object" || m["additionalProperties"] != false {
			t.Errorf("%s schema header: %v", s.Name, m)
		}
		if s.Description == "" || s.Kind == "" {
			t.Errorf("%s lacks description or kind", s.Name)
		}
	}
	for _, want := range []string{"read_file", "list_dir", "glob", "grep", "write_file", "edit_file", "apply_patch", "shell"} {
		if !names[want] {
			t.Errorf("Builtin lacks %s", want)
		}
	}
	r := NewRegistry(Builtin()...)
	if _, ok := r.Lookup("apply_patch"); !ok {
		t.Error("registry lookup failed")
	}
}

func FuzzDecodeArgs(f *testing.F) {
	f.Add(`{"path":"a","old_string":"x","new_string":"y","replace_all":true}`)
	f.Add(`{"path":"a","limit":"5","offset":1.0}`)
	f.Add(`{"command":"ls","timeout_ms":"100"}`)
	f.Add(`not json`)
	f.Fuzz(func(t *testing.T, raw string) {
		for _, params := range [][]param{readFileParams, editFileParams, shellParams, grepParams} {
			var dst map[string]any
			err := decodeArgs(json.RawMessage(raw), params, &dst)
			if err != nil {
				if len(err.Error()) > maxArgErrorBytes {
					t.Fatalf("error longer than %d bytes", maxArgErrorBytes)
				}
				continue
			}
			for _, p := range params {
				if _, ok := dst[p.name]; p.required && !ok {
					t.Fatalf("accepted %s without required %s", raw, p.name)
				}
			}
		}
	})
}
