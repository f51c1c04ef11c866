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
	"strings"
	"syscall"
	"time"

	"github.com/gatedcrd/gatedcrd/apitest/kubeversion"
	"github.com/gatedcrd/gatedcrd/apitest/server"
	"github.com/gatedcrd/gatedcrd/apitest/suite"
	"github.com/gatedcrd/gatedcrd/features/payload"
	"github.com/gatedcrd/gatedcrd/internal/kubetarget"
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
	// target is the release chosen (kubetarget.Choose) and why. version
	// is that release, unless an inferred one could not be used and the
	// run fell back to the linked release: fallback then says why.
	target   kubetarget.Choice
	fallback string
	era      payload.Era // referenceEra of the configuration; "" detects
	filter   *regexp.Regexp
	junit    string
	parallel int
	verbose  bool
	strict   bool
	skip     *skipList // nil without --skip
	skipPath string
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
	fmt.Fprintln(stdout, cfg.versionLine())
	if cfg.fallback != "" {
		fmt.Fprintf(stdout, "warning: %s\n", indentTail(cfg.fallbackWarning()))
	}
	rep, root := newReport(ctx, stdout, cfg.verbose)

	plan, err := suite.Prepare(suite.Options{BaseDir: cfg.baseDir, PayloadDir: cfg.payloadDir, Era: cfg.era, Strict: cfg.strict})
	for _, e := range suite.Flatten(err) {
		root.Errorf("%v", e)
	}
	if plan != nil {
		for _, w := range plan.Warnings {
			fmt.Fprintf(stdout, "warning: %s\n", indentTail(w.Error()))
		}
	}
	stale := staleReporter(cfg, plan, root)
	stale()
	if plan != nil && cfg.filter != nil {
		plan = plan.Filter(cfg.filter.MatchString)
	}
	if plan != nil && plan.Tests() > 0 {
		fmt.Fprintf(stdout, "apitest: %d suites, %d (suite × CRD file) pairs, %d tests, in %d batches\n",
			countSuites(plan), plan.Suites(), plan.Tests(), len(plan.Batches))
		if srv := startServer(ctx, cfg, root, stdout); srv != nil {
			if cfg.fallback != "" {
				stale() // the skip list of the release the tests run on
			}
			runTests(cfg, plan, srv, root, stdout)
		}
	}

	elapsed := time.Since(start)
	if cfg.junit != "" {
		if err := rep.writeJUnit(cfg.junit, elapsed); err != nil {
			root.Errorf("writing the JUnit file: %v", err)
		}
	}
	passed, failed, skipped := rep.summary()
	fmt.Fprintf(stdout, "apitest: finished in %v; peak RSS %s\n", elapsed.Round(time.Millisecond), peakMemory())
	if cfg.fallback != "" {
		fmt.Fprintf(stdout, "apitest: the tests ran on Kubernetes %s, not on %s (%s), which %s\n",
			cfg.version.Minor, cfg.target.Minor, cfg.target.Reason, cfg.fallback)
	}
	if skipped > 0 {
		fmt.Fprintf(stdout, "apitest: %d tests skipped by %s\n", skipped, cfg.skip.path)
	}
	fmt.Fprintf(stdout, "%d passed, %d failed\n", passed, failed)
	if failed > 0 || passed == 0 {
		return exitFailed
	}
	return exitPassed
}

// staleReporter returns a function that fails the run for every test the
// skip list names that the plan (unfiltered) does not have; called again
// after the skip list changed (a fallback to the linked release), it
// reports only what it has not reported yet.
func staleReporter(cfg *config, plan *suite.Plan, root *node) func() {
	reported := map[string]bool{}
	return func() {
		for _, e := range cfg.skip.stale(cfg.baseDir, plan) {
			if msg := e.Error(); !reported[msg] {
				reported[msg] = true
				root.Errorf("%s", msg)
			}
		}
	}
}

// startAPIServer starts an API server; a variable so that tests can make the start
// of a release fail without building its program.
var startAPIServer = kubeversion.Start

// startServer starts the API server of cfg.version and says when it is
// ready. When that release was inferred (not chosen by --kube-version or
// the configuration) and its server cannot be built or started, that is a
// warning: the run falls back to the linked release, in this process,
// and says so (cfg.fallback, then also the skip list of that release).
// Otherwise a server that cannot start is a failure of the run; it
// returns nil then.
func startServer(ctx context.Context, cfg *config, root *node, stdout io.Writer) *server.Server {
	begin := time.Now()
	opts := kubeversion.Options{BuildOptions: kubeversion.BuildOptions{Progress: stdout}}
	srv, err := startAPIServer(ctx, cfg.version, opts)
	if err != nil && cfg.canFallBack() && ctx.Err() == nil {
		if ferr := cfg.fallBack("cannot be started: " + err.Error()); ferr != nil {
			root.Errorf("%v", ferr)
			return nil
		}
		fmt.Fprintf(stdout, "warning: %s\n", indentTail(cfg.fallbackWarning()))
		begin = time.Now()
		srv, err = startAPIServer(ctx, cfg.version, opts)
	}
	if err != nil {
		root.Errorf("starting the API server of Kubernetes %s: %v", cfg.version.Minor, err)
		return nil
	}
	fmt.Fprintf(stdout, "apitest: API server of Kubernetes %s ready in %v\n", cfg.version.Minor, time.Since(begin).Round(time.Millisecond))
	return srv
}

// runTests runs the plan on a started server and stops it. The time the
// tests took, server start and build excluded, is printed.
func runTests(cfg *config, plan *suite.Plan, srv *server.Server, root *node, stdout io.Writer) {
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
passed, 2 for a wrong command line or configuration.

Kubernetes version: --kube-version, else kubeVersion of
<base-dir>/.gatedcrd.yaml, else the minor of k8s.io/apimachinery (else
k8s.io/api) in the go.mod governing --base-dir (v0.35.1 runs on 1.35),
else the release apitest links (` + kubeversion.Linked + `, in this process). The first line
says which and why. A chosen release (flag or configuration) that is not
supported, or whose server cannot be built or started, is an error; an
inferred one is a warning, and the tests then run on ` + kubeversion.Linked + ` instead, as the
output says.

Payload: the FeatureGate manifests of --payload-dir decide which gates
each CRD file has. When none of them carries
release.openshift.io/major-version (the format before February 2026, as
operator repositories still ship it), the gates of a ClusterProfile and
feature set are those of the file named
featureGate-<Profile>-<FeatureSet>.yaml, whatever its annotations say, and
there are no major versions. referenceEra in .gatedcrd.yaml forces a
format instead of detecting it.

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
	kubeVersion := flags.String("kube-version", "", "the Kubernetes minor to run on, e.g. 1.32 (default: kubeVersion of <base-dir>/.gatedcrd.yaml, else inferred from the go.mod governing --base-dir, else "+kubeversion.Linked+")")
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
	cfg := &config{baseDir: *baseDir, payloadDir: *payloadDir, junit: *junit, parallel: *parallel, verbose: *verbose, strict: *strict, skipPath: *skip}
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
	repo, err := repoconfig.Load(cfg.baseDir)
	if err != nil {
		return nil, err
	}
	cfg.era = repo.ReferenceEra
	if cfg.target, err = kubetarget.Choose("--kube-version", withoutPatch(*kubeVersion), repo, cfg.baseDir, kubeversion.Linked); err != nil {
		return nil, err
	}
	if cfg.version, err = kubeversion.Lookup(cfg.target.Minor); err != nil {
		if !cfg.canFallBack() {
			return nil, fmt.Errorf("%s: %w", cfg.target.Reason, err)
		}
		if err := cfg.fallBack("cannot be used: " + err.Error()); err != nil {
			return nil, err
		}
	}
	if err := cfg.readSkipList(); err != nil {
		return nil, err
	}
	return cfg, nil
}

// withoutPatch drops the patch of "1.32.1": the patch release is fixed per
// minor (kubeversion.Lookup), and apitest always accepted one.
func withoutPatch(v string) string {
	if parts := strings.Split(v, "."); len(parts) == 3 {
		return parts[0] + "." + parts[1]
	}
	return v
}

// readSkipList reads --skip, if given, for the release the tests run on.
func (c *config) readSkipList() error {
	if c.skipPath == "" {
		return nil
	}
	list, err := readSkipList(c.skipPath, c.version.Minor)
	if err != nil {
		return fmt.Errorf("--skip: %w", err)
	}
	c.skip = list
	return nil
}

// canFallBack reports whether the run may fall back to the linked release
// when the chosen one cannot be used: only when that release was inferred
// (SPEC 9.1: at an explicit or configured release it is an error).
func (c *config) canFallBack() bool {
	return !c.target.Explicit && c.fallback == "" && c.target.Minor != kubeversion.Linked
}

// fallBack makes the run use the linked release instead of the chosen
// one; what says what is wrong with that ("cannot be started: ..."). The
// skip list is read again for the linked release.
func (c *config) fallBack(what string) error {
	linked, err := kubeversion.Lookup(kubeversion.Linked)
	if err != nil {
		return err
	}
	c.version, c.fallback = linked, what
	return c.readSkipList()
}

// versionLine is the first line of the output: the suites, the release
// they run on and why.
func (c *config) versionLine() string {
	why := c.target.Reason
	switch {
	case c.fallback != "":
		why = fmt.Sprintf("the release apitest links, instead of %s (%s), which it cannot run on: see the warning below", c.target.Minor, c.target.Reason)
	case c.target.Explicit || c.target.Minor == kubeversion.Linked:
	default:
		why += fmt.Sprintf(", inferred: if its server cannot be built or started, apitest warns and runs on %s, the release it links", kubeversion.Linked)
	}
	return fmt.Sprintf("apitest: suites below %s on Kubernetes %s (%s; k8s.io/apiextensions-apiserver %s)",
		c.baseDir, c.version.Minor, why, c.version.APIExtensions)
}

// fallbackWarning says that the run fell back to the linked release, why,
// and how to make that an error.
func (c *config) fallbackWarning() string {
	return fmt.Sprintf("Kubernetes %s (%s) %s\nthe tests run on %s, the release apitest links, instead; choose the release with --kube-version or kubeVersion in %s to make this an error",
		c.target.Minor, c.target.Reason, c.fallback, c.version.Minor, repoconfig.FileName)
}
