package sandbox

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// defaultGOPROXY is the go command's proxy list when nothing sets one.
const defaultGOPROXY = "https://proxy.golang.org,direct"

// goModuleEnv is what accompanies a moved GOMODCACHE. GOFLAGS gains
// -modcacherw: module files are read-only by default, so nothing could
// delete the cache otherwise. GOPROXY gains the user's own module cache
// (userCache) as a read-only file:// proxy in front of the user's proxy
// list, so modules the user already has need no network, which read-only
// and strict do not have; the go command still checks them against go.sum
// and the checksum database as it would any download.
func goModuleEnv(env envList, u userDirs, userCache string, p Profile) []string {
	out := []string{"GOFLAGS=" + withFlag(goValue(env, u, "GOFLAGS"), "-modcacherw")}
	download := filepath.Join(userCache, "cache", "download")
	if fi, err := os.Stat(download); err != nil || !fi.IsDir() {
		return out
	}
	if _, err := p.CanRead(download); err != nil {
		return out // strict cannot read the home directory
	}
	if strings.ContainsAny(download, ",|") {
		return out // the separators of a proxy list
	}
	proxy := goValue(env, u, "GOPROXY")
	if proxy == "" {
		proxy = goRootEnv(env, u)["GOPROXY"]
	}
	if proxy == "" {
		proxy = defaultGOPROXY
	}
	// "file://…,off" still serves what is cached: off only stops the
	// list at its position.
	local := (&url.URL{Scheme: "file", Path: download}).String()
	return append(out, "GOPROXY="+local+","+proxy)
}

// goValue is a go setting: the environment overrides the go/env file,
// and an empty variable counts as unset, as in the go command.
func goValue(env envList, u userDirs, name string) string {
	if v := env.get(name); v != "" {
		return v
	}
	return u.goEnv[name]
}

// withFlag adds flag to a GOFLAGS value unless it is already there.
func withFlag(flags, flag string) string {
	name := strings.TrimLeft(flag, "-")
	for _, f := range strings.Fields(flags) {
		// -x, --x and -x=false all mean the user already chose.
		if f := strings.TrimLeft(f, "-"); f == name || strings.HasPrefix(f, name+"=") {
			return flags
		}
	}
	return strings.TrimSpace(flags + " " + flag)
}

// readGoEnvFile reads the file `go env -w` writes: $GOENV, else
// ${XDG_CONFIG_HOME:-~/.config}/go/env.
func readGoEnvFile(env envList, home string) map[string]string {
	file := env.get("GOENV")
	switch {
	case file == "off":
		return nil
	case file == "":
		file = filepath.Join(env.absOr("XDG_CONFIG_HOME", filepath.Join(home, ".config")), "go", "env")
	}
	return readEnvFile(file)
}

// readEnvFile reads a go env file: NAME=VALUE lines, anything else
// ignored, as the go command parses them.
func readEnvFile(file string) map[string]string {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	vals := map[string]string{}
	for line := range strings.Lines(string(data)) {
		name, val, ok := strings.Cut(strings.TrimRight(line, "\r\n"), "=")
		if ok && name != "" && name[0] >= 'A' && name[0] <= 'Z' {
			vals[name] = val
		}
	}
	return vals
}

// goRootEnv reads $GOROOT/go.env, the toolchain's defaults (a
// distribution may set its own GOPROXY there). GOROOT is the variable or
// the go env -w value, else found as the go command on the command's PATH
// does it: the directory above the one holding the real go binary.
func goRootEnv(env envList, u userDirs) map[string]string {
	root := goValue(env, u, "GOROOT")
	if root == "" {
		for _, dir := range filepath.SplitList(env.get("PATH")) {
			if !filepath.IsAbs(dir) {
				continue
			}
			bin, err := filepath.EvalSymlinks(filepath.Join(dir, "go"))
			if err != nil {
				continue
			}
			if fi, err := os.Stat(bin); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
				root = filepath.Dir(filepath.Dir(bin))
				break
			}
		}
	}
	if root == "" {
		return nil
	}
	return readEnvFile(filepath.Join(root, "go.env"))
}
