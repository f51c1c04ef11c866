package pipeline

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"runtime/trace"
	"time"

	"github.com/gatedcrd/gatedcrd/features/payload"
	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/internal/kubetarget"
	"github.com/gatedcrd/gatedcrd/tools/pkg/goload"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
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
	// leaves it to the repository: strictMarkers of
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
	// OptionNames are the names the caller's users know the options by,
	// for messages about their values (codegen: its flags).
	OptionNames OptionNames
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
	// Era is the era of the reference generator whose rules the three
	// stages follow and in whose format the payload FeatureGate directory
	// is read (payload.Eras); empty takes referenceEra of the
	// repository configuration, else the era the repository pins
	// (referenceera), else detects it from the payload files: 2025-11-05
	// when none carries major versions, 2026-03-20 when all do.
	Era payload.Era
	// WriteLock, when set, is the tree's write lock (LockWrites), held by
	// the caller for the whole run, as codegen watch does for a cycle;
	// Changes.Write then does not take it again. Otherwise Changes.Write
	// takes it while it commits.
	WriteLock *WriteLock
	// OnValidated, when set, is called once the merged CRDs were
	// validated (Validated.CRDValidation), also when the findings fail the
	// run: codegen prints its summary there.
	OnValidated func(*CRDValidation)
	// OnLoaded, when set, is called once the Go packages are loaded, with
	// the loaded universe (nil when no selected stage reads Go): codegen
	// watch learns there which directories the run read.
	OnLoaded func(*Loaded)
	// LoadUniverse, when set, loads the Go packages in place of the
	// run's own load (goload.LoadWith with the base directory as dir):
	// codegen watch serves them from the packages it keeps between runs
	// (goload.Session). The run then starts no load during discovery.
	LoadUniverse func(dir string, importPaths []string, opts goload.Options) (*goload.Universe, error)
	// Keep, when set, is what the runs sharing it keep for the next: codegen
	// watch's cycles. nil is a one-shot run, which keeps nothing.
	Keep *Keep
}

// OptionNames name options in messages about their values; an empty one
// is named after its Options field. A library says what is wrong with a
// value, its caller how the user set it.
type OptionNames struct {
	GroupVersions, KubeVersion string
}

func (n OptionNames) groupVersions() string { return cmp.Or(n.GroupVersions, "GroupVersions") }
func (n OptionNames) kubeVersion() string   { return cmp.Or(n.KubeVersion, "KubeVersion") }

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
	// era is the era chosen before the payload is read (Options.Era,
	// referenceEra, the repository's pin), "" when the payload decides;
	// eraReason says why.
	era       payload.Era
	eraReason string
	payload   payloadOnce
	// pending is the package load discovery started, until Load takes it.
	pending *goload.Pending
	// committed is the reader of HEAD that Discovered.Generate starts for
	// the validation (nil when it did not).
	committed *earlyCommitted
	// subtrees renders stage 2's and stage 3's manifests: the Keep's, or
	// one of the run's own (see rendering).
	subtrees *manifest.Subtrees
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

// timed runs fn as the step called name and records its duration. An
// execution trace shows the step as a region of that name.
func (r *Run) timed(name string, fn func() error) error {
	defer trace.StartRegion(context.Background(), name).End()
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

// Generate runs every step: discovery, then Discovered.Generate. Nothing
// is written before Changes.Write.
func (r *Run) Generate() (*Changes, error) {
	d, err := r.Discover()
	if err != nil {
		return nil, err
	}
	return d.Generate()
}

// Generate runs the steps after discovery: load, strict mode, the
// selected stages, the checks of the merged output and the gate pages, and
// returns the file changes they computed.
func (d *Discovered) Generate() (*Changes, error) {
	if d.Run.Options.Stages&ManifestMerge != 0 {
		d.Run.committed = openCommittedEarly(d.Discovery.BaseDir, d.Run.kept().blobs)
		defer d.Run.committed.closeUntaken()
	}
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
