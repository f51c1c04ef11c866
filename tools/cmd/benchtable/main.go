// Command benchtable measures a built codegen binary on an API tree and
// prints a Markdown table. It builds nothing: give it the binary and a
// freshly generated tree (see tools/cmd/synthtree and hack/bench.sh).
//
// Usage:
//
//	benchtable --codegen BIN --tree DIR [--group-version GROUP/VERSION] [--markdown FILE]
//
// It runs, one after another, as child processes:
//
//  1. update (cold):  BIN crd-manifests --base-dir DIR --stats F
//  2. update (warm):  the same again, with nothing left to change
//  3. verify:         BIN crd-manifests --base-dir DIR --verify --stats F
//  4. update of one group-version: ... --api-group-versions GROUP/VERSION
//
// For each it records the wall time, the child's peak resident set size
// (which includes the go list processes codegen waits for) and the stats
// file codegen writes, then compares the runs with the performance targets.
// Missing or failed runs are reported in the table; the exit status is 0
// unless the command line is wrong.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// runSpec is one measured invocation.
type runSpec struct {
	Name   string
	Args   []string // after the binary, without --stats
	Update bool     // counts against the update targets
	Verify bool
	Single bool
}

// result is what one run measured.
type result struct {
	Spec     runSpec
	ExitCode int   // -1 when the child could not be started
	Err      error // start or wait failure other than a non-zero exit
	Wall     time.Duration
	RSS      int64 // bytes; 0 when unknown
	RSSKnown bool
	Stats    *stats
	StatsErr error
	Output   []byte // combined stdout and stderr, kept for failures
}

func (r result) ok() bool { return r.Err == nil && r.ExitCode == 0 }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("benchtable", flag.ContinueOnError)
	fs.SetOutput(stderr)
	codegen := fs.String("codegen", "", "codegen binary to measure (required)")
	tree := fs.String("tree", "", "API tree to run it on, freshly generated (required)")
	gv := fs.String("group-version", "", "group/version for the single group-version run (default: the first v1 found in the tree)")
	markdown := fs.String("markdown", "", "also write the report to this file")
	verbose := fs.Bool("v", false, "print each child's output")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: benchtable --codegen BIN --tree DIR [--group-version GROUP/VERSION] [--markdown FILE]\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *codegen == "" || *tree == "" || fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	bin, err := filepath.Abs(*codegen)
	if err != nil {
		fmt.Fprintf(stderr, "benchtable: %v\n", err)
		return 2
	}
	if info, err := os.Stat(*tree); err != nil || !info.IsDir() {
		fmt.Fprintf(stderr, "benchtable: --tree %s is not a directory\n", *tree)
		return 2
	}
	if *gv == "" {
		*gv, err = firstGroupVersion(*tree)
		if err != nil {
			fmt.Fprintf(stderr, "benchtable: %v; pass --group-version\n", err)
			return 2
		}
	}
	statsDir, err := os.MkdirTemp("", "benchtable-stats-")
	if err != nil {
		fmt.Fprintf(stderr, "benchtable: %v\n", err)
		return 1
	}
	defer os.RemoveAll(statsDir)

	var notes []string
	if generatedOutputExists(*tree) {
		notes = append(notes, "The tree already held generated manifests before the first run, so \"update (cold)\" is not cold.")
	}
	base := []string{"crd-manifests", "--base-dir", *tree}
	specs := []runSpec{
		{Name: "update (cold)", Args: base, Update: true},
		{Name: "update (warm)", Args: base, Update: true},
		{Name: "verify", Args: append(clone(base), "--verify"), Verify: true},
		{Name: "update " + *gv, Args: append(clone(base), "--api-group-versions", *gv), Single: true},
	}
	var results []result
	for i, s := range specs {
		fmt.Fprintf(stderr, "benchtable: %s ...\n", s.Name)
		r := measure(bin, s, filepath.Join(statsDir, fmt.Sprintf("run%d.json", i)))
		if *verbose || !r.ok() {
			stderr.Write(tail(r.Output, 40))
		}
		results = append(results, r)
	}
	report := renderReport(bin, *tree, results, notes)
	fmt.Fprint(stdout, report)
	if *markdown != "" {
		if err := os.WriteFile(*markdown, []byte(report), 0o644); err != nil {
			fmt.Fprintf(stderr, "benchtable: %v\n", err)
			return 1
		}
	}
	return 0
}

func clone(s []string) []string { return append([]string(nil), s...) }

// measure runs bin with s.Args plus --stats statsFile and records the result.
func measure(bin string, s runSpec, statsFile string) result {
	r := result{Spec: s, ExitCode: -1}
	var out bytes.Buffer
	cmd := exec.Command(bin, append(clone(s.Args), "--stats", statsFile)...)
	cmd.Stdout = &out
	cmd.Stderr = &out
	start := time.Now()
	err := cmd.Run()
	r.Wall = time.Since(start)
	r.Output = out.Bytes()
	var exitErr *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exitErr):
	default:
		r.Err = err
	}
	if cmd.ProcessState != nil {
		r.ExitCode = cmd.ProcessState.ExitCode()
		r.RSS, r.RSSKnown = peakRSS(cmd.ProcessState)
	}
	r.Stats, r.StatsErr = readStats(statsFile)
	return r
}

// tail returns the last n lines of b.
func tail(b []byte, n int) []byte {
	lines := bytes.SplitAfter(b, []byte("\n"))
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return bytes.Join(lines, nil)
}

// firstGroupVersion returns "<group>/v1" for the first directory (in path
// order) named v1 whose doc.go carries +groupName.
func firstGroupVersion(tree string) (string, error) {
	docs, err := filepath.Glob(filepath.Join(tree, "*", "v1", "doc.go"))
	if err != nil {
		return "", err
	}
	sort.Strings(docs)
	for _, d := range docs {
		data, err := os.ReadFile(d)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(data), "\n") {
			if g, ok := strings.CutPrefix(strings.TrimSpace(line), "// +groupName="); ok && g != "" {
				return g + "/v1", nil
			}
		}
	}
	return "", fmt.Errorf("no <group>/v1/doc.go with +groupName in %s", tree)
}

// generatedOutputExists reports whether any version directory already has
// merged manifests.
func generatedOutputExists(tree string) bool {
	m, _ := filepath.Glob(filepath.Join(tree, "*", "*", "zz_generated.crd-manifests"))
	return len(m) > 0
}

func machine() string {
	return fmt.Sprintf("%s/%s, %d CPUs", runtime.GOOS, runtime.GOARCH, runtime.NumCPU())
}
