package markdown

import (
	"strings"
	"testing"
)

func TestPieChartAsBars(t *testing.T) {
	p, ok := parsePie("pie showData title Pets adopted\n  \"Dogs\" : 386\n  \"Cats\" : 85\n  \"Rats\" : 15")
	if !ok {
		t.Fatal("does not parse")
	}
	rows, ok := drawPie(p, 60)
	if !ok {
		t.Fatal("does not draw")
	}
	want := strings.Join([]string{
		"Pets adopted",
		"",
		"Dogs  ███████████████████████████████▊           79.4%  386",
		"Cats  ███████                                    17.5%  85",
		"Rats  █▎                                          3.1%  15",
	}, "\n")
	if got := strings.Join(rows, "\n"); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	for _, src := range []string{
		"pie\n  Dogs : 3",
		"pie\n  \"Dogs\" : many",
		"pie\n  \"Dogs\" : -1",
		"pie",
		"pie something\n  \"a\" : 1",
		"pie\n  \"a\" : 0",
	} {
		if p, ok := parsePie(src); ok {
			if _, ok := drawPie(p, 60); ok {
				t.Errorf("%q drew", src)
			}
		}
	}
	if _, ok := drawPie(p, 20); ok {
		t.Error("drew bars with no room for them")
	}
}
