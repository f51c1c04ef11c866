package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"runtime/pprof"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gatedcrd/gatedcrd/apitest/kubeversion"
	"github.com/gatedcrd/gatedcrd/apitest/server"
	"github.com/gatedcrd/gatedcrd/apitest/suite"
	"github.com/gatedcrd/gatedcrd/features/payload"
	"github.com/gatedcrd/gatedcrd/internal/kubetarget"
	"github.com/gatedcrd/gatedcrd/internal/repoconfig"
	"github.com/gatedcrd/gatedcrd/internal/workers"
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

	// versions are the releases of a run on several versions (a list or
	// range of --kube-version, or kubeVersions of the configuration),
	// oldest first; nil for a run on one (version).
	versions []kubeversion.Version
	// skips are the skip lists of each release of versions, by minor.
	skips map[string]*skipList
	// kubeParallel bounds how many versions run at once; 0 decides by
	// cores and memory (versionLimit).
	kubeParallel int
	// buildOnly builds the server programs and runs nothing.
	buildOnly bool
	// cpuProfile is where to write a CPU profile; "" for none.
	cpuProfile string
	// serve keeps the server up and runs the suites of the files each
	// request on standard input names (see serve.go).
	serve bool
}

// matrix reports whether the run is on several Kubernetes versions.
func (c *config) matrix() bool { return len(c.versions) > 1 }

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
	// Several servers report at once: every write is one whole line or
	// one whole pair.
	stdout = &lockedWriter{w: stdout}
	if cfg.buildOnly {
		return buildOnly(ctx, cfg, stdout)
	}
	if cfg.serve {
		return serve(ctx, cfg, os.Stdin, stdout, stderr)
	}
	routeWarnings()
	if cfg.cpuProfile != "" {
		f, err := os.Create(cfg.cpuProfile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintf(stderr, "apitest: --cpuprofile: %v\n", err)
			return exitUsage
		}
		defer func() {
			pprof.StopCPUProfile()
			f.Close()
		}()
	}
	start := time.Now()
	fmt.Fprintln(stdout, cfg.versionLine())
	if cfg.fallback != "" {
		fmt.Fprintf(stdout, "warning: %s\n", indentTail(cfg.fallbackWarning()))
	}
	rep, root := newReport(ctx, stdout, cfg.verbose)
	rep.matrix, rep.baseDir = cfg.matrix(), cfg.baseDir

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
		fmt.Fprintf(stdout, "apitest: %d suites, %d (suite × CRD file) pairs, %d tests, in %d batches%s\n",
			countSuites(plan), plan.Suites(), plan.Tests(), len(plan.Batches), cfg.matrixNote())
		if cfg.matrix() {
			runMatrix(ctx, cfg, plan, rep, stdout)
		} else if srv := startServer(ctx, cfg, root, stdout); srv != nil {
			if cfg.fallback != "" {
				stale() // the skip list of the release the tests run on
			}
			runTests(cfg, cfg.version, cfg.skip, plan, srv, rep.root(cfg.version.Minor), stdout)
		}
	}

	elapsed := time.Since(start)
	if cfg.junit != "" {
		if err := rep.writeJUnit(cfg.junit, elapsed); err != nil {
			root.Errorf("writing the JUnit file: %v", err)
		}
	}
	if cfg.matrix() {
		io.WriteString(stdout, rep.table(cfg.minors()))
	}
	passed, failed, skipped := rep.summary()
	fmt.Fprintf(stdout, "apitest: finished in %v; peak RSS %s\n", elapsed.Round(time.Millisecond), peakMemory())
	if cfg.fallback != "" {
		fmt.Fprintf(stdout, "apitest: the tests ran on Kubernetes %s, not on %s (%s), which %s\n",
			cfg.version.Minor, cfg.target.Minor, cfg.target.Reason, cfg.fallback)
	}
	if skipped > 0 {
		fmt.Fprintf(stdout, "apitest: %d tests skipped by %s\n", skipped, cfg.skipPath)
	}
	if w := rep.warningSummary(); w != "" {
		fmt.Fprintln(stdout, w)
	}
	fmt.Fprintf(stdout, "%d passed, %d failed\n", passed, failed)
	if failed > 0 || passed == 0 {
		return exitFailed
	}
	return exitPassed
}

// lockedWriter serialises writes: each Write reaches the output whole.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// runMatrix runs the plan on every version of cfg.versions, each on a
// server of its own, as many at once as versionLimit allows.
func runMatrix(ctx context.Context, cfg *config, plan *suite.Plan, rep *report, stdout io.Writer) {
	limit, why := cfg.kubeParallel, "--kube-parallel"
	if limit <= 0 {
		limit, why = versionLimit(len(cfg.versions))
	}
	limit = min(limit, len(cfg.versions))
	fmt.Fprintf(stdout, "apitest: %d Kubernetes versions, %d at a time (%s)\n", len(cfg.versions), limit, why)
	workers.EachLimit(limit, len(cfg.versions), func(i int) {
		v := cfg.versions[i]
		root := rep.root(v.Minor)
		begin := time.Now()
		opts := kubeversion.Options{BuildOptions: kubeversion.BuildOptions{Progress: stdout}}
		srv, err := startAPIServer(ctx, v, opts)
		if err != nil {
			root.Errorf("starting the API server of Kubernetes %s: %v", v.Minor, err)
			return
		}
		fmt.Fprintf(stdout, "apitest: API server of Kubernetes %s ready in %v\n", v.Minor, time.Since(begin).Round(time.Millisecond))
		runTests(cfg, v, cfg.skips[v.Minor], plan, srv, root, stdout)
	})
}

// staleReporter returns a function that fails the run for every test the
// skip list names that the plan (unfiltered) does not have; called again
// after the skip list changed (a fallback to the linked release), it
// reports only what it has not reported yet.
func staleReporter(cfg *config, plan *suite.Plan, root *node) func() {
	reported := map[string]bool{}
	return func() {
		for _, list := range cfg.skipLists() {
			for _, e := range list.stale(cfg.baseDir, plan) {
				if msg := e.Error(); !reported[msg] {
					reported[msg] = true
					root.Errorf("%s", msg)
				}
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

// runTests runs the plan on a started server of version v, reporting to
// root, and stops it. The time the tests took, server start and build
// excluded, is printed.
func runTests(cfg *config, v kubeversion.Version, skip *skipList, plan *suite.Plan, srv *server.Server, root *node, stdout io.Writer) {
	start := time.Now()
	opts := suiteOptions(cfg, skip, srv)
	opts.Stats = &suite.Stats{}
	suite.RunPlan(root, plan, opts)
	if cfg.matrix() {
		fmt.Fprintf(stdout, "apitest: tests on Kubernetes %s ran in %v (%s)\n", v.Minor, time.Since(start).Round(time.Millisecond), opts.Stats)
	} else {
		fmt.Fprintf(stdout, "apitest: tests ran in %v\n", time.Since(start).Round(time.Millisecond))
		if cfg.verbose {
			fmt.Fprintf(stdout, "apitest: %s\n", opts.Stats)
		}
	}
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
<dir>/tests/<crd name>/*.yaml below --base-dir, against the CRD files of
<dir>/zz_generated.crd-manifests) on a real API server of the chosen
Kubernetes version, or of each of several versions. Progress and failures
go to standard output; the last line reads "N passed, M failed", over all
versions. The exit status is 0 only if every test passed, 2 for a wrong
command line or configuration.

Kubernetes version: --kube-version, else kubeVersions, else kubeVersion of
<base-dir>/.gatedcrd.yaml, else the minor of k8s.io/apimachinery (else
k8s.io/api) in the go.mod governing --base-dir (v0.35.1 runs on 1.35),
else the release apitest links (` + kubeversion.Linked + `, in this process). The first line
says which and why. A chosen release (flag or configuration) that is not
supported, or whose server cannot be built or started, is an error; an
inferred one is a warning, and the tests then run on ` + kubeversion.Linked + ` instead, as the
output says.

Several versions (--kube-version 1.31,1.36 or 1.30-1.37, or kubeVersions):
the suites are read and planned once and run on a server per version,
several versions at once (--kube-parallel); each pair's line starts with
its version, and a table of suite files × versions closes the run.
--build-only builds the server programs of the versions and runs nothing.

Payload: the FeatureGate manifests of --payload-dir decide which gates
each CRD file has (default <base-dir>/payload-manifests/featuregates, else
for the suites of each directory the nearest payload-manifests/featuregates
or featuregates holding featureGate-*.yaml, beside it or above it up to the
module root). When none of them carries
release.openshift.io/major-version (the format before February 2026, as
operator repositories still ship it), the gates of a ClusterProfile and
feature set are those of the file named
featureGate-<Profile>-<FeatureSet>.yaml, whatever its annotations say, and
there are no major versions. referenceEra in .gatedcrd.yaml forces a
format instead of detecting it.

API warnings (such as unknown fields) are kept with their test: shown
under a failing test, under every test with -v, and counted before the
last line.

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
	payloadDir := flags.String("payload-dir", "", "the payload FeatureGate manifests (default <base-dir>/payload-manifests/featuregates, else for each directory of suites the nearest payload-manifests/featuregates or featuregates beside or above it)")
	kubeVersion := flags.String("kube-version", "", "the Kubernetes minor to run on, e.g. 1.32, or several: a list 1.31,1.36 or a range 1.30-1.37, each on a server of its own (default: kubeVersions, else kubeVersion of <base-dir>/.gatedcrd.yaml, else inferred from the go.mod governing --base-dir, else "+kubeversion.Linked+")")
	kubeParallel := flags.Int("kube-parallel", 0, "how many Kubernetes versions run at once (default: as many as the cores, at least 2, and the available memory allow)")
	cpuProfile := flags.String("cpuprofile", "", "write a CPU profile of this process (the client, and the server of "+kubeversion.Linked+", which runs in it) to this file, for performance work")
	buildOnly := flags.Bool("build-only", false, "only build the API server programs of the chosen versions (or find them cached), printing the time and size of each; runs no test")
	filter := flags.String("run", "", "run only the tests whose full name (pair/onCreate|onUpdate/test) matches this regular expression")
	junit := flags.String("junit", "", "also write the results as JUnit XML to this file")
	parallel := flags.Int("parallel", 4, "how many (suite × CRD file) pairs of different group-versions run at once")
	verbose := flags.Bool("v", false, "list every test, not only failures")
	skip := flags.String("skip", "", "a YAML list of tests that cannot pass on some Kubernetes versions, and why (see README); they are reported as skipped")
	serveMode := flags.Bool("serve", false, "keep the API server running and answer run requests, one JSON line each on standard input, with one JSON line of results on standard output (the protocol of codegen watch --suites)")
	strict := flags.Bool("strict", false, "reject suite files with the defects openshift/api's runner accepts (unknown or repeated fields, repeated test names) instead of warning")
	if err := flags.Parse(args); err != nil {
		return nil, err
	}
	if flags.NArg() > 0 {
		flags.Usage()
		return nil, fmt.Errorf("unexpected arguments %q", flags.Args())
	}
	cfg := &config{baseDir: *baseDir, payloadDir: *payloadDir, junit: *junit, parallel: *parallel, verbose: *verbose, strict: *strict, skipPath: *skip,
		kubeParallel: *kubeParallel, buildOnly: *buildOnly, cpuProfile: *cpuProfile, serve: *serveMode}
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
	list, reason, err := versionList(*kubeVersion, repo)
	if err != nil {
		return nil, err
	}
	switch {
	case len(list) > 1:
		cfg.versions, cfg.version = list, list[0]
		cfg.target = kubetarget.Choice{Minor: strings.Join(cfg.minors(), ","), Reason: reason, Explicit: true}
	case len(list) == 1:
		cfg.version = list[0]
		cfg.target = kubetarget.Choice{Minor: list[0].Minor, Reason: reason, Explicit: true}
	default:
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
	}
	if err := cfg.readSkipList(); err != nil {
		return nil, err
	}
	return cfg, nil
}

// versionList returns the releases of a run on a list or range of them:
// --kube-version when it holds a list or a range ("1.31,1.36",
// "1.30-1.37"), else kubeVersions of the configuration when the flag is
// not given. It returns nil when the release is chosen as for one
// (kubetarget.Choose). reason says where the list came from. Every
// release must be supported.
func versionList(flagValue string, repo repoconfig.Config) (list []kubeversion.Version, reason string, err error) {
	var minors []repoconfig.KubeVersion
	switch {
	case strings.ContainsAny(flagValue, ",-"):
		reason = "--kube-version"
		if minors, err = repoconfig.ParseKubeVersions(flagValue); err != nil {
			return nil, "", fmt.Errorf("%s: %w", reason, err)
		}
	case flagValue == "" && repo.KubeVersions.IsSet():
		reason = fmt.Sprintf("kubeVersions of %s:%d", repo.File, repo.KubeVersions.Line)
		minors = repo.KubeVersions.Versions
	default:
		return nil, "", nil
	}
	for _, m := range minors {
		v, err := kubeversion.Lookup(m.String())
		if err != nil {
			return nil, "", fmt.Errorf("%s: %w", reason, err)
		}
		list = append(list, v)
	}
	return list, reason, nil
}

// minors returns the releases of the run, oldest first.
func (c *config) minors() []string {
	if !c.matrix() {
		return []string{c.version.Minor}
	}
	out := make([]string, len(c.versions))
	for i, v := range c.versions {
		out[i] = v.Minor
	}
	return out
}

// matrixNote ends the plan's line in a run on several versions.
func (c *config) matrixNote() string {
	if !c.matrix() {
		return ""
	}
	return fmt.Sprintf(", on each of %d Kubernetes versions", len(c.versions))
}

// withoutPatch drops the patch of "1.32.1": the patch release is fixed per
// minor (kubeversion.Lookup), and apitest always accepted one.
func withoutPatch(v string) string {
	if parts := strings.Split(v, "."); len(parts) == 3 {
		return parts[0] + "." + parts[1]
	}
	return v
}

// readSkipList reads --skip, if given, for the release the tests run on,
// or for each release of a run on several.
func (c *config) readSkipList() error {
	if c.skipPath == "" {
		return nil
	}
	if c.matrix() {
		c.skips = map[string]*skipList{}
		for _, v := range c.versions {
			list, err := readSkipList(c.skipPath, v.Minor)
			if err != nil {
				return fmt.Errorf("--skip: %w", err)
			}
			c.skips[v.Minor] = list
		}
		return nil
	}
	list, err := readSkipList(c.skipPath, c.version.Minor)
	if err != nil {
		return fmt.Errorf("--skip: %w", err)
	}
	c.skip = list
	return nil
}

// skipLists returns the skip lists of the run's releases.
func (c *config) skipLists() []*skipList {
	if !c.matrix() {
		return []*skipList{c.skip}
	}
	var out []*skipList
	for _, v := range c.versions {
		out = append(out, c.skips[v.Minor])
	}
	return out
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
	if c.matrix() {
		releases := make([]string, len(c.versions))
		for i, v := range c.versions {
			releases[i] = v.APIExtensions
		}
		return fmt.Sprintf("apitest: suites below %s on Kubernetes %s (%s; k8s.io/apiextensions-apiserver %s)",
			c.baseDir, strings.Join(c.minors(), ", "), why, strings.Join(releases, ", "))
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
