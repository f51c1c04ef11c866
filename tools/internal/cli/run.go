package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"k8s.io/klog/v2"

	"github.com/gatedcrd/gatedcrd/features/payload"
	"github.com/gatedcrd/gatedcrd/internal/repoconfig"
	"github.com/gatedcrd/gatedcrd/tools/pkg/baseline"
	"github.com/gatedcrd/gatedcrd/tools/pkg/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
	"github.com/gatedcrd/gatedcrd/tools/pkg/goload"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifestmerge"
	"github.com/gatedcrd/gatedcrd/tools/pkg/partialschemas"
	"github.com/gatedcrd/gatedcrd/tools/pkg/schemapatch"
	"github.com/gatedcrd/gatedcrd/tools/pkg/strictmarkers"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// stageSet selects the CRD stages a command runs.
type stageSet uint8

const (
	stagePartial stageSet = 1 << iota
	stageSchema
	stageMerge
	allStages = stagePartial | stageSchema | stageMerge
)

// runState is what one invocation accumulates.
type runState struct {
	opts     *options
	stages   stageSet
	disc     *discovery.Result
	tree     *tree.Tree
	problems *diag.List
	timings  []string
	stats    runStats
	// payload caches the payload FeatureGate directory (payloadDirectory).
	payload     *payload.Directory
	payloadErr  error
	payloadRead bool
	// config is the repository configuration (.gatedcrd.yaml).
	config repoconfig.Config
	// overlay holds Go files edited by this run (compatibility lines),
	// loaded in place of their disk content.
	overlay map[string][]byte
	// baseline is the strict baseline of the tree (nil: none), accepted
	// counts the findings it accepted; findings are what strict-baseline
	// collects (see baseline.go).
	baseline *baseline.Baseline
	accepted int
	findings []baseline.Finding
}

func (s *runState) timed(name string, fn func() error) error {
	start := time.Now()
	err := fn()
	d := time.Since(start)
	s.timings = append(s.timings, fmt.Sprintf("%s %s", name, d.Round(time.Millisecond)))
	s.stats.addStage(name, d)
	return err
}

func (s *runState) progress(format string, args ...any) {
	if !s.opts.quiet {
		fmt.Fprintf(s.opts.stderr, format+"\n", args...)
	}
}

// run executes the selected stages and commits or verifies the result.
func run(opts *options, stages stageSet) error {
	if len(opts.requiredFS) > 0 {
		return &exitError{code: ExitUsage, msg: "error: --required-feature-sets selects the legacy FeatureSet mode, which gatedcrd does not implement (see SPEC 4.6); gate fields with +openshift:enable:FeatureGate instead"}
	}
	start := time.Now()
	s := &runState{opts: opts, stages: stages, tree: tree.New(), problems: &diag.List{}}

	var disc *discovery.Result
	err := s.timed("discovery", func() error {
		var probs *diag.List
		var err error
		disc, probs, err = discovery.Discover(opts.baseDir, opts.groupVersions)
		if probs != nil {
			s.problems.Add(probs.Items()...)
		}
		if disc != nil {
			// Discover found the tree; its error repeats its problems,
			// whose strict findings settleStrict may still accept.
			err = nil
		}
		return err
	})
	s.disc = disc
	if err == nil {
		err = s.readBaseline()
	}
	if err != nil || s.hasErrors() {
		return s.fail(err)
	}
	if err := s.loadRepoConfig(); err != nil {
		return s.fail(err)
	}
	versions := disc.Versions()
	s.progress("codegen: %d API group(s), %d group-version(s) under %s", len(disc.Groups), len(versions), opts.baseDir)

	// Without versions Load returns an empty universe without loading, so
	// that the stages find nothing to do instead of missing input.
	var universe *goload.Universe
	if stages&(stagePartial|stageSchema) != 0 && s.config.Compatibility.Enabled {
		s.timed("compatibility", s.applyCompatibility)
		if s.problems.HasErrors() {
			return s.fail(nil)
		}
	}
	if stages&(stagePartial|stageSchema) != 0 {
		err := s.timed("load", func() error {
			var paths []string
			for _, v := range versions {
				paths = append(paths, v.ImportPath)
			}
			var err error
			universe, err = goload.LoadWithOverlay(disc.BaseDir, paths, s.overlay)
			if err == nil {
				s.stats.PackageLoads = universe.Loads()
				s.stats.PackagesLoaded = universe.PackageCount()
			}
			return err
		})
		if err != nil {
			return s.fail(fmt.Errorf("loading Go packages: %w", err))
		}
	}

	if universe != nil {
		s.timed("strict-markers", func() error {
			s.checkMarkers(universe)
			return nil
		})
		if s.hasErrors() {
			return s.fail(nil)
		}
	}

	var partials *partialschemas.Result
	if stages&stagePartial != 0 {
		err := s.timed("empty-partial-schemas", func() error {
			res, err := partialschemas.Run(partialschemas.Input{Discovery: disc, Universe: universe, Tree: s.tree, Problems: s.problems, Strict: opts.strict})
			partials = res
			if err == nil && res != nil {
				unchanged := 0
				for _, v := range res.Versions {
					s.stats.CRDs += len(v.CRDs)
					for _, c := range v.CRDs {
						s.stats.PartialManifests += len(c.Manifests)
						for _, m := range c.Manifests {
							if m.Action == partialschemas.Unchanged {
								unchanged++
							}
						}
					}
				}
				s.stats.PartialUnchanged = unchanged
				klog.V(1).Infof("empty-partial-schemas: %d CRD(s), %d partial manifest(s)", s.stats.CRDs, s.stats.PartialManifests)
			}
			return err
		})
		if err != nil || s.hasErrors() {
			return s.fail(err)
		}
	}
	if stages&stageSchema != 0 {
		err := s.timed("schemapatch", func() error {
			res, err := schemapatch.Run(schemapatch.Input{Discovery: disc, Universe: universe, Tree: s.tree, Problems: s.problems,
				EnumFromConstants: s.config.EnumFromConstants})
			if err == nil && res != nil {
				s.stats.GateSets, s.stats.SchemasGenerated = res.GateSets, res.Schemas
				klog.V(1).Infof("schemapatch: %d manifest(s), %d gate set(s), %d schema(s) generated", res.Manifests, res.GateSets, res.Schemas)
			}
			return err
		})
		if err != nil || s.hasErrors() {
			return s.fail(err)
		}
	}
	var merged *manifestmerge.Result
	if stages&stageMerge != 0 && len(versions) > 0 {
		err := s.timed("crd-manifest-merge", func() error {
			d, err := s.payloadDirectory()
			if err != nil {
				var errs []error
				for _, p := range payloadProblems(resolve(disc.BaseDir, opts.payloadDir), err) {
					errs = append(errs, p)
				}
				return errors.Join(errs...)
			}
			res, err := manifestmerge.Run(manifestmerge.Input{Discovery: disc, Tree: s.tree, Problems: s.problems, Payload: d})
			merged = res
			if err == nil && res != nil {
				tot := res.Totals()
				s.stats.Tuples, s.stats.MergesComputed, s.stats.MergedFiles = tot.Tuples, tot.InputSets, tot.Files
				klog.V(1).Infof("crd-manifest-merge: %d tuple(s), %d distinct input set(s) merged, %d file(s)", tot.Tuples, tot.InputSets, tot.Files)
			}
			return err
		})
		if err != nil || s.hasErrors() {
			return s.fail(err)
		}
		s.checkRequiredAnnotations(universe)
		if s.problems.HasErrors() {
			return s.fail(nil)
		}
	}
	if merged != nil {
		err := s.timed("crd-validation", func() error { return s.validateCRDs(merged, universe) })
		var ee *exitError
		if errors.As(err, &ee) {
			return ee
		}
		if err != nil || s.problems.HasErrors() {
			return s.fail(err)
		}
	}
	if merged != nil && partials != nil && s.wantsGateDocs() {
		if err := s.timed("gate-docs", func() error { return s.writeGateDocs(partials, universe) }); err != nil {
			return s.fail(err)
		}
	}
	if opts.writeBaseline {
		s.printWarnings()
		return s.writeBaselineFile()
	}
	s.reportBaseline()
	s.printWarnings()
	return s.finish(start)
}

// checkMarkers runs the strict marker check; its findings are strict-mode
// findings (see settleStrict). Gate names are checked against the payload
// FeatureGate directory when it can be read.
func (s *runState) checkMarkers(u *goload.Universe) {
	in := strictmarkers.Input{Universe: u, PayloadDir: s.opts.payloadDir}
	dir := resolve(s.disc.BaseDir, s.opts.payloadDir)
	if d, err := s.payloadDirectory(); err == nil {
		for _, g := range d.Gates() {
			in.KnownGates = append(in.KnownGates, string(g))
		}
	} else if s.stages&stageMerge == 0 {
		// The merge stage reports an unreadable payload directory itself.
		for _, d := range payloadProblems(dir, err) {
			d.Severity = diag.Warning
			d.Message = "cannot check FeatureGate names in markers: " + d.Message
			s.problems.Add(d)
		}
	}
	found := &diag.List{}
	strictmarkers.Check(in, found)
	found.MarkStrict()
	s.problems.Add(found.Items()...)
}

// payloadDirectory reads the payload FeatureGate directory once per run:
// the strict gate-name check and the merge stage share the result. A
// relative path is resolved against the base directory.
func (s *runState) payloadDirectory() (*payload.Directory, error) {
	if !s.payloadRead {
		s.payload, s.payloadErr = payload.ReadDir(resolve(s.disc.BaseDir, s.opts.payloadDir))
		s.payloadRead = true
	}
	return s.payload, s.payloadErr
}

// payloadProblems turns an error of payload.ReadDir into diagnostics,
// each naming the payload file at fault when there is one.
func payloadProblems(dir string, err error) []diag.Diagnostic {
	switch {
	case !exists(dir):
		return []diag.Diagnostic{diag.Errorf(dir, 0, "", "the payload FeatureGate directory does not exist (set it with --manifest-merge:payload-manifest-path, relative to --base-dir)")}
	case !isDir(dir):
		return []diag.Diagnostic{diag.Errorf(dir, 0, "", "is a file, not the payload FeatureGate directory (--manifest-merge:payload-manifest-path)")}
	}
	// ReadDir wraps what it found in "payload directory <dir>: ".
	if inner := errors.Unwrap(err); inner != nil && strings.HasPrefix(err.Error(), "payload directory ") {
		err = inner
	}
	leaves := []error{err}
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		leaves = joined.Unwrap()
	}
	var out []diag.Diagnostic
	for _, leaf := range leaves {
		text := leaf.Error()
		if name, rest, ok := strings.Cut(text, ": "); ok && !strings.ContainsRune(name, filepath.Separator) && exists(filepath.Join(dir, name)) {
			out = append(out, diag.Errorf(filepath.Join(dir, name), 0, "", "%s", rest))
			continue
		}
		out = append(out, diag.Errorf(dir, 0, "", "%s", text))
	}
	return out
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func isDir(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.IsDir()
}

// fail reports the problems collected so far (and err) and returns the exit
// status for bad input. Nothing has been written at this point.
func (s *runState) fail(err error) error {
	if err != nil {
		s.problems.AddError(err)
	}
	s.printDiagnostics()
	n := 0
	for _, d := range s.problems.Items() {
		if d.Severity == diag.Error {
			n++
		}
	}
	return &exitError{code: ExitInput, msg: fmt.Sprintf("codegen: %d error(s); nothing was written", n)}
}

func (s *runState) printDiagnostics() {
	for _, d := range s.problems.Items() {
		if d.Severity == diag.Warning && s.opts.quiet {
			continue
		}
		fmt.Fprintf(s.opts.stderr, "%s: %s\n", d.Severity, s.relative(d))
	}
}

func (s *runState) printWarnings() {
	for _, d := range s.problems.Items() {
		if d.Severity == diag.Warning && !s.opts.quiet {
			fmt.Fprintf(s.opts.stderr, "warning: %s\n", s.relative(d))
		}
	}
}

// relative renders a diagnostic with its file relative to the base dir,
// also when discovery failed before resolving it.
func (s *runState) relative(d diag.Diagnostic) string {
	base := ""
	if s.disc != nil {
		base = s.disc.BaseDir
	} else if abs, err := filepath.Abs(s.opts.baseDir); err == nil {
		base = abs
	}
	if base != "" && filepath.IsAbs(d.File) {
		d.File = tree.Rel(base, d.File)
	}
	if base != "" {
		// Messages quoting paths (go list's, the OS's) quote them absolute.
		d.Message = strings.ReplaceAll(d.Message, base+string(filepath.Separator), "")
	}
	return d.String()
}

// relMsg formats a message with the paths below the base directory
// relative to it.
func (s *runState) relMsg(format string, args ...any) string {
	return strings.ReplaceAll(fmt.Sprintf(format, args...), s.disc.BaseDir+string(filepath.Separator), "")
}

// finish commits the tree, or with --verify reports what would change.
func (s *runState) finish(start time.Time) error {
	changes, stats, err := s.tree.Changes()
	if err != nil {
		return &exitError{code: ExitIO, msg: s.relMsg("error: %v", err)}
	}
	base := s.disc.BaseDir
	s.stats.setFiles(stats)
	if s.opts.verify {
		if err := s.stats.write(s.opts.statsFile, time.Since(start)); err != nil {
			return &exitError{code: ExitIO, msg: s.relMsg("error: writing --stats: %v", err)}
		}
		if len(changes) > 0 {
			fmt.Fprint(s.opts.stderr, tree.Describe(changes, base))
			return &exitError{code: ExitStale, msg: fmt.Sprintf("codegen --verify: %d file(s) out of date; run the generator (e.g. make update-codegen-crds) and commit the result", len(changes))}
		}
		s.progress("codegen --verify: %s; all generated files are up to date (%s; total %s)",
			s.stats.counts(), strings.Join(s.timings, ", "), time.Since(start).Round(time.Millisecond))
		return nil
	}
	commitStart := time.Now()
	if _, err := s.tree.Commit(); err != nil {
		return &exitError{code: ExitIO, msg: s.relMsg("error: writing output: %v", err)}
	}
	s.stats.addStage("commit", time.Since(commitStart))
	if err := s.stats.write(s.opts.statsFile, time.Since(start)); err != nil {
		return &exitError{code: ExitIO, msg: s.relMsg("error: writing --stats: %v", err)}
	}
	for _, c := range changes {
		klog.V(1).Infof("%s %s", c.Kind, tree.Rel(base, c.Path))
	}
	s.progress("codegen: %s; %d file(s) written, %d unchanged, %d removed (%s; total %s)",
		s.stats.counts(), stats.Written, stats.Unchanged+s.stats.PartialUnchanged, stats.Removed, strings.Join(s.timings, ", "), time.Since(start).Round(time.Millisecond))
	return nil
}
