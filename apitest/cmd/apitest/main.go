package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"syscall"
	"time"

	"github.com/gatedcrd/gatedcrd/apitest/kubeversion"
	"github.com/gatedcrd/gatedcrd/apitest/suite"
	"github.com/gatedcrd/gatedcrd/internal/repoconfig"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// config is the command line, resolved.
type config struct {
	baseDir    string
	payloadDir string
	version    kubeversion.Version
	versionBy  string // where the version came from, for the first line
	filter     *regexp.Regexp
	junit      string
	parallel   int
	verbose    bool
	strict     bool
	skip       *skipList // nil without --skip
}

// Exit statuses: everything passed, some test failed (or could not run),
// the command line or the configuration is wrong.
const (
	exitPassed = 0
	exitFailed = 1
	exitUsage  = 2
)

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return exitPassed
	}
	if err != nil {
		fmt.Fprintf(stderr, "apitest: %v\n", err)
		return exitUsage
	}
	start := time.Now()
	fmt.Fprintf(stdout, "apitest: suites below %s on Kubernetes %s (%s; k8s.io/apiextensions-apiserver %s)\n",
		cfg.baseDir, cfg.version.Minor, cfg.versionBy, cfg.version.APIExtensions)
	rep, root := newReport(ctx, stdout, cfg.verbose)

	plan, err := suite.Prepare(suite.Options{BaseDir: cfg.baseDir, PayloadDir: cfg.payloadDir, Strict: cfg.strict})
	for _, e := range suite.Flatten(err) {
		root.Errorf("%v", e)
	}
	if plan != nil {
		for _, w := range plan.Warnings {
			fmt.Fprintf(stdout, "warning: %s\n", indentTail(w.Error()))
		}
	}
	for _, e := range cfg.skip.stale(cfg.baseDir, plan) {
		root.Errorf("%v", e)
	}
	if plan != nil && cfg.filter != nil {
		plan = plan.Filter(cfg.filter.MatchString)
	}
	if plan != nil && plan.Tests() > 0 {
		fmt.Fprintf(stdout, "apitest: %d suites, %d (suite × CRD file) pairs, %d tests, in %d batches\n",
			countSuites(plan), plan.Suites(), plan.Tests(), len(plan.Batches))
		runTests(ctx, cfg, plan, root, stdout)
	}

	elapsed := time.Since(start)
	if cfg.junit != "" {
		if err := rep.writeJUnit(cfg.junit, elapsed); err != nil {
			root.Errorf("writing the JUnit file: %v", err)
		}
	}
	passed, failed, skipped := rep.summary()
	fmt.Fprintf(stdout, "apitest: finished in %v; peak RSS %s\n", elapsed.Round(time.Millisecond), peakMemory())
	if skipped > 0 {
		fmt.Fprintf(stdout, "apitest: %d tests skipped by %s\n", skipped, cfg.skip.path)
	}
	fmt.Fprintf(stdout, "%d passed, %d failed\n", passed, failed)
	if failed > 0 || passed == 0 {
		return exitFailed
	}
	return exitPassed
}

// runTests starts the API server, runs the plan on it and stops it. The
// time the tests took, server start and build excluded, is printed.
func runTests(ctx context.Context, cfg *config, plan *suite.Plan, root *node, stdout io.Writer) {
	begin := time.Now()
	srv, err := kubeversion.Start(ctx, cfg.version, kubeversion.Options{BuildOptions: kubeversion.BuildOptions{Progress: stdout}})
	if err != nil {
		root.Errorf("starting the API server of Kubernetes %s: %v", cfg.version.Minor, err)
		return
	}
	fmt.Fprintf(stdout, "apitest: API server of Kubernetes %s ready in %v\n", cfg.version.Minor, time.Since(begin).Round(time.Millisecond))
	start := time.Now()
	opts := suite.Options{Server: srv, Parallel: cfg.parallel}
	if cfg.skip != nil {
		opts.Skip = func(s *suite.Suite, kind, test string) string { return cfg.skip.reason(cfg.baseDir, s, kind, test) }
	}
	suite.RunPlan(root, plan, opts)
	fmt.Fprintf(stdout, "apitest: tests ran in %v\n", time.Since(start).Round(time.Millisecond))
	if err := srv.Stop(); err != nil {
		root.Errorf("stopping the API server: %v", err)
	}
}

// countSuites returns the number of distinct suite files in the plan.
func countSuites(plan *suite.Plan) int {
	seen := map[string]bool{}
	for _, batch := range plan.Batches {
		for _, v := range batch {
			for _, s := range v.Suites {
				seen[s.Path] = true
			}
		}
	}
	return len(seen)
}

const usage = `usage: apitest [flags]

Runs the API test suites of a tree of generated CRDs (every
<group>/<version>/tests/<crd name>/*.yaml below --base-dir) against the
generated CRD files they match, on a real API server of the chosen
Kubernetes version. Progress and failures go to standard output; the last
line reads "N passed, M failed". The exit status is 0 only if every test
passed.

Flags:
`

func parseFlags(args []string, stderr io.Writer) (*config, error) {
	flags := flag.NewFlagSet("apitest", flag.ContinueOnError)
	flags.SetOutput(stderr)
	flags.Usage = func() {
		fmt.Fprint(stderr, usage)
		flags.PrintDefaults()
	}
	baseDir := flags.String("base-dir", ".", "the API tree: suites below it, its generated CRD files next to them")
	payloadDir := flags.String("payload-dir", "", "the payload FeatureGate manifests (default <base-dir>/payload-manifests/featuregates)")
	kubeVersion := flags.String("kube-version", "", "the Kubernetes minor to run on, e.g. 1.32 (default: kubeVersion of <base-dir>/.gatedcrd.yaml, else "+kubeversion.Linked+")")
	filter := flags.String("run", "", "run only the tests whose full name (pair/onCreate|onUpdate/test) matches this regular expression")
	junit := flags.String("junit", "", "also write the results as JUnit XML to this file")
	parallel := flags.Int("parallel", 4, "how many (suite × CRD file) pairs of different group-versions run at once")
	verbose := flags.Bool("v", false, "list every test, not only failures")
	skip := flags.String("skip", "", "a YAML list of tests that cannot pass on some Kubernetes versions, and why (see README); they are reported as skipped")
	strict := flags.Bool("strict", false, "reject suite files with the defects openshift/api's runner accepts (unknown or repeated fields, repeated test names) instead of warning")
	if err := flags.Parse(args); err != nil {
		return nil, err
	}
	if flags.NArg() > 0 {
		flags.Usage()
		return nil, fmt.Errorf("unexpected arguments %q", flags.Args())
	}
	cfg := &config{baseDir: *baseDir, payloadDir: *payloadDir, junit: *junit, parallel: *parallel, verbose: *verbose, strict: *strict}
	if cfg.payloadDir == "" {
		cfg.payloadDir = filepath.Join(cfg.baseDir, "payload-manifests", "featuregates")
	}
	if *filter != "" {
		re, err := regexp.Compile(*filter)
		if err != nil {
			return nil, fmt.Errorf("--run: %w", err)
		}
		cfg.filter = re
	}
	minor, by, err := chooseVersion(*kubeVersion, cfg.baseDir)
	if err != nil {
		return nil, err
	}
	if cfg.version, err = kubeversion.Lookup(minor); err != nil {
		return nil, fmt.Errorf("%s: %w", by, err)
	}
	cfg.versionBy = by
	if *skip != "" {
		if cfg.skip, err = readSkipList(*skip, cfg.version.Minor); err != nil {
			return nil, fmt.Errorf("--skip: %w", err)
		}
	}
	return cfg, nil
}

// chooseVersion returns the Kubernetes minor to run on and where that
// choice comes from: the flag, else kubeVersion of the repository
// configuration in baseDir (read only then), else the linked version.
func chooseVersion(flagValue, baseDir string) (minor, by string, err error) {
	if flagValue != "" {
		return flagValue, "--kube-version", nil
	}
	cfg, err := repoconfig.Load(baseDir)
	if err != nil {
		return "", "", err
	}
	if cfg.KubeVersion.IsSet() {
		return cfg.KubeVersion.String(), fmt.Sprintf("kubeVersion of %s:%d", cfg.File, cfg.KubeVersion.Line), nil
	}
	return kubeversion.Linked, "the version apitest links; choose with --kube-version or kubeVersion in " + repoconfig.FileName, nil
}
