package pipeline

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/gatedcrd/gatedcrd/features/payload"
	"github.com/gatedcrd/gatedcrd/internal/kubeprogram"
	"github.com/gatedcrd/gatedcrd/internal/kubetarget"
	"github.com/gatedcrd/gatedcrd/internal/repoconfig"
	"github.com/gatedcrd/gatedcrd/tools/pkg/baseline"
	"github.com/gatedcrd/gatedcrd/tools/pkg/compatlevel"
	"github.com/gatedcrd/gatedcrd/tools/pkg/crdvalidate"
	"github.com/gatedcrd/gatedcrd/tools/pkg/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
	"github.com/gatedcrd/gatedcrd/tools/pkg/goload"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifestmerge"
	"github.com/gatedcrd/gatedcrd/tools/pkg/markerdefs"
	"github.com/gatedcrd/gatedcrd/tools/pkg/partialschemas"
	"github.com/gatedcrd/gatedcrd/tools/pkg/requiredannotations"
	"github.com/gatedcrd/gatedcrd/tools/pkg/schemapatch"
	"github.com/gatedcrd/gatedcrd/tools/pkg/strictmarkers"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// DefaultPayloadDir is the payload FeatureGate directory of a repository,
// relative to its base directory.
const DefaultPayloadDir = "payload-manifests/featuregates"

// Stages selects the CRD stages a run executes.
type Stages uint8

const (
	// PartialSchemas is stage 1, empty-partial-schemas.
	PartialSchemas Stages = 1 << iota
	// SchemaPatch is stage 2, schemapatch.
	SchemaPatch
	// ManifestMerge is stage 3, crd-manifest-merge.
	ManifestMerge
	// AllStages is crd-manifests: the three stages in one process.
	AllStages = PartialSchemas | SchemaPatch | ManifestMerge
)

// Options configure a run. The zero value of a field is its default.
type Options struct {
	// BaseDir is the directory searched for API group-versions ("." by
	// default); relative paths of the other options are resolved against
	// it.
	BaseDir string
	// GroupVersions keeps only these "<group>/<version>" entries.
	GroupVersions []string
	// Kinds, when set, restricts the CRD stages further, to the CRDs whose
	// root type is listed for its group-version ("<group>/<version>" to Go
	// type names; a group-version not in the map keeps all its CRDs). The
	// other CRDs are found and checked as always, but their partial
	// manifests, overrides and merged outputs are left as the tree holds
	// them: codegen watch sets it to the CRDs a changed declaration
	// reaches, on a tree whose generated files are up to date.
	Kinds map[string][]string
	// PayloadDir is the payload FeatureGate directory, relative to BaseDir
	// unless absolute; usually DefaultPayloadDir ("" is BaseDir itself, as
	// for codegen --manifest-merge:payload-manifest-path="").
	PayloadDir string
	// StrictMarkers decides whether strict-mode findings
	// (diag.Diagnostic.Strict) are errors (true) or warnings (false). nil
	// leaves it to the repository (SPEC 9.1): strictMarkers of
	// .gatedcrd.yaml, else on when a strict baseline file exists, else off.
	StrictMarkers *bool
	// AcceptStrict, when set, is asked about every strict-mode error; it
	// returns true to accept the finding (a strict baseline), which drops
	// it from Problems.
	AcceptStrict func(diag.Diagnostic) bool
	// OnDiscovered, when set, is called once discovery found the tree,
	// before its strict findings are settled: the place to read a strict
	// baseline that AcceptStrict consults. An error fails the run as bad
	// input.
	OnDiscovered func(*Discovered) error
	// Stages are the stages to run (AllStages).
	Stages Stages
	// KubeVersion is the Kubernetes release ("<major>.<minor>") whose API
	// server validates the merged CRDs; by default kubeVersion of
	// .gatedcrd.yaml, else the release the base directory's go.mod
	// builds against, else the release this build links (kubetarget).
	KubeVersion string
	// CELCosts lists the N most expensive CEL rules of each CRD in
	// CRDValidation.Result.Costs (0: none).
	CELCosts int
	// NoVerdictCache validates every merged CRD again instead of reusing
	// the verdicts kept in the gatedcrd cache directory (crdvalidate
	// Verdicts), e.g. to measure the validation itself.
	NoVerdictCache bool
	// Progress, when set, receives the lines of a long first-time setup:
	// building the CRD validation program of a non-linked KubeVersion.
	Progress io.Writer
	// Era is the era of the reference generator whose rules the payload
	// FeatureGate directory is read and the merge follows (SPEC §9.2,
	// payload.Eras); empty detects it from the payload files: 2026-01
	// when none carries major versions, 2026-03 when all do.
	Era payload.Era
	// WriteLock, when set, is the tree's write lock (LockWrites), held by
	// the caller for the whole run, as codegen watch does for a cycle;
	// Changes.Write then does not take it again. Otherwise Changes.Write
	// takes it while it commits.
	WriteLock *WriteLock
	// OnLoaded, when set, is called once the Go packages are loaded, with
	// the loaded universe (nil when no selected stage reads Go): codegen
	// watch learns there which directories the run read.
	OnLoaded func(*Loaded)
	// LoadUniverse, when set, loads the Go packages in place of the
	// run's own load (goload.LoadWith with the base directory as dir):
	// codegen watch serves them from the packages it keeps between runs
	// (goload.Session). The run then starts no load during discovery.
	LoadUniverse func(dir string, importPaths []string, opts goload.Options) (*goload.Universe, error)
}

// ErrInput is returned (wrapped) by a step that found errors in the input:
// they are in Run.Problems, and nothing may be written.
var ErrInput = errors.New("the input has errors")

// Run is one pipeline run: the options, the problems every step reports
// to, the file tree overlay every stage reads through and writes into, and
// the account of the work done. Steps are methods of the typed result of
// the previous step, so they can only run in order.
type Run struct {
	Options Options
	// Problems collects every problem of every step, in order.
	Problems *diag.List
	// Tree holds what the stages wrote; nothing reaches the disk before
	// Changes.Write.
	Tree *tree.Tree
	// Stats counts the work done and times each step.
	Stats Stats
	// CRDValidation is set once the merged manifests were validated.
	CRDValidation *CRDValidation
	// KubeTarget is the Kubernetes release the run validates for and why,
	// once discovery ran.
	KubeTarget kubetarget.Choice
	// NotOptedIn counts, per check (CheckKubeVersion, ...), the findings
	// that were warnings only because the repository has not opted in to
	// the check: what opting in would turn into errors today.
	NotOptedIn map[string]int

	base string // absolute BaseDir, once discovery ran
	// strict is the resolved Options.StrictMarkers; settled says it was
	// resolved (before that no strict finding is settled).
	strict, settled bool
	// configuredEra is referenceEra of the repository configuration.
	configuredEra payload.Era
	payload       payloadOnce
	// pending is the package load discovery started, until Load takes it.
	pending *goload.Pending
}

// New starts a run.
func New(opts Options) *Run {
	if opts.BaseDir == "" {
		opts.BaseDir = "."
	}
	if opts.Stages == 0 {
		opts.Stages = AllStages
	}
	return &Run{Options: opts, Problems: &diag.List{}, Tree: tree.New()}
}

// timed runs fn as the step called name and records its duration.
func (r *Run) timed(name string, fn func() error) error {
	start := time.Now()
	err := fn()
	r.Stats.addStage(name, time.Since(start))
	return err
}

// stage runs fn as the timed step name when the stage sel is selected,
// and checks for errors afterwards.
func (r *Run) stage(sel Stages, name string, fn func() error) error {
	if r.Options.Stages&sel == 0 {
		return nil
	}
	return r.check(r.timed(name, fn))
}

// check turns an error of a step, and errors it reported, into the step's
// error.
func (r *Run) check(err error) error {
	if err != nil {
		r.Problems.AddError(err)
	}
	if r.settled {
		r.Problems.SettleStrict(r.strict, r.Options.AcceptStrict)
	}
	if r.Problems.HasErrors() {
		return fmt.Errorf("%w: %d error(s)", ErrInput, r.Problems.ErrorCount())
	}
	return nil
}

// resolve resolves a path option against the base directory.
func (r *Run) resolve(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	base := r.base
	if base == "" {
		base = r.Options.BaseDir
	}
	return filepath.Join(base, p)
}

// Discovered is the result of discovery: the API groups and versions of
// the run, and the repository configuration (.gatedcrd.yaml).
type Discovered struct {
	Run *Run
	*discovery.Result
	Config repoconfig.Config
}

// Discover finds the API group-versions below the base directory.
func (r *Run) Discover() (*Discovered, error) {
	var res *discovery.Result
	err := r.timed("discovery", func() error {
		var probs *diag.List
		var err error
		res, probs, err = discovery.DiscoverWith(r.Options.BaseDir, r.Options.GroupVersions, discovery.Options{Selected: r.startLoad})
		if probs != nil {
			r.Problems.Add(probs.Items()...)
		}
		if res != nil {
			// Discover found the tree; its error repeats its problems,
			// whose strict findings check may still settle.
			err = nil
		}
		return err
	})
	d := &Discovered{Run: r, Result: res}
	if err == nil {
		r.base = res.BaseDir
		err = d.configure()
	}
	var kv *KubeVersionError
	if errors.As(err, &kv) {
		r.cancelLoad()
		return nil, err
	}
	if err == nil && r.Options.OnDiscovered != nil {
		err = r.Options.OnDiscovered(d)
	}
	if err := r.check(err); err != nil {
		r.cancelLoad()
		return nil, err
	}
	return d, nil
}

// configure reads the repository configuration and settles what it
// decides for the run: strictness and the Kubernetes release. Until then
// strict findings stay unsettled.
func (d *Discovered) configure() error {
	r := d.Run
	cfg, err := repoconfig.Load(d.BaseDir)
	d.Config = cfg
	r.strict, r.settled = d.strictMarkers(), true
	r.configuredEra = cfg.ReferenceEra
	if err != nil {
		return err
	}
	r.KubeTarget, err = kubetarget.Choose("--kube-version", r.Options.KubeVersion, cfg, d.BaseDir, crdvalidate.LinkedKubeVersion)
	if err != nil {
		return &KubeVersionError{Msg: err.Error()}
	}
	// A chosen release must be one we can validate for; an inferred one
	// that is not only gets a warning when the validation runs.
	if t := r.KubeTarget; t.Explicit && t.Minor != crdvalidate.LinkedKubeVersion {
		if _, err := kubeprogram.Lookup(t.Minor); err != nil {
			if r.Options.KubeVersion != "" {
				return &KubeVersionError{Msg: fmt.Sprintf("--kube-version: %v", err)}
			}
			return diag.Errorf(cfg.File, cfg.KubeVersion.Line, "kubeVersion", "%v", err)
		}
	}
	return nil
}

// strictMarkers resolves Options.StrictMarkers: the option, else the
// configuration, else whether the tree has a strict baseline.
func (d *Discovered) strictMarkers() bool {
	return resolveStrict(d.Run.Options.StrictMarkers, d.Config, d.BaseDir)
}

// ResolveStrict decides strictness as a run does (Options.StrictMarkers)
// for a command that reads the configuration itself: option, else
// strictMarkers of .gatedcrd.yaml at baseDir (an unreadable file counts
// as absent here; the run that reads it reports it), else whether a strict
// baseline exists.
func ResolveStrict(option *bool, baseDir string) bool {
	cfg, _ := repoconfig.Load(baseDir)
	return resolveStrict(option, cfg, baseDir)
}

func resolveStrict(option *bool, cfg repoconfig.Config, baseDir string) bool {
	if option != nil {
		return *option
	}
	if cfg.StrictMarkers != nil {
		return *cfg.StrictMarkers
	}
	_, err := os.Stat(filepath.Join(baseDir, baseline.FileName))
	return err == nil
}

// Strict reports whether strict-mode findings are errors in this run
// (Options.StrictMarkers resolved), once discovery ran.
func (r *Run) Strict() bool { return r.strict }

// startLoad starts the package load as soon as discovery knows the
// selected group-versions, when a selected stage needs Go types: the go
// command then lists the packages while discovery parses them, reads the
// repository configuration and stage 1 starts reading its manifests. Load
// finishes it (or, when it cannot serve, as with compatibility edits to
// load from memory, loads anew).
func (r *Run) startLoad(baseDir string, fset *token.FileSet, importPaths []string) {
	if r.Options.Stages&(PartialSchemas|SchemaPatch) != 0 && r.Options.LoadUniverse == nil {
		r.pending = goload.Start(baseDir, fset, importPaths)
	}
}

// cancelLoad stops a started load that no step will finish.
func (r *Run) cancelLoad() {
	if r.pending != nil {
		r.pending.Cancel()
		r.pending = nil
	}
}

// Loaded is the loaded universe: the Go packages of every discovered
// version, loaded once for the whole run. Universe is nil when no selected
// stage needs Go types (crd-manifest-merge alone).
type Loaded struct {
	*Discovered
	Universe *goload.Universe
	// Overlay holds the Go files this run edited before loading (absolute
	// path to content: the compatibility lines of .gatedcrd.yaml's
	// compatibility section); they are loaded from memory and written with
	// the other changes.
	Overlay map[string][]byte

	// existing reads stage 1's existing partial manifests from the start
	// of Load on, while the go command lists the packages; nil when stage
	// 1 was not selected.
	existing *partialschemas.Prefetch
}

// Load loads the Go packages of every discovered version in one
// go/packages call, when a selected stage needs them. When .gatedcrd.yaml
// enables compatibility lines, it first brings them up to date in the tree
// and loads the edited files from memory.
func (d *Discovered) Load() (*Loaded, error) {
	r := d.Run
	defer r.cancelLoad()
	l := &Loaded{Discovered: d}
	if r.Options.Stages&(PartialSchemas|SchemaPatch) == 0 {
		for _, v := range d.Versions() {
			v.Files = nil // no stage reads Go
		}
		return l, nil
	}
	if r.Options.Stages&PartialSchemas != 0 && r.Options.Kinds == nil {
		l.existing = partialschemas.StartPrefetch(r.Tree, d.Result)
	}
	if err := l.load(); err != nil {
		l.stopReading()
		return nil, err
	}
	if r.Options.OnLoaded != nil {
		r.Options.OnLoaded(l)
	}
	return l, nil
}

// stopReading waits for the reading of stage 1's partial manifests, on
// a path that does not reach stage 1: no read outlives the run.
func (l *Loaded) stopReading() {
	if l.existing != nil {
		l.existing.Wait()
	}
}

// load is Load once stage 1's reading is under way.
func (l *Loaded) load() error {
	d, r := l.Discovered, l.Run
	if d.Config.Compatibility.Enabled {
		r.timed("compatibility", func() error {
			res, problems := compatlevel.Run(compatlevel.Input{Discovery: d.Result, Tree: r.Tree, Config: d.Config.Compatibility, EnforceLevels: d.Config.Compatibility.Configured(),
				ConfigFile: d.Config.File, Partial: len(r.Options.GroupVersions) > 0})
			r.Problems.Add(problems...)
			if res != nil {
				l.Overlay = res.Sources
			}
			return nil
		})
		if err := r.check(nil); err != nil {
			return err
		}
	}
	err := r.timed("load", func() error {
		var paths []string
		parsed := map[string]*ast.File{}
		for _, v := range d.Versions() {
			paths = append(paths, v.ImportPath)
			maps.Copy(parsed, v.Files)
			v.Files = nil // the universe owns them from here
		}
		opts := goload.Options{Overlay: l.Overlay, Fset: d.Fset, Parsed: parsed}
		var u *goload.Universe
		var err error
		if r.Options.LoadUniverse != nil {
			u, err = r.Options.LoadUniverse(d.BaseDir, paths, opts)
		} else if r.pending != nil {
			u, err = r.pending.Finish(paths, opts)
			r.pending = nil
		} else {
			u, err = goload.LoadWith(d.BaseDir, paths, opts)
		}
		if err != nil {
			return fmt.Errorf("loading Go packages: %w", err)
		}
		l.Universe = u
		r.Stats.PackageLoads = u.Loads()
		r.Stats.PackagesLoaded = u.PackageCount()
		return nil
	})
	return r.check(err)
}

// Checked is a loaded universe whose markers passed strict mode.
type Checked struct {
	*Loaded
}

// CheckMarkers runs strict mode over the loaded packages: marker lines no
// stage understands, misspelled arguments, unknown FeatureGate names (when
// the payload directory can be read). Unless the run is strict (Strict)
// the findings are warnings.
func (l *Loaded) CheckMarkers() (*Checked, error) {
	r := l.Run
	if l.Universe == nil {
		return &Checked{l}, nil
	}
	r.timed("strict-markers", func() error {
		in := strictmarkers.Input{Universe: l.Universe, PayloadDir: r.Options.PayloadDir}
		if d, err := r.Payload(); err == nil {
			for _, g := range d.Gates() {
				in.KnownGates = append(in.KnownGates, string(g))
			}
		} else if r.Options.Stages&ManifestMerge == 0 {
			// The merge stage reports an unreadable payload directory itself.
			for _, d := range r.payloadProblems(err) {
				d.Severity = diag.Warning
				d.Message = "cannot check FeatureGate names in markers: " + d.Message
				r.Problems.Add(d)
			}
		}
		found := &diag.List{}
		strictmarkers.Check(in, found)
		found.MarkStrict()
		r.Problems.Add(found.Items()...)
		return nil
	})
	if err := r.check(nil); err != nil {
		l.stopReading()
		return nil, err
	}
	return &Checked{l}, nil
}

// Partials are stage 1's partial manifests: for every CRD root type, one
// schema-less manifest per gate entry, written into the tree. Result is
// nil when stage 1 was not selected.
type Partials struct {
	*Checked
	Result *partialschemas.Result
	// untouched are the CRDs Options.Kinds leaves alone.
	untouched manifest.Untouched
}

// PartialManifests runs stage 1, empty-partial-schemas.
func (c *Checked) PartialManifests() (*Partials, error) {
	r := c.Run
	p := &Partials{Checked: c}
	err := r.stage(PartialSchemas, "empty-partial-schemas", func() error {
		c.checkTypes()
		res, err := partialschemas.Run(partialschemas.Input{Discovery: c.Result, Universe: c.Universe, Tree: r.Tree, Problems: r.Problems,
			Strict: r.strict, Prefetch: c.existing, Only: r.onlyKinds()})
		// Run waited for the reading and took what it needs: the files
		// read and parsed (old schemas and all, 17 MB of objects on
		// openshift/api) would otherwise stay live for the whole run.
		c.existing = nil
		if err == nil {
			p.Result = res
			p.untouched = untouchedCRDs(res)
			r.Stats.addPartials(res)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return p, nil
}

// onlyKinds is stage 1's Only for Options.Kinds (nil when not set).
func (r *Run) onlyKinds() func(groupVersion, kind string) bool {
	if r.Options.Kinds == nil {
		return nil
	}
	return func(gv, kind string) bool {
		kinds, ok := r.Options.Kinds[gv]
		return !ok || slices.Contains(kinds, kind)
	}
}

// untouchedCRDs are the CRDs stage 1 left alone.
func untouchedCRDs(res *partialschemas.Result) manifest.Untouched {
	out := manifest.Untouched{}
	for _, v := range res.Versions {
		for _, crd := range v.CRDs {
			if crd.Untouched {
				out[crd.Name] = true
			}
		}
	}
	return out
}

// handOn returns stage 1's partial manifests as stage 2 takes them, with
// the gate set of each; none when stage 1 did not run.
func (p *Partials) handOn() []schemapatch.Partial {
	if p.Result == nil {
		return nil
	}
	var out []schemapatch.Partial
	for _, m := range p.Result.Manifests() {
		out = append(out, schemapatch.Partial{File: m.File(), Gates: markerdefs.NewGateSet(m.GateNames...)})
	}
	return out
}

// checkTypes type-checks every root package, which parses the packages
// their types refer to, and then drops the function bodies of all of them
// before stage 1 collects their markers: strict mode, the one step that
// reads every comment of a root, is done, and the marker collector would
// otherwise walk every statement of every package stage 1 indexes
// (k8s.io/api/core/v1 alone is 2.4 MB of Go, most of it generated method
// bodies), though it associates no marker inside a function.
func (c *Checked) checkTypes() {
	if c.Universe == nil {
		return
	}
	for _, root := range c.Universe.Roots {
		c.Universe.Checker.Check(root)
	}
	c.dropBodies()
}

// dropBodies drops the function bodies of the packages parsed so far
// (goload.Universe.DropFunctionBodies): strict mode, which reads all of a
// root, is done, no later step reads a body, and they are a large part of
// what a run keeps live.
func (l *Loaded) dropBodies() {
	if l.Universe != nil {
		l.Universe.DropFunctionBodies()
	}
}

// Schemas are the partial manifests with their schemas filled, one schema
// per kind and gate set, in the tree. Result is nil when stage 2 was not
// selected.
type Schemas struct {
	*Partials
	Result *schemapatch.Result
}

// Schemas runs stage 2, schemapatch. When stage 3 is selected too, stage
// 2 presumes the files that look like stage 3 output to be such without
// parsing them (schemapatch.Result.Presumed), and Merge settles them, so
// call Merge after it (as Generate does).
func (p *Partials) Schemas() (*Schemas, error) {
	r := p.Run
	s := &Schemas{Partials: p}
	err := r.stage(SchemaPatch, "schemapatch", func() error {
		p.dropBodies()
		in := schemapatch.Input{Discovery: p.Discovered.Result, Universe: p.Universe, Tree: r.Tree, Problems: r.Problems,
			EnumFromConstants: p.Config.EnumFromConstants, Partials: p.handOn(),
			PresumeMerged: r.Options.Stages&ManifestMerge != 0, Untouched: p.untouched}
		in.Era = schemapatch.EraOf(r.Payload())
		if p.Result != nil {
			// Stage 2 took them over; it drops each one (old schema and all)
			// once its replacement is written.
			p.Result.Release()
		}
		res, err := schemapatch.Run(in)
		if err == nil {
			s.Result = res
			r.Stats.GateSets, r.Stats.SchemasGenerated = res.GateSets, res.Schemas
		}
		return err
	})
	if err != nil && s.Result != nil && len(s.Result.Presumed) > 0 {
		// Stage 3 will not run to settle them: report what stage 2 would
		// have found in them, and count the errors again.
		s.Result.Settle(r.BaseDir(), r.Problems, nil)
		err = r.check(nil)
	}
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Merged are stage 3's merged variants: the fewest CRD files describing
// every major version × ClusterProfile × FeatureSet, in the tree. Result
// is nil when stage 3 was not selected or nothing was discovered.
type Merged struct {
	*Schemas
	Result *manifestmerge.Result
}

// Merge runs stage 3, crd-manifest-merge, with the payload directory.
func (s *Schemas) Merge() (*Merged, error) {
	r := s.Run
	m := &Merged{Schemas: s}
	if len(s.Versions()) == 0 {
		s.settlePresumed(nil)
		return m, nil
	}
	s.dropBodies()
	err := r.stage(ManifestMerge, "crd-manifest-merge", func() error {
		d, err := r.Payload()
		if err != nil {
			r.Problems.Add(r.payloadProblems(err)...)
			s.settlePresumed(nil)
			return nil
		}
		in := manifestmerge.Input{Discovery: s.Discovered.Result, Tree: r.Tree, Problems: r.Problems, Payload: d, Era: d.Era, Untouched: s.untouched}
		if s.Result != nil {
			in.Files = s.Result.Files
		}
		res, err := manifestmerge.Run(in)
		s.settlePresumed(res)
		if s.Result != nil && !s.wantsGateDocs() {
			s.Result.Files = nil // merged; the tree holds their bytes
		}
		if err == nil {
			m.Result = res
			tot := res.Totals()
			r.Stats.Tuples, r.Stats.MergesComputed, r.Stats.MergedFiles = tot.Tuples, tot.InputSets, tot.Files
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// settlePresumed checks the files stage 2 presumed to be stage 3 output
// against what stage 3 did (res; nil when it did not run).
func (s *Schemas) settlePresumed(res *manifestmerge.Result) {
	if s.Result == nil || len(s.Result.Presumed) == 0 {
		return
	}
	var stage3 func(string) ([]byte, bool)
	if res != nil {
		touched := map[string][]byte{}
		for _, v := range res.Versions {
			for _, p := range v.Removed {
				touched[p] = nil
			}
			for _, o := range v.Outputs {
				touched[o.Path] = o.Data
			}
		}
		stage3 = func(p string) ([]byte, bool) {
			data, ok := touched[p]
			return data, ok
		}
	}
	s.Result.Settle(s.Run.BaseDir(), s.Run.Problems, stage3)
}

// Validated is the merged output after the checks that read it: the
// required annotations of .gatedcrd.yaml, then the API server's own
// validation of every merged CRD (Run.CRDValidation). Further checks of
// the final manifests belong here too.
type Validated struct {
	*Merged
}

// Validate checks the merged manifests of the tree. With a loaded universe,
// problems point at the Go declaration or marker behind them. It does
// nothing when the merge did not run.
func (m *Merged) Validate() (*Validated, error) {
	r := m.Run
	v := &Validated{Merged: m}
	if m.Result == nil {
		return v, nil
	}
	in := requiredannotations.Input{Discovery: m.Discovered.Result, Tree: r.Tree, Rule: m.Config.RequiredAnnotations, Merged: m.Result.Outputs(),
		Untouched: m.untouched}
	if u := m.Universe; u != nil {
		in.Syntax = func(v *discovery.Version) []*ast.File {
			if p := u.Root(v.ImportPath); p != nil {
				return p.Syntax
			}
			return nil
		}
		in.Position = func(n ast.Node) (string, int) {
			p := u.Fset.Position(n.Pos())
			return p.Filename, p.Line
		}
	}
	r.Problems.Add(r.optIn(CheckRequiredAnnotations, m.Config.RequiredAnnotations.Configured(), requiredannotations.Check(in))...)
	if err := r.check(nil); err != nil {
		return nil, err
	}
	err := r.timed("crd-validation", m.validateCRDs)
	if err := r.check(err); err != nil {
		return nil, err
	}
	return v, nil
}

// Generate runs every step up to the merge: discovery, then
// Discovered.Generate. Nothing is written before Changes.Write.
func (r *Run) Generate() (*Changes, error) {
	d, err := r.Discover()
	if err != nil {
		return nil, err
	}
	return d.Generate()
}

// Generate runs the steps after discovery: load, strict mode and the
// selected stages, and returns the file changes they computed.
func (d *Discovered) Generate() (*Changes, error) {
	l, err := d.Load()
	if err != nil {
		return nil, err
	}
	c, err := l.CheckMarkers()
	if err != nil {
		return nil, err
	}
	p, err := c.PartialManifests()
	if err != nil {
		return nil, err
	}
	s, err := p.Schemas()
	if err != nil {
		return nil, err
	}
	m, err := s.Merge()
	if err != nil {
		return nil, err
	}
	v, err := m.Validate()
	if err != nil {
		return nil, err
	}
	g, err := v.GateDocs()
	if err != nil {
		return nil, err
	}
	return g.Changes()
}
