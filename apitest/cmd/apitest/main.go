package main

import (
	"context"
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
	"github.com/gatedcrd/gatedcrd/internal/clicontract"
	"github.com/gatedcrd/gatedcrd/internal/diag"
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
	quiet    bool
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
	// rerunAll makes --serve run every test of the requested pairs,
	// also those unchanged since their last run (suite.Results).
	rerunAll bool
}

// matrix reports whether the run is on several Kubernetes versions.
func (c *config) matrix() bool { return len(c.versions) > 1 }

// Exit statuses (internal/clicontract): everything passed; some test
// failed (or could not run); the command line is wrong; the
// configuration or a directory named is wrong.
const (
	exitPassed = clicontract.ExitOK
	exitFailed = clicontract.ExitFailed
	exitUsage  = clicontract.ExitUsage
	exitInput  = clicontract.ExitInput
)

// run runs the command line args: results to stdout, progress and
// warnings to stderr (none with -q), and returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	code := exitPassed
	cmd := newCommand(func(cfg *config) {
		code = runConfig(ctx, cfg, stdout, stderr)
	})
	if status := clicontract.Execute(cmd, args, stdout, stderr); status != exitPassed {
		return status
	}
	return code
}

// runConfig runs the resolved command line.
func runConfig(ctx context.Context, cfg *config, stdout, stderr io.Writer) int {
	// Several servers report at once: every write is one whole line or
	// one whole pair.
	stdout = &lockedWriter{w: stdout}
	progress := io.Writer(&lockedWriter{w: stderr})
	if cfg.quiet {
		progress = io.Discard
	}
	if cfg.buildOnly {
		return buildOnly(ctx, cfg, stdout, progress)
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
			fmt.Fprintln(stderr, clicontract.IOf("--cpuprofile: %v", err).Msg)
			return clicontract.ExitIO
		}
		defer func() {
			pprof.StopCPUProfile()
			f.Close()
		}()
	}
	start := time.Now()
	fmt.Fprintln(progress, cfg.versionLine())
	if cfg.fallback != "" {
		fmt.Fprintf(progress, "warning: %s\n", indentTail(cfg.fallbackWarning()))
	}
	rep, root := newReport(ctx, stdout, cfg.verbose)
	rep.matrix, rep.baseDir = cfg.matrix(), cfg.baseDir

	plan, err := suite.Prepare(suite.Options{BaseDir: cfg.baseDir, PayloadDir: cfg.payloadDir, Era: cfg.era, Strict: cfg.strict})
	for _, e := range diag.Flatten(err) {
		root.Errorf("%v", e)
	}
	if plan != nil {
		for _, w := range plan.Warnings {
			fmt.Fprintf(progress, "warning: %s\n", indentTail(w.Error()))
		}
	}
	stale := staleReporter(cfg, plan, root)
	stale()
	if plan != nil && cfg.filter != nil {
		plan = plan.Filter(cfg.filter.MatchString)
	}
	if plan != nil && plan.Tests() > 0 {
		fmt.Fprintf(progress, "apitest: %d suites, %d (suite × CRD file) pairs, %d tests, in %d batches%s\n",
			countSuites(plan), plan.Suites(), plan.Tests(), len(plan.Batches), cfg.matrixNote())
		if cfg.matrix() {
			runMatrix(ctx, cfg, plan, rep, progress)
		} else if srv := startServer(ctx, cfg, root, progress); srv != nil {
			if cfg.fallback != "" {
				stale() // the skip list of the release the tests run on
			}
			runTests(cfg, cfg.version, cfg.skip, plan, srv, rep.root(cfg.version.Minor), progress)
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
	fmt.Fprintf(progress, "apitest: finished in %v; peak RSS %s\n", elapsed.Round(time.Millisecond), peakMemory())
	if cfg.fallback != "" {
		fmt.Fprintf(progress, "apitest: the tests ran on Kubernetes %s, not on %s (%s), which %s\n",
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
func runMatrix(ctx context.Context, cfg *config, plan *suite.Plan, rep *report, progress io.Writer) {
	limit, why := cfg.kubeParallel, "--kube-parallel"
	if limit <= 0 {
		limit, why = versionLimit(len(cfg.versions))
	}
	limit = min(limit, len(cfg.versions))
	fmt.Fprintf(progress, "apitest: %d Kubernetes versions, %d at a time (%s)\n", len(cfg.versions), limit, why)
	workers.EachLimit(limit, len(cfg.versions), func(i int) {
		v := cfg.versions[i]
		root := rep.root(v.Minor)
		begin := time.Now()
		opts := kubeversion.Options{BuildOptions: kubeversion.BuildOptions{Progress: progress}}
		srv, err := startAPIServer(ctx, v, opts)
		if err != nil {
			root.Errorf("starting the API server of Kubernetes %s: %v", v.Minor, err)
			return
		}
		fmt.Fprintf(progress, "apitest: API server of Kubernetes %s ready in %v\n", v.Minor, time.Since(begin).Round(time.Millisecond))
		runTests(cfg, v, cfg.skips[v.Minor], plan, srv, root, progress)
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
func startServer(ctx context.Context, cfg *config, root *node, progress io.Writer) *server.Server {
	begin := time.Now()
	opts := kubeversion.Options{BuildOptions: kubeversion.BuildOptions{Progress: progress}}
	srv, err := startAPIServer(ctx, cfg.version, opts)
	if err != nil && cfg.canFallBack() && ctx.Err() == nil {
		if ferr := cfg.fallBack("cannot be started: " + err.Error()); ferr != nil {
			root.Errorf("%v", ferr)
			return nil
		}
		fmt.Fprintf(progress, "warning: %s\n", indentTail(cfg.fallbackWarning()))
		begin = time.Now()
		srv, err = startAPIServer(ctx, cfg.version, opts)
	}
	if err != nil {
		root.Errorf("starting the API server of Kubernetes %s: %v", cfg.version.Minor, err)
		return nil
	}
	fmt.Fprintf(progress, "apitest: API server of Kubernetes %s ready in %v\n", cfg.version.Minor, time.Since(begin).Round(time.Millisecond))
	return srv
}

// runTests runs the plan on a started server of version v, reporting to
// root, and stops it. The time the tests took, server start and build
// excluded, is printed.
func runTests(cfg *config, v kubeversion.Version, skip *skipList, plan *suite.Plan, srv *server.Server, root *node, progress io.Writer) {
	start := time.Now()
	opts := suiteOptions(cfg, skip, srv)
	opts.Stats = &suite.Stats{}
	suite.RunPlan(root, plan, opts)
	if cfg.matrix() {
		fmt.Fprintf(progress, "apitest: tests on Kubernetes %s ran in %v (%s)\n", v.Minor, time.Since(start).Round(time.Millisecond), opts.Stats)
	} else {
		fmt.Fprintf(progress, "apitest: tests ran in %v\n", time.Since(start).Round(time.Millisecond))
		if cfg.verbose {
			fmt.Fprintf(progress, "apitest: %s\n", opts.Stats)
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
		reason = "kubeVersions of " + diag.Position{File: repo.File, Line: repo.KubeVersions.Line}.String()
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
// (at an explicit or configured release it is an error: the user chose
// it, so a run on another would answer a question they did not ask).
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
