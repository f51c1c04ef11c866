package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gatedcrd/gatedcrd/apitest/server"
	"github.com/gatedcrd/gatedcrd/apitest/suite"
	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/internal/suiteserve"
)

// The --serve protocol: JSON lines. apitest starts the API server of the
// chosen release and writes one suiteserve.Ready line on standard output; then
// it reads one suiteserve.Request per line on standard input and answers each
// with one suiteserve.Result line, until standard input ends or a signal
// arrives, and then stops the server. Progress goes to standard error.
// codegen watch --suites is its client: it keeps apitest (and with it
// kube-apiserver and etcd) out of its own binary, and the server warm
// between the cycles of a watch.

// serve runs apitest --serve on a configuration of one release.
func serve(ctx context.Context, cfg *config, in io.Reader, stdout, stderr io.Writer) int {
	enc := json.NewEncoder(stdout)
	if cfg.matrix() || cfg.buildOnly || cfg.junit != "" {
		fmt.Fprintln(stderr, "apitest: --serve runs on one Kubernetes version, without --build-only or --junit")
		return exitUsage
	}
	fmt.Fprintln(stderr, cfg.versionLine())
	if cfg.fallback != "" {
		fmt.Fprintf(stderr, "warning: %s\n", indentTail(cfg.fallbackWarning()))
	}
	rep, root := newReport(ctx, stderr, false)
	srv := startServer(ctx, cfg, root, stderr)
	if srv == nil {
		_ = enc.Encode(suiteserve.Ready{Error: strings.Join(rep.problems, "; ")})
		return exitFailed
	}
	defer func() {
		if err := srv.Stop(); err != nil {
			fmt.Fprintf(stderr, "apitest: stopping the API server: %v\n", err)
		}
	}()
	if err := enc.Encode(suiteserve.Ready{Ready: true, KubeVersion: cfg.version.Minor, Reason: cfg.target.Reason}); err != nil {
		return exitFailed
	}
	// The CRDs stay installed from one request to the next, so that a
	// request for what ran before runs its tests only.
	installed := suite.NewInstalled()
	// So do the outcomes of the tests, so that a request after an edit
	// of one test runs that test only.
	var results *suite.Results
	if !cfg.rerunAll {
		results = suite.NewResults()
	}
	lines := readLines(in)
	for {
		select {
		case <-ctx.Done():
			return exitPassed
		case line, ok := <-lines:
			if !ok {
				return exitPassed
			}
			var req suiteserve.Request
			res := suiteserve.Result{}
			if err := json.Unmarshal(line, &req); err != nil {
				res.Error = fmt.Sprintf("reading the request %q: %v", line, err)
			} else {
				res = runRequested(ctx, cfg, srv, installed, results, req)
			}
			if err := enc.Encode(res); err != nil {
				return exitFailed
			}
		}
	}
}

// readLines delivers the non-empty lines of r until it ends.
func readLines(r io.Reader) <-chan []byte {
	out := make(chan []byte)
	go func() {
		defer close(out)
		sc := bufio.NewScanner(r)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			if line := sc.Bytes(); len(strings.TrimSpace(string(line))) > 0 {
				out <- slices.Clone(line)
			}
		}
	}()
	return out
}

// runRequested runs the pairs of the requested files on srv, which holds
// the CRDs installed says; the tests whose outcome results holds are not
// run again (nil runs every test). Only the version directories of those files
// are read (their suites, CRD files and payload), so that the cost
// follows the change, not the tree.
func runRequested(ctx context.Context, cfg *config, srv *server.Server, installed *suite.Installed, results *suite.Results, req suiteserve.Request) suiteserve.Result {
	start := time.Now()
	var out lockedWriter
	var text strings.Builder
	out.w = &text
	var w io.Writer = &out
	if !cfg.verbose {
		w = failuresOnly{w: &out}
	}
	rep, root := newReport(ctx, w, cfg.verbose)
	wanted := map[string]bool{}
	dirs := map[string]bool{}
	for _, p := range append(slices.Clone(req.CRDFiles), req.SuiteFiles...) {
		p = filepath.Clean(p)
		wanted[p] = true
		if vd, ok := suite.VersionDir(p); ok {
			dirs[vd] = true
		}
	}
	pairs := 0
	stats := &suite.Stats{}
	for _, vd := range slices.Sorted(maps.Keys(dirs)) {
		plan := prepareVersionDir(cfg, vd, wanted, root)
		if plan == nil {
			continue
		}
		plan = plan.Select(func(v *suite.Variant, s *suite.Suite) bool {
			return wanted[filepath.Clean(v.File.Path)] || wanted[filepath.Clean(s.Path)]
		})
		if cfg.filter != nil {
			plan = plan.Filter(cfg.filter.MatchString)
		}
		pairs += plan.Suites()
		opts := suiteOptions(cfg, cfg.skip, srv)
		opts.Stats = stats
		opts.Installed = installed
		opts.Results = results
		suite.RunPlan(root, plan, opts)
	}
	passed, failed, skipped := rep.summary()
	res := suiteserve.Result{Pairs: pairs, Passed: passed, Failed: failed, Skipped: skipped, Unchanged: stats.Unchanged,
		Output: text.String(), Duration: time.Since(start)}
	if stats.Batches > 0 {
		res.Where = stats.String()
	}
	return res
}

// prepareVersionDir plans the suites of one version directory and
// reports the problems that concern the wanted files (a suite that does
// not parse, a CRD file that does not read) or the directory as a whole
// (its payload); a broken suite nobody edited is not repeated after
// every cycle. It returns nil when the directory has no suite.
func prepareVersionDir(cfg *config, vd string, wanted map[string]bool, root *node) *suite.Plan {
	if found, err := suite.Discover(vd); err != nil || len(found) == 0 {
		return nil
	}
	payloadDir := cfg.payloadDir
	if def := suite.DefaultPayloadDir(cfg.baseDir); payloadDir == "" && isDir(def) {
		payloadDir = def // what a run on the whole tree uses for every suite
	}
	plan, err := suite.Prepare(suite.Options{BaseDir: vd, PayloadDir: payloadDir, Era: cfg.era, Strict: cfg.strict})
	for _, e := range diag.Flatten(err) {
		var se *diag.Diagnostic
		if errors.As(e, &se) && !wanted[filepath.Clean(se.File)] {
			continue
		}
		root.Errorf("%v", e)
	}
	return plan
}

// suiteOptions are the options of a run of the plan on srv: the
// configuration's filter, and its skip list for the release.
func suiteOptions(cfg *config, skip *skipList, srv *server.Server) suite.Options {
	opts := suite.Options{Server: srv, Parallel: cfg.parallel}
	if cfg.filter != nil {
		opts.Filter = cfg.filter.MatchString // the tests of a kept pair, too
	}
	if skip != nil {
		opts.Skip = func(s *suite.Suite, kind, test string) string { return skip.reason(cfg.baseDir, s, kind, test) }
	}
	return opts
}

// failuresOnly drops the progress line of a pair that passed: the report
// writes each pair whole, in one write starting with "ok".
type failuresOnly struct{ w io.Writer }

func (f failuresOnly) Write(p []byte) (int, error) {
	if strings.HasPrefix(string(p), "ok ") {
		return len(p), nil
	}
	return f.w.Write(p)
}

func isDir(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.IsDir()
}
