package cli

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"k8s.io/klog/v2"

	"github.com/gatedcrd/gatedcrd/features/payload"
	"github.com/gatedcrd/gatedcrd/internal/clicontract"
	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/internal/kubetarget"
	"github.com/gatedcrd/gatedcrd/tools/pkg/crdvalidate"
	"github.com/gatedcrd/gatedcrd/tools/pkg/generator"
	"github.com/gatedcrd/gatedcrd/tools/pkg/pipeline"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// run executes the selected stages through the pipeline and commits or
// verifies the result. It only translates flags into pipeline options and
// results into output and exit statuses.
func run(opts *options, stages pipeline.Stages) error {
	if len(opts.requiredFS) > 0 {
		return &clicontract.Error{Code: ExitUsage, Msg: "error: --required-feature-sets selects the legacy FeatureSet mode, which gatedcrd does not implement (see docs/reference-rules.md#the-legacy-featureset-mode); gate fields with +openshift:enable:FeatureGate instead"}
	}
	start := time.Now()
	bl := &strictBaseline{opts: opts}
	payloadDir, err := opts.payloadPath()
	if err != nil {
		return &clicontract.Error{Code: ExitIO, Msg: fmt.Sprintf("error: --%s: %v", payloadFlag, err)}
	}
	lock, err := lockForRun(opts)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	r := pipeline.New(pipeline.Options{
		WriteLock:     lock,
		BaseDir:       opts.baseDir,
		GroupVersions: opts.groupVersions,
		PayloadDir:    payloadDir,
		StrictMarkers: opts.strictMarkers(),
		AcceptStrict:  bl.accept,
		OnDiscovered:  bl.read,
		Stages:        stages,
		KubeVersion:   opts.kubeVersion,
		OptionNames:   optionNames,
		CELCosts:      opts.celCosts,
		Progress:      opts.stderr,
	})
	r.Options.OnValidated = func(v *pipeline.CRDValidation) { printValidation(opts, r, v) }
	d, err := r.Discover()
	var kv *pipeline.KubeVersionError
	if errors.As(err, &kv) {
		return &clicontract.Error{Code: ExitUsage, Msg: "error: " + kv.Msg}
	}
	if err != nil {
		return fail(opts, r, err)
	}
	progress(opts, "codegen: %d API group(s), %d group-version(s) under %s", len(d.Discovery.Groups), len(d.Discovery.Versions()), opts.baseDir)
	if stages&(pipeline.PartialSchemas|pipeline.SchemaPatch|pipeline.ManifestMerge) != 0 {
		progress(opts, "%s", r.RelativeText("codegen: "+describeEra(r.Era())))
	}
	if stages&pipeline.ManifestMerge != 0 {
		progress(opts, "%s", r.RelativeText("codegen: "+describeTarget(r.KubeTarget)))
	}
	changes, err := generate(opts, r, d)
	if err != nil {
		return err
	}
	klog.V(1).Infof("codegen: %s", r.Stats.Counts())
	if opts.writeBaseline {
		printWarnings(opts, r)
		if err := bl.write(); err != nil {
			return err
		}
		if opts.afterBaseline != nil {
			return opts.afterBaseline(r, len(bl.findings))
		}
		return nil
	}
	bl.report(r.Problems, stages)
	printWarnings(opts, r)
	return finish(opts, r, changes, start)
}

// generate runs the CRD stages; a bare codegen runs every generator, the
// CRD stages among them, into the pipeline's tree and diagnostics.
func generate(opts *options, r *pipeline.Run, d *pipeline.Discovered) (*pipeline.Changes, error) {
	if !opts.bare {
		changes, err := d.Generate()
		if err != nil {
			return nil, fail(opts, r, err)
		}
		return changes, nil
	}
	var changes *pipeline.Changes
	crd := crdStages{generate: func() (err error) {
		changes, err = d.Generate()
		return err
	}}
	gctx := newGeneratorContext(opts, d.Discovery, r.Tree, r.Problems)
	gens := opts.generators.bare(crd)
	generator.Start(gctx, gens...)
	err := generator.Run(gctx, gens...)
	if err == nil && changes != nil {
		changes, err = recompute(changes)
	}
	if err != nil || r.Problems.HasErrors() {
		return nil, bareFailure(opts, r, err)
	}
	return changes, nil
}

// bareFailure reports a bare run's failure: the errors without a position
// first, then every problem (fail); nothing was written.
func bareFailure(opts *options, r *pipeline.Run, err error) error {
	var plain []error
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		plain = joined.Unwrap()
	} else if err != nil {
		plain = []error{err}
	}
	for _, e := range plain {
		if !errors.Is(e, pipeline.ErrInput) {
			fmt.Fprintln(opts.stderr, r.RelativeText(fmt.Sprintf("error: %v", e)))
		}
	}
	if r.Problems.HasErrors() || errors.Is(err, pipeline.ErrInput) {
		return fail(opts, r, pipeline.ErrInput)
	}
	return &clicontract.Error{Code: clicontract.ExitFailed, Msg: "codegen: errors found; nothing was written"}
}

// recompute lists the tree's changes again, after generators that ran
// once the pipeline had listed them.
func recompute(c *pipeline.Changes) (*pipeline.Changes, error) {
	list, stats, err := c.Run.Tree.Changes()
	if err != nil {
		return nil, err
	}
	c.List, c.Stats = list, stats
	return c, nil
}

// lockForRun takes the tree's write lock for a run that writes, from
// before it reads anything to the end of its write: a run that read the
// tree while codegen watch wrote a cycle (or the reverse) would write
// files generated from older sources next to newer ones. A run that
// writes nothing (--verify, strict-baseline) takes none (nil).
func lockForRun(opts *options) (*pipeline.WriteLock, error) {
	if opts.verify || opts.writeBaseline {
		return nil, nil
	}
	var progress io.Writer = opts.stderr
	if opts.Quiet { // -q prints errors and results only, not that it waits
		progress = nil
	}
	lock, err := pipeline.LockWrites(opts.baseDir, progress)
	if err != nil {
		return nil, &clicontract.Error{Code: ExitIO, Msg: fmt.Sprintf("error: %v", err)}
	}
	return lock, nil
}

// describeEra says which era of the reference the CRD stages follow and
// why.
func describeEra(era payload.Era, why string) string {
	if era == "" {
		return "output of today's reference (" + why + ")"
	}
	return fmt.Sprintf("output of the reference of era %s (%s)", era, why)
}

// describeTarget says which Kubernetes release validates the CRDs, why,
// and what its findings are.
func describeTarget(t kubetarget.Choice) string {
	if t.Explicit {
		return fmt.Sprintf("CRDs validated as Kubernetes %s does (%s); findings are errors", t.Minor, t.Reason)
	}
	return fmt.Sprintf("CRDs validated as Kubernetes %s does (%s); findings are warnings: choose the release with kubeVersion in .gatedcrd.yaml or --kube-version to make them errors", t.Minor, t.Reason)
}

// strictMarkers is --strict-markers when given, else nil: the repository
// decides (pipeline.Options.StrictMarkers).
func (o *options) strictMarkers() *bool {
	if !o.strictSet {
		return nil
	}
	return &o.strict
}

// payloadPath is the payload directory for the pipeline: a given
// --manifest-merge:payload-manifest-path is relative to the working
// directory (the reference's meaning, on which the command lines of
// operator repositories rely), the default relative to --base-dir.
func (o *options) payloadPath() (string, error) {
	if !o.payloadSet || filepath.IsAbs(o.payloadDir) {
		return o.payloadDir, nil
	}
	return filepath.Abs(o.payloadDir)
}

// payloadDirIn is the payload directory of the tree at base.
func (o *options) payloadDirIn(base string) string {
	p, err := o.payloadPath()
	if err != nil {
		p = o.payloadDir
	}
	return resolve(base, p)
}

// printValidation reports the API server's validation of the merged CRDs
// and, with --cel-costs, the most expensive CEL rules.
func printValidation(opts *options, r *pipeline.Run, v *pipeline.CRDValidation) {
	progress(opts, "codegen: %d CRD file(s) (%d distinct CRDs, %d verdict(s) from the cache) validated as Kubernetes %s does (%d also as upgrades of the committed file) in %s; %d finding(s)",
		v.Result.Files, v.Result.Distinct, v.Result.Cached, v.KubeVersion, v.Result.Upgrades, v.Duration.Round(time.Millisecond), v.Result.Findings)
	if len(v.Result.Costs) > 0 {
		fmt.Fprint(opts.stderr, crdvalidate.FormatCosts(v.Result.Costs, r.BaseDir()))
	}
}

func printWarnings(opts *options, r *pipeline.Run) {
	for _, p := range r.Problems.Items() {
		if p.Severity == diag.Warning && !opts.Quiet {
			fmt.Fprintf(opts.stderr, "warning: %s\n", r.Relative(p))
		}
	}
}

// fail reports the problems collected so far and returns the exit status
// for bad input, or for an I/O error computing the changes. Nothing has
// been written at this point.
func fail(opts *options, r *pipeline.Run, err error) error {
	if !errors.Is(err, pipeline.ErrInput) {
		return &clicontract.Error{Code: ExitIO, Msg: r.RelativeText(fmt.Sprintf("error: %v", err))}
	}
	for _, d := range r.Problems.Items() {
		if d.Severity == diag.Warning && opts.Quiet {
			continue
		}
		fmt.Fprintf(opts.stderr, "%s: %s\n", d.Severity, r.Relative(d))
	}
	return &clicontract.Error{Code: ExitInput, Msg: fmt.Sprintf("codegen: %d error(s); nothing was written", r.Problems.ErrorCount())}
}

func progress(opts *options, format string, args ...any) {
	if !opts.Quiet {
		fmt.Fprintf(opts.stderr, format+"\n", args...)
	}
}

// finish commits the changes, or with --verify reports them.
func finish(opts *options, r *pipeline.Run, changes *pipeline.Changes, start time.Time) error {
	timings := strings.Join(r.Stats.Timings(), ", ")
	if opts.verify {
		if err := writeStats(opts.statsFile, &r.Stats, time.Since(start)); err != nil {
			return &clicontract.Error{Code: ExitIO, Msg: r.RelativeText(fmt.Sprintf("error: writing --stats: %v", err))}
		}
		if changes.Stale() {
			fmt.Fprint(opts.stderr, changes.Describe())
			return &clicontract.Error{Code: ExitStale, Msg: clicontract.StaleHint(opts.commandPath, len(changes.List))}
		}
		progress(opts, "codegen --verify: %s; all generated files are up to date (%s; total %s)",
			r.Stats.Counts(), timings, time.Since(start).Round(time.Millisecond))
		return nil
	}
	if err := changes.Write(); err != nil {
		return &clicontract.Error{Code: ExitIO, Msg: r.RelativeText(fmt.Sprintf("error: writing output: %v", err))}
	}
	if err := writeStats(opts.statsFile, &r.Stats, time.Since(start)); err != nil {
		return &clicontract.Error{Code: ExitIO, Msg: r.RelativeText(fmt.Sprintf("error: writing --stats: %v", err))}
	}
	for _, c := range changes.List {
		klog.V(1).Infof("%s %s", c.Kind, tree.Rel(r.BaseDir(), c.Path))
	}
	st := changes.Stats
	progress(opts, "codegen: %s; %d file(s) written, %d unchanged, %d removed (%s; total %s)",
		r.Stats.Counts(), st.Written, st.Unchanged+r.Stats.PartialUnchanged, st.Removed, timings, time.Since(start).Round(time.Millisecond))
	return nil
}
