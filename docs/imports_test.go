// Package docs holds quire's documentation. Its test keeps the package
// map in ARCHITECTURE.md true: the table there is the one list of the
// arrows the code may draw between quire's packages.
package docs

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/quire-sh/quire"

// rule is one row of the package table: the packages a package (or, for a
// pattern ending in /..., every package under it) may import.
type rule struct {
	pkg   string
	any   bool
	allow map[string]bool
}

// tableRow matches a row of the package table: | `pkg` | owns | imports |.
var tableRow = regexp.MustCompile("^\\| `([^`]+)` \\|.*\\| ([^|]+) \\|$")

var backticked = regexp.MustCompile("`([^`]+)`")

// readRules parses the package table of ARCHITECTURE.md. The last column
// is `a`, `b` (backticked package paths), none, or any.
func readRules(t *testing.T) []rule {
	t.Helper()
	data, err := os.ReadFile("ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	var rules []rule
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		m := tableRow.FindStringSubmatch(strings.TrimSpace(sc.Text()))
		if m == nil {
			continue
		}
		r := rule{pkg: m[1], allow: map[string]bool{}}
		switch imports := strings.TrimSpace(m[2]); imports {
		case "none":
		case "any":
			r.any = true
		default:
			for _, part := range strings.Split(imports, ",") {
				b := backticked.FindStringSubmatch(strings.TrimSpace(part))
				if b == nil || strings.TrimSpace(part) != "`"+b[1]+"`" {
					t.Fatalf("ARCHITECTURE.md:%d: the imports column takes `pkg`, `pkg`, none or any, not %q", n, imports)
				}
				r.allow[b[1]] = true
			}
		}
		rules = append(rules, r)
	}
	if len(rules) < 10 {
		t.Fatalf("ARCHITECTURE.md: found %d rows in the package table; is its format intact?", len(rules))
	}
	return rules
}

// ruleFor is the row of pkg: its own, or the longest pattern over it.
func ruleFor(rules []rule, pkg string) (rule, bool) {
	best, found := rule{}, false
	for _, r := range rules {
		if r.pkg == pkg {
			return r, true
		}
		if base, ok := strings.CutSuffix(r.pkg, "/..."); ok && strings.HasPrefix(pkg, base+"/") && (!found || len(r.pkg) > len(best.pkg)) {
			best, found = r, true
		}
	}
	return best, found
}

// pkgImports are quire's packages and the quire packages each imports:
// its code's imports, or for a package made only of tests (the bench
// suites, e2e) its tests' imports.
func pkgImports(t *testing.T) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-e", "-f",
		"{{.ImportPath}}|{{len .GoFiles}}|{{join .Imports \" \"}}|{{join .TestImports \" \"}} {{join .XTestImports \" \"}}", module+"/...")
	cmd.Dir = ".."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	graph := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "|")
		if len(f) != 4 {
			t.Fatalf("go list printed %q", line)
		}
		pkg := rel(f[0])
		imports := f[2]
		if f[1] == "0" {
			imports = f[3]
		}
		seen := map[string]bool{}
		for _, imp := range strings.Fields(imports) {
			if (imp == module || strings.HasPrefix(imp, module+"/")) && rel(imp) != pkg && !seen[imp] {
				seen[imp] = true
				graph[pkg] = append(graph[pkg], rel(imp))
			}
		}
		if graph[pkg] == nil {
			graph[pkg] = []string{}
		}
	}
	return graph
}

func rel(importPath string) string {
	return strings.TrimPrefix(strings.TrimPrefix(importPath, module), "/")
}

// The arrows between quire's packages are those ARCHITECTURE.md allows,
// every package has a row, and no row names a package that is not one.
func TestImportsMatchTheArchitecture(t *testing.T) {
	rules := readRules(t)
	graph := pkgImports(t)
	pkgs := make([]string, 0, len(graph))
	for p := range graph {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for _, pkg := range pkgs {
		if pkg == "" {
			continue
		}
		r, ok := ruleFor(rules, pkg)
		if !ok {
			t.Errorf("package %s has no row in the table of docs/ARCHITECTURE.md: add one naming what it may import", pkg)
			continue
		}
		for _, imp := range graph[pkg] {
			if !r.any && !r.allow[imp] {
				t.Errorf("%s imports %s, an arrow docs/ARCHITECTURE.md does not allow (row %s allows: %s)", pkg, imp, r.pkg, allowed(r))
			}
		}
	}
	for _, r := range rules {
		for imp := range r.allow {
			if _, ok := graph[imp]; !ok {
				t.Errorf("the row of %s allows %s, which is not a package of this module", r.pkg, imp)
			}
		}
		if _, ok := graph[r.pkg]; !ok && !strings.HasSuffix(r.pkg, "/...") {
			t.Logf("the row of %s names a package this tree does not have (yet)", r.pkg)
		}
	}
}

// The table forbids what it should: an arrow it does not list is found
// and named (a guard against a parser that allows everything).
func TestImportRulesRefuseUnlistedArrows(t *testing.T) {
	rules := readRules(t)
	for _, arrow := range [][2]string{
		{"app", "engine"}, {"app", "sandbox"}, {"app", "tools"}, {"app", "engine/llm"},
		{"app", "engine/testserver"}, {"app", "engine/store"}, {"app", "session"},
		{"engine", "app"}, {"render", "term"}, {"cmd/quire", "engine"}, {"cmd/quire", "tools"},
		{"session", "engine/testserver"},
	} {
		r, ok := ruleFor(rules, arrow[0])
		if !ok {
			t.Errorf("%s has no row", arrow[0])
			continue
		}
		if r.any || r.allow[arrow[1]] {
			t.Errorf("the table allows %s → %s", arrow[0], arrow[1])
		}
	}
}

func allowed(r rule) string {
	if len(r.allow) == 0 {
		return "none"
	}
	var out []string
	for a := range r.allow {
		out = append(out, a)
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}
