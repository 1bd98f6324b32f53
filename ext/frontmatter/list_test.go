package frontmatter

import (
	"reflect"
	"strings"
	"testing"
)

func TestList(t *testing.T) {
	type front struct {
		Tools List `yaml:"tools"`
	}
	for _, tc := range []struct {
		name, front string
		want        List
		err         string
	}{
		{name: "flow list", front: "tools: [read_file, \"grep\", 'mcp__*']\n", want: List{"read_file", "grep", "mcp__*"}},
		{name: "block list", front: "tools:\n  - read_file\n  - glob\n", want: List{"read_file", "glob"}},
		{name: "comma-separated text", front: "tools: read_file,  grep ,glob\n", want: List{"read_file", "grep", "glob"}},
		{name: "one item", front: "tools: grep\n", want: List{"grep"}},
		{name: "quoted text", front: "tools: \"a, b\"\n", want: List{"a", "b"}},
		{name: "text over lines", front: "tools: |\n  a, b\n  c\n", want: List{"a", "b", "c"}},
		{name: "a number is text", front: "tools: 5\n", want: List{"5"}},
		{name: "empty items dropped", front: "tools: [a, '', ' ', ~]\n", want: List{"a"}},
		{name: "empty list", front: "tools: []\n", want: List{}},
		{name: "empty text", front: "tools: ''\n", want: List{}},
		{name: "only commas", front: "tools: ', ,'\n", want: List{}},
		{name: "no value", front: "tools:\n", want: nil},
		{name: "absent", front: "other: x\n", want: nil},
		{name: "through an alias", front: "x: &t [a, b]\ntools: *t\n", want: List{"a", "b"}},
		{name: "a set of keys", front: "tools:\n  read: yes\n", err: "line 3: tools: a set of keys where a list of text belongs"},
		{name: "a list in the list", front: "tools: [a, [b]]\n", err: "line 2: tools: a list where text belongs"},
		{name: "keys in the list", front: "tools:\n  - a\n  - b: c\n", err: "line 4: tools: a set of keys where text belongs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var f front
			err := Doc{Front: []byte(tc.front), HasFront: true}.Decode(&f)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(f.Tools, tc.want) {
				t.Fatalf("got %#v, want %#v", f.Tools, tc.want)
			}
		})
	}
}
