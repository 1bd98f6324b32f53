package markdown

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestGolden renders representative documents at 80 and 40 columns and
// compares with testdata/golden/<doc>.<width>.txt: one output line per
// line, with style marks (see annotate) so that a diff shows both text and
// styling. Run with -update to rewrite them after an intended change.
func TestGolden(t *testing.T) {
	cwd, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	for name, src := range corpus(t) {
		for _, width := range []int{80, 40} {
			t.Run(fmt.Sprintf("%s/%d", name, width), func(t *testing.T) {
				var b strings.Builder
				for _, l := range Render(src, Options{Width: width, Cwd: cwd}) {
					if w := l.Width(); w > width {
						t.Errorf("line wider than %d: %d: %q", width, w, l.Text())
					}
					b.WriteString(annotate(l))
					b.WriteString("\n")
				}
				got := strings.ReplaceAll(b.String(), cwd, "$TESTDATA")
				path := filepath.Join("testdata", "golden", fmt.Sprintf("%s.%d.txt", strings.TrimSuffix(name, ".md"), width))
				if *update {
					if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (run go test -update to create it)", err)
				}
				if got != string(want) {
					t.Errorf("%s differs from the golden file; got:\n%s", path, got)
				}
			})
		}
	}
}
