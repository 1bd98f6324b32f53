package tools

import (
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// TestDiffReconstructs checks the edit script: replaying it on a yields b.
func TestDiffReconstructs(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		gen := rapid.SliceOfN(rapid.SampledFrom([]string{"a\n", "b\n", "c\n", "d\n", "e"}), 0, 40)
		a, b := gen.Draw(t, "a"), gen.Draw(t, "b")
		var got []string
		for _, op := range diffLines(a, b) {
			switch op.kind {
			case opEqual:
				if a[op.ai] != b[op.bi] {
					t.Fatalf("equal op on different lines")
				}
				got = append(got, a[op.ai])
			case opIns:
				got = append(got, b[op.bi])
			}
		}
		if strings.Join(got, "") != strings.Join(b, "") {
			t.Fatalf("replay = %q, want %q", got, b)
		}
	})
}

func TestUnifiedDiff(t *testing.T) {
	old := "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n"
	new := "1\n2\nthree\n4\n5\n6\n7\n8\n9\n10\n11\ntwelve"
	want := "--- a/f\n+++ b/f\n@@ -1,6 +1,6 @@\n 1\n 2\n-3\n+three\n 4\n 5\n 6\n@@ -9,4 +9,4 @@\n 9\n 10\n 11\n-12\n+twelve\n\\ No newline at end of file\n"
	if got := unifiedDiff("f", "f", old, new); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if got := unifiedDiff("", "n", "", "x\n"); got != "--- /dev/null\n+++ b/n\n@@ -0,0 +1 @@\n+x\n" {
		t.Fatalf("new file diff %q", got)
	}
}

func BenchmarkUnifiedDiff(b *testing.B) {
	var old, new strings.Builder
	for i := 0; i < 5000; i++ {
		old.WriteString("line of code number " + string(rune('a'+i%26)) + "\n")
		if i%100 == 0 {
			new.WriteString("changed\n")
		} else {
			new.WriteString("line of code number " + string(rune('a'+i%26)) + "\n")
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		unifiedDiff("f", "f", old.String(), new.String())
	}
}
