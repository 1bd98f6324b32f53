package tools

import (
	"fmt"
	"regexp"
	"strings"
)

// arity is how many values an option takes.
type arity int

const (
	noValue       arity = iota
	valueRequired       // --opt=V or --opt V; -oV or -o V
	valueOptional       // --opt or --opt=V only
)

// readOnlyProgram lists the options of one program that only read, with
// the values they take. An option not listed (an abbreviation such as
// --compress-prog included: getopt_long would expand it, but it is not
// the exact name) makes the command need approval, so an option added in
// a later version, or missed here, fails closed.
type readOnlyProgram struct {
	// flags are the short options without a value; valued those with one.
	flags, valued string
	// digits: -NUM counts as an option (grep's context, head's count).
	digits bool
	// long maps each long option's exact name to its arity.
	long map[string]arity
	// anyArgs: the program (a shell builtin) takes every word as text.
	anyArgs bool
	// globsSafe: every option the program has only reads, so an
	// unquoted pattern that expands to a file named like an option is
	// harmless.
	globsSafe bool
	// find's expression grammar instead of getopt's.
	find bool
	// builtin: bash runs its own, whatever PATH holds.
	builtin bool
}

// longs builds a long-option table from names, "name=" (value required)
// and "name[=]" (value optional); --help and --version are always there.
func longs(names ...string) map[string]arity {
	m := map[string]arity{"help": noValue, "version": noValue}
	for _, n := range names {
		switch {
		case strings.HasSuffix(n, "[=]"):
			m[strings.TrimSuffix(n, "[=]")] = valueOptional
		case strings.HasSuffix(n, "="):
			m[strings.TrimSuffix(n, "=")] = valueRequired
		default:
			m[n] = noValue
		}
	}
	return m
}

var grepOptions = readOnlyProgram{
	flags: "EFGPiywxzsvVbnHhoqRrIaclLTUZ", valued: "ABCefm", digits: true, globsSafe: true,
	long: longs("extended-regexp", "fixed-strings", "basic-regexp", "perl-regexp", "regexp=", "file=",
		"ignore-case", "no-ignore-case", "word-regexp", "line-regexp", "null-data", "no-messages",
		"invert-match", "max-count=", "byte-offset", "line-number", "no-line-number", "line-buffered",
		"with-filename", "no-filename", "label=", "only-matching", "quiet", "silent", "binary-files=",
		"text", "directories=", "recursive", "dereference-recursive", "include=", "exclude=",
		"exclude-from=", "exclude-dir=", "files-without-match", "files-with-matches", "count",
		"initial-tab", "null", "before-context=", "after-context=", "context=", "color[=]", "colour[=]", "binary"),
}

// readOnlyPrograms are the programs auto-edit runs without asking when
// they form a simple command, with the options that keep them read-only.
// Left out on purpose: options that write (sort -o, sort -T, tree -o,
// tree -R writing an HTML file per directory, find -fprint, file -C,
// file -p touching access times), that run programs (sort --compress-program, rg --pre, rg -z and --hostname-bin,
// find -exec and -ok, diff -l, file -z), that change the system (date -s,
// df --sync), and grep -D (reading devices can block). git is absent:
// repository config (core.fsmonitor, diff.external, textconv) can make
// even "git status" run arbitrary programs.
var readOnlyPrograms = map[string]readOnlyProgram{
	"ls": {flags: "aAbBcCdDfFgGhHiklLmnNopqQrRsStuUvxXZ1", valued: "ITw", globsSafe: true,
		long: longs("all", "almost-all", "author", "escape", "block-size=", "ignore-backups", "color[=]", "colour[=]",
			"directory", "dired", "classify[=]", "file-type", "format=", "full-time", "group-directories-first",
			"no-group", "human-readable", "si", "dereference-command-line", "dereference-command-line-symlink-to-dir",
			"hide=", "hyperlink[=]", "indicator-style=", "inode", "ignore=", "kibibytes", "dereference", "numeric-uid-gid",
			"literal", "hide-control-chars", "show-control-chars", "quote-name", "quoting-style=", "reverse", "recursive",
			"size", "sort=", "time=", "time-style=", "tabsize=", "width=", "context", "zero")},
	"cat": {flags: "AbeEnstTuv", globsSafe: true,
		long: longs("show-all", "number-nonblank", "show-ends", "number", "squeeze-blank", "show-tabs", "show-nonprinting")},
	"head": {flags: "qvz", valued: "cn", digits: true, globsSafe: true,
		long: longs("bytes=", "lines=", "quiet", "silent", "verbose", "zero-terminated")},
	"tail": {flags: "fFqvz", valued: "cns", digits: true, globsSafe: true,
		long: longs("bytes=", "follow[=]", "lines=", "max-unchanged-stats=", "pid=", "quiet", "silent", "retry",
			"sleep-interval=", "verbose", "zero-terminated")},
	"wc": {flags: "clLmw", globsSafe: true,
		long: longs("bytes", "chars", "lines", "files0-from=", "max-line-length", "words", "total=")},
	"grep":  grepOptions,
	"egrep": grepOptions,
	"fgrep": grepOptions,
	"rg": {flags: "aiIlLnNoOpqsSuvwxcFHhU0.", valued: "ABCdeEfgjmMrtT",
		long: longs("after-context=", "before-context=", "context=", "binary", "no-binary", "case-sensitive", "color=",
			"colors=", "column", "no-column", "count", "count-matches", "crlf", "no-crlf", "encoding=", "engine=",
			"context-separator=", "no-context-separator", "field-context-separator=", "field-match-separator=",
			"file=", "files", "files-with-matches", "files-without-match", "fixed-strings", "no-fixed-strings",
			"follow", "no-follow", "glob=", "iglob=", "glob-case-insensitive", "heading", "no-heading", "hidden",
			"no-hidden", "ignore-case", "ignore-file=", "invert-match", "json", "no-json", "line-buffered",
			"line-number", "no-line-number", "line-regexp", "max-columns=", "max-columns-preview", "max-count=",
			"max-depth=", "max-filesize=", "multiline", "no-multiline", "multiline-dotall", "no-config", "no-ignore",
			"no-ignore-dot", "no-ignore-exclude", "no-ignore-files", "no-ignore-global", "no-ignore-parent",
			"no-ignore-vcs", "no-messages", "null", "null-data", "only-matching", "passthru", "pcre2", "no-pcre2",
			"path-separator=", "pretty", "quiet", "regexp=", "replace=", "smart-case", "sort=", "sortr=", "stats",
			"text", "no-text", "threads=", "trim", "no-trim", "type=", "type-not=", "type-list", "unrestricted",
			"vimgrep", "with-filename", "no-filename", "word-regexp", "byte-offset", "include-zero", "sort-files")},
	"find": {find: true},
	"file": {flags: "bcdEhiklLNnrsS0", valued: "efFmP",
		long: longs("brief", "mime", "mime-type", "mime-encoding", "dereference", "no-dereference", "keep-going",
			"raw", "special-files", "separator=", "files-from=", "magic-file=", "exclude=", "exclude-quiet=",
			"extension", "apple", "no-pad", "print0", "parameter=", "no-buffer", "debug")},
	"stat": {flags: "LftZ", valued: "c", globsSafe: true,
		long: longs("dereference", "file-system", "cached=", "format=", "printf=", "terse", "context")},
	"du": {flags: "0abcDhHklLmPsSx", valued: "BdtX", globsSafe: true,
		long: longs("null", "all", "apparent-size", "block-size=", "bytes", "total", "dereference-args", "max-depth=",
			"human-readable", "inodes", "si", "dereference", "no-dereference", "count-links", "separate-dirs",
			"summarize", "threshold=", "time[=]", "time-style=", "exclude-from=", "exclude=", "one-file-system",
			"files0-from=")},
	"df": {flags: "ahHiklPTv", valued: "Btx", globsSafe: true,
		long: longs("all", "block-size=", "human-readable", "si", "inodes", "local", "no-sync", "output[=]",
			"portability", "total", "type=", "print-type", "exclude-type=")},
	"which":    {flags: "as", globsSafe: true, long: longs("all")},
	"echo":     {anyArgs: true, globsSafe: true, builtin: true},
	"true":     {anyArgs: true, globsSafe: true, builtin: true},
	"pwd":      {flags: "LP", long: longs("logical", "physical"), builtin: true},
	"date":     {flags: "uR", valued: "dfr", long: longs("date=", "file=", "reference=", "utc", "universal", "rfc-email", "rfc-3339=", "iso-8601[=]", "resolution", "debug")},
	"uname":    {flags: "asnrvmpio", globsSafe: true, long: longs("all", "kernel-name", "nodename", "kernel-release", "kernel-version", "machine", "processor", "hardware-platform", "operating-system")},
	"whoami":   {globsSafe: true, long: longs()},
	"id":       {flags: "agGnruzZ", globsSafe: true, long: longs("context", "group", "groups", "name", "real", "user", "zero")},
	"basename": {flags: "az", valued: "s", globsSafe: true, long: longs("multiple", "suffix=", "zero")},
	"dirname":  {flags: "z", globsSafe: true, long: longs("zero")},
	"realpath": {flags: "eLmPqsz", globsSafe: true,
		long: longs("canonicalize-existing", "canonicalize-missing", "logical", "physical", "quiet", "relative-to=",
			"relative-base=", "strip", "no-symlinks", "zero")},
	"readlink": {flags: "efmnqsvz", globsSafe: true,
		long: longs("canonicalize", "canonicalize-existing", "canonicalize-missing", "no-newline", "quiet", "silent", "verbose", "zero")},
	"diff": {flags: "aBbcdeEfHhiNnpqrsTtuvwyZ", valued: "CDFILSUWxX",
		long: longs("normal", "brief", "report-identical-files", "context[=]", "unified[=]", "ed", "rcs", "side-by-side",
			"width=", "left-column", "suppress-common-lines", "show-c-function", "show-function-line=", "label=",
			"expand-tabs", "initial-tab", "tabsize=", "suppress-blank-empty", "new-file", "unidirectional-new-file",
			"ignore-case", "ignore-file-name-case", "no-ignore-file-name-case", "ignore-tab-expansion",
			"ignore-trailing-space", "ignore-space-change", "ignore-all-space", "ignore-blank-lines",
			"ignore-matching-lines=", "text", "strip-trailing-cr", "recursive", "exclude=", "exclude-from=",
			"starting-file=", "from-file=", "to-file=", "minimal", "horizon-lines=", "speed-large-files", "color[=]", "palette=")},
	"cmp": {flags: "blsv", valued: "in", globsSafe: true,
		long: longs("print-bytes", "ignore-initial=", "verbose", "bytes=", "quiet", "silent")},
	"sort": {flags: "bcCdfghiMmnRrsuVz", valued: "kSt",
		long: longs("ignore-leading-blanks", "dictionary-order", "ignore-case", "general-numeric-sort", "ignore-nonprinting",
			"month-sort", "human-numeric-sort", "numeric-sort", "random-sort", "random-source=", "reverse", "sort=",
			"version-sort", "batch-size=", "check[=]", "debug", "files0-from=", "key=", "merge", "buffer-size=", "stable",
			"field-separator=", "parallel=", "unique", "zero-terminated")},
	"nl": {flags: "p", valued: "bdfhilnsvw", globsSafe: true,
		long: longs("body-numbering=", "section-delimiter=", "footer-numbering=", "header-numbering=", "line-increment=",
			"join-blank-lines=", "number-format=", "no-renumber", "number-separator=", "starting-line-number=", "number-width=")},
	"tree": {flags: "adfilpsugDFrtvUxnCNQSJXhA", valued: "LPIHT",
		long: longs("noreport", "dirsfirst", "filesfirst", "du", "prune", "matchdirs", "ignore-case", "info", "gitignore",
			"inodes", "device", "nolinks", "metafirst", "sort=", "charset=", "filelimit=", "timefmt=")},
	"sha256sum": {flags: "bctwz", globsSafe: true,
		long: longs("binary", "check", "tag", "text", "ignore-missing", "quiet", "status", "strict", "warn", "zero")},
	"md5sum": {flags: "bctwz", globsSafe: true,
		long: longs("binary", "check", "tag", "text", "ignore-missing", "quiet", "status", "strict", "warn", "zero")},
}

// check returns why args make the program more than a reader, or "".
// It parses them as GNU getopt_long does: options anywhere (getopt
// permutes), "--" ends them, "-" is an operand, --name=value and
// --name value, clusters of short options where one taking a value
// swallows the rest of the word or else the next word. A value given as
// the next word must not start with "-": telling whether the program
// would take it as the value or as an option needs certainty this
// parser does not claim.
func (p readOnlyProgram) check(args []string) string {
	if p.anyArgs {
		return ""
	}
	if p.find {
		return checkFind(args)
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return ""
		}
		if a == "-" || !strings.HasPrefix(a, "-") {
			continue
		}
		if name, ok := strings.CutPrefix(a, "--"); ok {
			name, _, hasValue := strings.Cut(name, "=")
			ar, known := p.long[name]
			switch {
			case !known:
				return fmt.Sprintf("passes --%s, which is not an option auto-edit knows to be read-only (only exact option names count, not abbreviations)", name)
			case ar == noValue && hasValue:
				return fmt.Sprintf("gives --%s a value it does not take", name)
			case ar == valueRequired && !hasValue:
				i++
				if why := optionValue(args, i, "--"+name); why != "" {
					return why
				}
			}
			continue
		}
		for j := 1; j < len(a); j++ {
			c := a[j]
			switch {
			case strings.IndexByte(p.flags, c) >= 0, p.digits && c >= '0' && c <= '9':
				continue
			case strings.IndexByte(p.valued, c) >= 0:
				if j+1 == len(a) {
					i++
					if why := optionValue(args, i, "-"+string(c)); why != "" {
						return why
					}
				}
			default:
				return fmt.Sprintf("passes -%c, which is not an option auto-edit knows to be read-only", c)
			}
			break
		}
	}
	return ""
}

func optionValue(args []string, i int, opt string) string {
	if i >= len(args) {
		return fmt.Sprintf("ends with %s, which needs a value", opt)
	}
	if strings.HasPrefix(args[i], "-") && args[i] != "-" {
		return fmt.Sprintf("gives %s the value %s, which looks like an option", opt, args[i])
	}
	return ""
}

// findTests are find's read-only options, tests and actions with how many
// words follow each; -newerXY is matched separately.
var findTests = map[string]int{
	"-H": 0, "-L": 0, "-P": 0, "-D": 1,
	"-true": 0, "-false": 0, "-empty": 0, "-executable": 0, "-readable": 0, "-writable": 0, "-nouser": 0,
	"-nogroup": 0, "-print": 0, "-print0": 0, "-ls": 0, "-prune": 0, "-quit": 0, "-depth": 0, "-d": 0,
	"-xdev": 0, "-mount": 0, "-follow": 0, "-noleaf": 0, "-ignore_readdir_race": 0, "-noignore_readdir_race": 0,
	"-daystart": 0, "-not": 0, "-a": 0, "-and": 0, "-o": 0, "-or": 0, "!": 0, "(": 0, ")": 0, ",": 0,
	"-help": 0, "--help": 0, "-version": 0, "--version": 0,
	"-name": 1, "-iname": 1, "-path": 1, "-ipath": 1, "-wholename": 1, "-iwholename": 1, "-lname": 1,
	"-ilname": 1, "-regex": 1, "-iregex": 1, "-regextype": 1, "-type": 1, "-xtype": 1, "-size": 1, "-perm": 1,
	"-user": 1, "-group": 1, "-uid": 1, "-gid": 1, "-links": 1, "-inum": 1, "-samefile": 1, "-newer": 1,
	"-anewer": 1, "-cnewer": 1, "-atime": 1, "-ctime": 1, "-mtime": 1, "-amin": 1, "-cmin": 1, "-mmin": 1,
	"-used": 1, "-maxdepth": 1, "-mindepth": 1, "-fstype": 1, "-printf": 1, "-context": 1,
}

var findNewerXY = regexp.MustCompile(`^-newer[aBcmt][aBcmt]t?$`)

// checkFind walks find's arguments: starting points, then an expression
// whose every option must be in findTests (the words after an option
// that takes some are its values, whatever they look like). -O3 and
// friends set the optimisation level.
func checkFind(args []string) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") && a != "!" && a != "(" && a != ")" && a != "," {
			continue // a starting point
		}
		if a == "--" || (len(a) > 2 && strings.HasPrefix(a, "-O") && strings.Trim(a[2:], "0123456789") == "") {
			continue
		}
		n, ok := findTests[a]
		if !ok && findNewerXY.MatchString(a) {
			n, ok = 1, true
		}
		if !ok {
			return fmt.Sprintf("passes %s to find, which is not an option auto-edit knows to be read-only", a)
		}
		if i+n >= len(args) {
			return fmt.Sprintf("ends with %s, which needs a value", a)
		}
		i += n
	}
	return ""
}
