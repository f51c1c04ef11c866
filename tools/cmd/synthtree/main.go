// Command synthtree writes a synthetic API tree at the scale of a large real
// API repository, for measuring codegen: about 35 group-versions, 120 CRDs,
// 120 FeatureGates and 200 gated fields, with every FeatureGate-aware
// marker, nested and cross-package types, type-gated CRDs, manual overrides
// and a payload FeatureGate directory whose gates change across major
// versions.
//
// Usage:
//
//	synthtree --out DIR [--seed N] [--groups N] [--go-sum FILE]
//
// The same seed gives the same tree. The tree is a Go module
// (synthetic.example/api) whose go.mod pins the module versions of the tools
// module's go.sum, so the go command loads it from the module cache without
// a network. --groups scales every count down for quick runs.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/gatedcrd/gatedcrd/features/payload"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("synthtree", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "directory to write the tree into; must not exist or be empty (required)")
	seed := fs.Uint64("seed", 1, "random seed; the same seed gives the same tree")
	groups := fs.Int("groups", referenceGroups, "number of API groups; smaller values scale every count down")
	goSum := fs.String("go-sum", "", "go.sum to copy into the tree (default: the tools module's go.sum)")
	quiet := fs.Bool("q", false, "print nothing on success")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: synthtree --out DIR [--seed N] [--groups N] [--go-sum FILE]\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *out == "" || fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	c, err := generate(*out, *seed, *groups, *goSum)
	if err != nil {
		fmt.Fprintf(stderr, "synthtree: %v\n", err)
		return 1
	}
	if !*quiet {
		fmt.Fprintf(stdout, "synthtree: wrote %s (seed %d)\n%s\n", *out, *seed, c)
	}
	return 0
}

// generate writes the tree for seed and groups into out and returns its
// counts.
func generate(out string, seed uint64, groups int, goSumFlag string) (counts, error) {
	if err := checkEmpty(out); err != nil {
		return counts{}, err
	}
	goSumPath, err := findGoSum(goSumFlag)
	if err != nil {
		return counts{}, err
	}
	sum, err := os.ReadFile(goSumPath)
	if err != nil {
		return counts{}, err
	}
	mod, err := goMod(sum)
	if err != nil {
		return counts{}, fmt.Errorf("%s: %w", goSumPath, err)
	}
	p, err := newPlan(seed, groups)
	if err != nil {
		return counts{}, err
	}
	c, err := p.count()
	if err != nil {
		return counts{}, err
	}
	files, err := p.render()
	if err != nil {
		return counts{}, err
	}
	files = append(files, file{Path: "go.mod", Data: mod}, file{Path: "go.sum", Data: sum})
	for _, f := range files {
		path := filepath.Join(out, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return counts{}, err
		}
		if err := os.WriteFile(path, f.Data, 0o644); err != nil {
			return counts{}, err
		}
	}
	pf, err := p.payloadFiles()
	if err != nil {
		return counts{}, err
	}
	if err := payload.WriteDir(filepath.Join(out, "payload-manifests", "featuregates"), pf); err != nil {
		return counts{}, err
	}
	return c, nil
}

func checkEmpty(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if len(entries) > 0 {
		return fmt.Errorf("%s is not empty; synthtree only writes into a new or empty directory", dir)
	}
	return nil
}
