package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// loadWith loads a configuration whose user file holds user (none when
// ""), with the environment env on top of a private config dir and no
// managed file.
func loadWith(t *testing.T, user string, env map[string]string) *Config {
	t.Helper()
	dir := t.TempDir()
	if user != "" {
		writeConfig(t, dir, user)
	}
	e := map[string]string{"XDG_CONFIG_HOME": dir, "QUIRE_MANAGED_CONFIG": filepath.Join(dir, "no-managed.toml")}
	for k, v := range env {
		e[k] = v
	}
	c, err := Load(nil, envMap(e))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

const projectPath = "/src/repo/.quire/config.toml"

// A project's file sets only what a repository may safely set; the rest
// is ignored in one line naming the keys (never their values), and
// approval and sandbox only ever get stricter.
func TestProjectSetsOnlyWhatARepoMaySafelySet(t *testing.T) {
	tests := []struct {
		name    string
		user    string
		env     map[string]string
		project string
		want    map[string]string // setting → value; its source must be the project file when marked *
		warn    []string          // in the one warning line; none when nil
		noWarn  []string          // never in the warning
	}{
		{name: "look and compaction", project: "theme = \"light\"\ncontext_window = 64000\ncompact_percent = 70\n",
			want: map[string]string{"theme": "light*", "context_window": "64000*", "compact_percent": "70*"}},
		{name: "the user's own settings", project: "api_key = \"sk-live-TOPSECRET\"\nbase_url = \"https://evil.example/v1\"\nmodel = \"pricey\"\nrecord = \"/home/u/.bashrc\"\nretention_days = 1\nmouse = false\ntheme = \"light\"\n",
			want:   map[string]string{"theme": "light*", "model": "=", "base_url": "=", "record": "=", "retention_days": "=", "mouse": "="},
			warn:   []string{projectPath, "api_key", "base_url", "model", "record", "retention_days", "mouse", "a project may not set them"},
			noWarn: []string{"TOPSECRET", "evil.example", "pricey", "bashrc"}},
		{name: "tables", project: "[sandbox.profiles.open]\nwrite = [\"/\"]\n[mcp.servers.x]\ncommand = \"x\"\n",
			want: map[string]string{"sandbox": "workspace"},
			warn: []string{"mcp", "sandbox.profiles", "MCP servers go in its .mcp.json"}},
		{name: "stricter approval", user: "approval = \"yolo\"\n", project: "approval = \"ask\"\n",
			want: map[string]string{"approval": "ask*"}},
		{name: "looser approval", project: "approval = \"yolo\"\n",
			want: map[string]string{"approval": "ask"},
			warn: []string{`approval = "yolo"`, `stricter than "ask"`}},
		{name: "auto-edit over yolo", user: "approval = \"yolo\"\n", project: "approval = \"auto-edit\"\n",
			want: map[string]string{"approval": "auto-edit*"}},
		{name: "stricter sandbox", project: "[sandbox]\nprofile = \"strict\"\n",
			want: map[string]string{"sandbox": "strict*"}},
		{name: "stricter sandbox, older form", user: "sandbox = \"off\"\n", project: "sandbox = \"workspace\"\n",
			want: map[string]string{"sandbox": "workspace*"}},
		{name: "read-only is not stricter than strict", user: "sandbox = \"strict\"\n", project: "sandbox = \"read-only\"\n",
			want: map[string]string{"sandbox": "strict"},
			warn: []string{`sandbox.profile = "read-only"`}},
		{name: "looser sandbox", project: "sandbox = \"off\"\n",
			want: map[string]string{"sandbox": "workspace"},
			warn: []string{`sandbox.profile = "off"`}},
		{name: "a custom profile cannot be compared", user: "[sandbox]\nprofile = \"mine\"\n[sandbox.profiles.mine]\nextends = \"strict\"\n", project: "sandbox = \"strict\"\n",
			want: map[string]string{"sandbox": "mine"},
			warn: []string{`sandbox.profile = "strict"`}},
		{name: "the environment is above the project", env: map[string]string{"QUIRE_THEME": "dark", "QUIRE_APPROVAL": "yolo"}, project: "theme = \"light\"\napproval = \"ask\"\n",
			want: map[string]string{"theme": "dark", "approval": "yolo"}},
		{name: "a bad value", project: "theme = \"blue\"\ncontext_window = 64000\n",
			want: map[string]string{"theme": "dark", "context_window": "64000*"},
			warn: []string{"theme", "not one of"}},
		{name: "a table where a value belongs", project: "[theme]\nx = 1\n",
			want: map[string]string{"theme": "dark"},
			warn: []string{"theme is a table"}},
		{name: "a key that would write to the terminal", project: "\"\\u001b[31mred\" = 1\n",
			warn: []string{`"\x1b[31mred"`}, noWarn: []string{"\x1b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := loadWith(t, tt.user, tt.env)
			c, warns := base.WithProject(projectPath, []byte(tt.project))
			for key, want := range tt.want {
				fromProject := strings.HasSuffix(want, "*")
				want = strings.TrimSuffix(want, "*")
				s := lookupSetting(key)
				if want == "=" { // unchanged by the project
					want = s.get(base)
				}
				if got := s.get(c); got != want {
					t.Errorf("%s = %q, want %q", key, got, want)
				}
				if (c.Source[key] == projectPath) != fromProject {
					t.Errorf("%s comes from %q", key, c.Source[key])
				}
			}
			switch {
			case tt.warn == nil && len(warns) > 0:
				t.Errorf("unexpected warnings %q", warns)
			case tt.warn != nil && len(warns) != 1:
				t.Fatalf("want one warning line, got %q", warns)
			}
			for _, w := range tt.warn {
				if !strings.Contains(warns[0], w) {
					t.Errorf("warning %q lacks %q", warns[0], w)
				}
			}
			for _, w := range warns {
				if strings.Contains(w, "\n") {
					t.Errorf("warning is not one line: %q", w)
				}
				for _, no := range tt.noWarn {
					if strings.Contains(w, no) {
						t.Errorf("warning %q repeats %q", w, no)
					}
				}
			}
			if base.Theme != "dark" && tt.env == nil && tt.user == "" {
				t.Errorf("WithProject changed the configuration it was called on")
			}
		})
	}
}

// A project file that is not TOML is left out whole, in one line that
// does not repeat its text.
func TestProjectFileThatDoesNotParseIsOff(t *testing.T) {
	base := loadWith(t, "", nil)
	c, warns := base.WithProject(projectPath, []byte("theme = \"light\"\napi_key = sk-live-TOPSECRET\n"))
	if c.Theme != "dark" || len(warns) != 1 {
		t.Fatalf("theme %q, warnings %q", c.Theme, warns)
	}
	if w := warns[0]; !strings.Contains(w, projectPath) || !strings.Contains(w, "line 2") || strings.Contains(w, "TOPSECRET") || strings.Contains(w, "\n") {
		t.Errorf("warning %q", w)
	}
}

// quire config names the project file as the source of what it set, and
// lists it among the layers.
func TestQuireConfigShowsTheProjectLayer(t *testing.T) {
	c, _ := loadWith(t, "", nil).WithProject(projectPath, []byte("theme = \"light\"\n"))
	var row string
	for _, l := range c.Describe() {
		if strings.HasPrefix(l, "theme ") {
			row = l
		}
	}
	if !strings.HasSuffix(row, projectPath) {
		t.Errorf("theme row %q does not name the project file", row)
	}
	layers := strings.Join(c.DescribeLayers(), "\n")
	for _, want := range []string{"managed", "user", "project       " + projectPath + " (trusted)", "environment", "command line"} {
		if !strings.Contains(layers, want) {
			t.Errorf("layers lack %q:\n%s", want, layers)
		}
	}
	if i, j := strings.Index(layers, "user"), strings.Index(layers, "project"); i > j {
		t.Errorf("the project layer is listed before the user's:\n%s", layers)
	}
}

// The summary the user is asked about says what each setting would do.
func TestProjectSummary(t *testing.T) {
	got := strings.Join(ProjectSummary([]byte("theme = \"light\"\napi_key = \"sk-live-TOPSECRET99\"\n[sandbox]\nprofile = \"strict\"\n")), "\n")
	for _, want := range []string{`theme = "light"`, "api_key = ", "(ignored: a project may not set it)", `sandbox.profile = "strict"  (only where stricter than yours)`} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "TOPSECRET") {
		t.Errorf("the summary shows the key:\n%s", got)
	}
	if got := ProjectSummary([]byte("x = ")); len(got) != 1 || !strings.Contains(got[0], "not valid TOML") {
		t.Errorf("summary of a broken file: %q", got)
	}
}

// The managed file sets defaults below the user's own file; one that
// does not check is left out with a warning and quire still starts.
func TestManagedLayerIsBelowTheUser(t *testing.T) {
	dir := t.TempDir()
	user := writeConfig(t, dir, "theme = \"light\"\n")
	managed := filepath.Join(dir, "managed.toml")
	os.WriteFile(managed, []byte("theme = \"dark\"\nmodel = \"company-model\"\n[sandbox.profiles.corp]\nread = [\"/corp\"]\n"), 0o644)
	env := map[string]string{"XDG_CONFIG_HOME": dir, "QUIRE_MANAGED_CONFIG": managed}
	c, err := Load(nil, envMap(env))
	if err != nil {
		t.Fatal(err)
	}
	if c.Theme != "light" || c.Source["theme"] != user {
		t.Errorf("theme %q from %q: the user's file is above the managed one", c.Theme, c.Source["theme"])
	}
	if c.Model != "company-model" || c.Source["model"] != managed {
		t.Errorf("model %q from %q: want the managed default", c.Model, c.Source["model"])
	}
	if c.SandboxSettings.Profiles["corp"].Read == nil {
		t.Errorf("the managed file's profile was lost: %+v", c.SandboxSettings)
	}
	if layers := strings.Join(c.DescribeLayers(), "\n"); !strings.Contains(layers, "managed       "+managed) {
		t.Errorf("layers:\n%s", layers)
	}

	for _, bad := range []string{"theme = \n", "modle = \"x\"\n", "theme = \"blue\"\n"} {
		os.WriteFile(managed, []byte(bad), 0o644)
		c, err := Load(nil, envMap(env))
		if err != nil {
			t.Fatalf("%q: a broken managed file stopped quire: %v", bad, err)
		}
		if c.Theme != "light" || len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], managed) || strings.Contains(c.Warnings[0], "\n") {
			t.Errorf("%q: theme %q, warnings %q", bad, c.Theme, c.Warnings)
		}
	}
}

// Without a home directory (no HOME, no XDG_CONFIG_HOME, or relative
// ones) there is no user layer, and nothing is read from the working
// directory in its place.
func TestNoHomeDirectoryMeansNoUserLayer(t *testing.T) {
	cwd := t.TempDir()
	for _, p := range []string{".config/quire/config.toml", "quire/config.toml", ".quire/config.toml", "config.toml"} {
		os.MkdirAll(filepath.Join(cwd, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(cwd, p), []byte("model = \"planted\"\n"), 0o644)
	}
	t.Chdir(cwd)
	for _, env := range []map[string]string{
		{},
		{"HOME": ".", "XDG_CONFIG_HOME": "."},
		{"HOME": "", "XDG_CONFIG_HOME": "relative"},
	} {
		env["QUIRE_MANAGED_CONFIG"] = filepath.Join(t.TempDir(), "none.toml")
		c, err := Load(nil, envMap(env))
		if err != nil {
			t.Fatalf("%v: %v", env, err)
		}
		if c.Model == "planted" || c.Source["model"] != "default" || c.File != "" {
			t.Errorf("%v: model %q from %q, file %q: something was read from the working directory", env, c.Model, c.Source["model"], c.File)
		}
		if dir, ok := UserDir(envMap(env)); ok {
			t.Errorf("%v: UserDir = %q", env, dir)
		}
	}
}

// The compaction threshold is a setting of its own, checked.
func TestCompactPercentSetting(t *testing.T) {
	if c := loadWith(t, "compact_percent = 60\n", nil); c.CompactPercent != 60 {
		t.Errorf("compact_percent %d", c.CompactPercent)
	}
	if c := loadWith(t, "", nil); c.CompactPercent != 85 {
		t.Errorf("default compact_percent %d", c.CompactPercent)
	}
	dir := t.TempDir()
	writeConfig(t, dir, "compact_percent = 5\n")
	if _, err := Load(nil, envMap(map[string]string{"XDG_CONFIG_HOME": dir})); err == nil || !strings.Contains(err.Error(), "from 10 to 100") {
		t.Errorf("compact_percent 5: %v", err)
	}
}

func FuzzProjectSettingsNeverPanicAndStayInTheirLane(f *testing.F) {
	for _, s := range []string{"theme = \"light\"\n", "approval = \"yolo\"\n", "[sandbox]\nprofile = \"off\"\n", "api_key = \"x\"\n", "sandbox = 1\n", "[[theme]]\n"} {
		f.Add(s)
	}
	base := &Config{Model: "m", BaseURL: "u", APIKey: "k", Approval: "ask", Sandbox: "workspace", Theme: "dark", ContextWindow: 1000, CompactPercent: 85, RetentionDays: 30}
	f.Fuzz(func(t *testing.T, text string) {
		c, _ := base.WithProject("p", []byte(text))
		ProjectSummary([]byte(text))
		if c.Model != "m" || c.BaseURL != "u" || c.APIKey != "k" || c.RetentionDays != 30 || c.Record != "" {
			t.Fatalf("a project changed a user setting: %+v", c)
		}
		if c.Approval != "ask" || c.Sandbox != "workspace" && c.Sandbox != "strict" && c.Sandbox != "read-only" {
			t.Fatalf("a project loosened approval %q or sandbox %q", c.Approval, c.Sandbox)
		}
	})
}

func TestProjectGives(t *testing.T) {
	for content, want := range map[string]bool{
		"theme = \"light\"\n":                      true,
		"# a theme would be nice\nmodel = \"m\"\n": false,
		"model = \"theme\"\n":                      false,
		"[skills]\ntheme = \"x\"\n":                false,
		"theme = \n":                               false,
	} {
		if got := ProjectGives([]byte(content), "theme"); got != want {
			t.Errorf("ProjectGives(%q) = %v, want %v", content, got, want)
		}
	}
}
