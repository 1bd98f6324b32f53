package pathx

import "testing"

func TestWithin(t *testing.T) {
	tests := []struct {
		path, dir string
		want      bool
		rel       string // Rel(dir, path) when want
	}{
		{"/a", "/a", true, "."},
		{"/a/b", "/a", true, "b"},
		{"/a/b/c", "/a", true, "b/c"},
		{"/ab", "/a", false, ""},
		{"/a", "/a/b", false, ""},
		{"/", "/", true, "."},
		{"/x/y", "/", true, "x/y"},
		// Both sides are cleaned.
		{"/a/./b/", "/a/", true, "b"},
		{"/a/b/../../c", "/a", false, ""},
		{"/a//b", "/a/b/..", true, "b"},
		// A name that starts with two dots is inside, not above.
		{"/a/..b", "/a", true, "..b"},
		{"/a/../b", "/a", false, ""},
		// Relative paths compare with relative dirs only.
		{"a/b", "a", true, "b"},
		{"x", ".", true, "x"},
		{"../x", ".", false, ""},
		{"../../x", "..", false, ""},
		{"../x", "..", true, "x"},
		{"/a/b", "a", false, ""},
		{"a/b", "/a", false, ""},
		// An empty dir is ".", which holds no absolute path.
		{"/etc/passwd", "", false, ""},
		{"", "/", false, ""},
	}
	for _, tt := range tests {
		if got := Within(tt.path, tt.dir); got != tt.want {
			t.Errorf("Within(%q, %q) = %v, want %v", tt.path, tt.dir, got, tt.want)
		}
		rel, ok := Rel(tt.dir, tt.path)
		if ok != tt.want || rel != tt.rel {
			t.Errorf("Rel(%q, %q) = %q, %v; want %q, %v", tt.dir, tt.path, rel, ok, tt.rel, tt.want)
		}
	}
}

func TestWithinAllocatesNothingForCleanAbsolutePaths(t *testing.T) {
	n := testing.AllocsPerRun(100, func() {
		Within("/home/user/project/src/main.go", "/home/user/project")
		Within("/etc/passwd", "/home/user/project")
	})
	if n != 0 {
		t.Errorf("%v allocations per call", n)
	}
}
