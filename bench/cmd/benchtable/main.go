package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("benchtable", flag.ContinueOnError)
	fs.SetOutput(stderr)
	suiteName := fs.String("suite", "", "suite to run: the folder bench/<suite>, or the package the suite names ("+suiteNames()+")")
	benchtime := fs.String("benchtime", "1s", "passed to go test -benchtime")
	count := fs.Int("count", 1, "passed to go test -count; a timing is the median of the runs, another metric their mean")
	bench := fs.String("bench", ".", "passed to go test -bench (default: the suite's pattern, else .)")
	in := fs.String("in", "", "read saved `go test -bench` output from this file (- for stdin) instead of running")
	goCmd := fs.String("go", "go", "the go command")
	verbose := fs.Bool("v", false, "copy go test's output to stderr as it runs")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	suite := SuiteNamed(*suiteName)
	if suite == nil {
		fmt.Fprintf(stderr, "benchtable: unknown suite %q; choose one of %s\n", *suiteName, suiteNames())
		return 2
	}

	var raw io.Reader
	switch {
	case *in == "-":
		raw = os.Stdin
	case *in != "":
		f, err := os.Open(*in)
		if err != nil {
			fmt.Fprintf(stderr, "benchtable: %v\n", err)
			return 1
		}
		defer f.Close()
		raw = f
	default:
		dir := filepath.FromSlash(suite.PackageDir())
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			fmt.Fprintf(stdout, "%s: no suite yet (%s does not exist); skipped\n", suite.Name, dir)
			return 0
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		pattern := *bench
		if !flagSet(fs, "bench") && suite.Bench != "" {
			pattern = suite.Bench
		}
		out, err := runGoTest(ctx, *goCmd, dir, pattern, *benchtime, *count, cond[io.Writer](*verbose, stderr, io.Discard), stderr)
		if err != nil {
			fmt.Fprintf(stderr, "benchtable: %v\n", err)
			if len(out) > 0 && !*verbose {
				stderr.Write(out)
			}
			return 1
		}
		raw = bytes.NewReader(out)
	}

	parsed, err := Parse(raw)
	if err != nil {
		fmt.Fprintf(stderr, "benchtable: %v\n", err)
		return 1
	}
	for _, p := range parsed.Problems {
		fmt.Fprintf(stderr, "benchtable: go test reported: %s\n", p)
	}
	if err := Write(stdout, Build(suite, parsed)); err != nil {
		fmt.Fprintf(stderr, "benchtable: %v\n", err)
		return 1
	}
	return 0
}

// runGoTest runs the suite's benchmarks (and no tests) and returns what
// go test printed, copying it to echo as it arrives.
func runGoTest(ctx context.Context, goCmd, dir, bench, benchtime string, count int, echo, stderr io.Writer) ([]byte, error) {
	args := []string{"test", "-run", "^$", "-bench", bench, "-benchmem", "-v",
		"-benchtime", benchtime, "-count", fmt.Sprint(count), "-timeout", "60m", "./" + filepath.ToSlash(dir) + "/"}
	fmt.Fprintf(stderr, "benchtable: %s %s\n", goCmd, strings.Join(args, " "))
	cmd := exec.CommandContext(ctx, goCmd, args...)
	var buf bytes.Buffer
	cmd.Stdout = io.MultiWriter(&buf, echo)
	cmd.Stderr = io.MultiWriter(&buf, echo)
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return buf.Bytes(), fmt.Errorf("go test for %s failed (%v); its output follows", dir, err)
		}
		return buf.Bytes(), fmt.Errorf("running %s: %w", goCmd, err)
	}
	return buf.Bytes(), nil
}

func suiteNames() string {
	var names []string
	for _, s := range Suites() {
		names = append(names, s.Name)
	}
	return strings.Join(names, ", ")
}

// flagSet reports whether the command line gave the flag called name.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
