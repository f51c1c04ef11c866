// Command benchtable measures a built codegen binary on an API tree and
// prints a Markdown table. It builds nothing: give it the binary and a tree
// without generated CRD manifests (see tools/cmd/synthtree, hack/bench.sh
// and hack/bench-real-tree.sh).
//
// Usage:
//
//	benchtable --codegen BIN --tree DIR [--group-version GROUP/VERSION]
//	    [--arg ARG]... [--runs N] [--profile DIR] [--markdown FILE]
//
// It runs, one after another, as child processes:
//
//  1. update (cold):  BIN crd-manifests --base-dir DIR ARGS --stats F
//  2. update (warm):  the same again, with nothing left to change
//  3. verify:         BIN crd-manifests --base-dir DIR --verify ARGS --stats F
//  4. update of one group-version: ... --api-group-versions GROUP/VERSION
//
// With --runs N it repeats the sequence N times; before each repetition it
// removes every file and directory the previous ones created, so each cold
// update starts from the tree as it was given. For each run it records the
// wall time, the CPU time and the peak resident set size of the child (both
// include the processes codegen waits for: go list, the CRD validation
// program), the one-minute load average when it started, and the stats
// file codegen writes. The report shows, per run, the repetition with the
// least wall time (the least contended on a shared machine) and compares
// it with the performance targets. Missing or failed runs are reported in
// the table; the exit status is 0 unless the command line is wrong or the
// tree cannot be restored.
//
// With --profile DIR it then runs verify and the single group-version update
// once more each with codegen's --cpuprofile and --memprofile, writing
// DIR/verify.cpu.pprof, DIR/verify.mem.pprof, DIR/single.cpu.pprof and
// DIR/single.mem.pprof; these runs are not measured.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
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

// argList is a repeatable string flag.
type argList []string

func (a *argList) String() string     { return strings.Join(*a, " ") }
func (a *argList) Set(v string) error { *a = append(*a, v); return nil }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("benchtable", flag.ContinueOnError)
	fs.SetOutput(stderr)
	codegen := fs.String("codegen", "", "codegen binary to measure (required)")
	tree := fs.String("tree", "", "API tree to run it on, without generated CRD manifests (required)")
	gv := fs.String("group-version", "", "group/version for the single group-version run (default: the first v1 found in the tree)")
	var extra argList
	fs.Var(&extra, "arg", "extra argument for every codegen run, e.g. --arg=--strict-markers=false (repeatable)")
	runs := fs.Int("runs", 1, "repetitions of the whole sequence; the report shows the fastest of each run")
	profileDir := fs.String("profile", "", "after the measured runs, profile verify and the single group-version update once more each, into this directory")
	markdown := fs.String("markdown", "", "also write the report to this file")
	verbose := fs.Bool("v", false, "print each child's output")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: benchtable --codegen BIN --tree DIR [--group-version GROUP/VERSION] [--arg ARG]... [--runs N] [--profile DIR] [--markdown FILE]\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *codegen == "" || *tree == "" || fs.NArg() > 0 || *runs < 1 {
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
	before, err := snapshot(*tree)
	if err != nil {
		fmt.Fprintf(stderr, "benchtable: %v\n", err)
		return 1
	}
	base := append([]string{"crd-manifests", "--base-dir", *tree}, extra...)
	specs := []runSpec{
		{Name: "update (cold)", Args: base, Update: true},
		{Name: "update (warm)", Args: base, Update: true},
		{Name: "verify", Args: append(clone(base), "--verify"), Verify: true},
		{Name: "update " + *gv, Args: append(clone(base), "--api-group-versions", *gv), Single: true},
	}
	results := make([][]result, len(specs))
	loadStart := loadAverage()
	for rep := 0; rep < *runs; rep++ {
		if rep > 0 {
			rewritten, err := restore(*tree, before)
			if err != nil {
				fmt.Fprintf(stderr, "benchtable: restoring the tree: %v\n", err)
				return 1
			}
			if len(rewritten) > 0 && rep == 1 {
				notes = append(notes, fmt.Sprintf("The runs rewrote %d file(s) of the given tree (first: %s), so the repeated cold updates did not start from the same tree.", len(rewritten), rewritten[0]))
			}
		}
		for i, s := range specs {
			fmt.Fprintf(stderr, "benchtable: %s (%d/%d) ...\n", s.Name, rep+1, *runs)
			r := measure(bin, s, filepath.Join(statsDir, fmt.Sprintf("run%d-%d.json", rep, i)))
			if *verbose || !r.ok() {
				stderr.Write(tail(r.Output, 40))
			}
			results[i] = append(results[i], r)
		}
	}
	if *profileDir != "" {
		notes = append(notes, takeProfiles(bin, *profileDir, specs[2:], stderr)...)
	}
	env := environment{Bin: bin, Tree: *tree, Args: extra, Runs: *runs, LoadStart: loadStart, LoadEnd: loadAverage()}
	report := renderReport(env, results, notes)
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
	m, _ := filepath.Glob(filepath.Join(tree, "*", "*", "zz_generated.crd-manifests", "*.crd.yaml"))
	return len(m) > 0
}

func machine() string {
	return fmt.Sprintf("%s/%s, %d CPUs", runtime.GOOS, runtime.GOARCH, runtime.NumCPU())
}
