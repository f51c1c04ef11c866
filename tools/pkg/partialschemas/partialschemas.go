package partialschemas

import (
	"cmp"
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/klog/v2"
	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/internal/workers"
	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
	"github.com/gatedcrd/gatedcrd/tools/pkg/goload"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
	"github.com/gatedcrd/gatedcrd/tools/pkg/markerdefs"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// File and directory names stage 1 owns (docs/reference-rules.md, "File
// names and layout").
const (
	// ManifestsDirName is the directory below a version directory that holds
	// one sub-directory of partial manifests per CRD.
	ManifestsDirName = manifest.PartialManifestsDirName
	// SummaryFileName is the per-version summary of the CRDs found.
	SummaryFileName = "zz_generated.featuregated-crd-manifests.yaml"
	// UngatedFileName is the partial manifest of the ungated variant; the
	// name sorts before every gate name.
	UngatedFileName = "AAA_ungated.yaml"
)

// Input is what stage 1 works from. Every field but Prefetch, Only and
// Memo is required.
type Input struct {
	// Discovery lists the groups and versions of the run.
	Discovery *discovery.Result
	// Universe is the run's one package load; every discovered version
	// must be one of its roots.
	Universe *goload.Universe
	// Tree is read for existing files and receives every write and removal.
	Tree *tree.Tree
	// Problems receives every problem found in the input. When it holds an
	// error for a CRD, nothing is written for that CRD.
	Problems *diag.List
	// Strict makes root-type markers that stage 1 cannot honour
	// (+kubebuilder:subresource:scale, storageversion, printcolumn format,
	// resource singular, ...) errors instead of warnings.
	Strict bool
	// Prefetch, when set, reads the existing partial manifests of
	// Discovery from Tree (StartPrefetch with the same three); Run starts
	// one otherwise, unless Only is set. Run waits for it.
	Prefetch *Prefetch
	// Only, when set, restricts the writing to the CRDs whose root type
	// (Go type name, of the version "<group>/<version>") it accepts; the
	// others are found, checked and listed in the summary as always, but
	// their partial manifests are left as the tree holds them, neither
	// read nor handed on (CRD.Untouched).
	Only func(groupVersion, kind string) bool
	// Memo, when set, parses the existing partial manifests (codegen
	// watch: those its last cycle wrote or read are parsed already); nil
	// parses each one.
	Memo *manifest.Memo
	// Indexes, when set, serves the package indexes of packages whose
	// syntax did not change since a run with the same cache, and keeps
	// this run's (codegen watch); nil indexes every package the run needs.
	Indexes *IndexCache
	// OwnPackageTypeMarkers makes the walk read the type-level gate
	// markers of the types declared in the CRD's own package only, as the
	// reference did before 2025-11-05 (features/payload.
	// TypeMarkersAcrossPackages), when it parsed each group-version alone.
	// Otherwise it reads those of every group-version's package below the
	// base directory (discovery.Result.AllImportPaths), which the
	// reference parses together since (of the selected ones only, when
	// --api-group-versions selects: stage 1 gives the same gates whatever
	// the selection, docs/decisions.md). The types of
	// any other package have no comments for the reference's parser
	// (gengo gives comments to the packages it is asked for only), so
	// their type-level markers are never read. Field markers are read
	// everywhere.
	OwnPackageTypeMarkers bool
}

// Result is what stage 1 found and decided.
type Result struct {
	// Versions are the processed versions, in discovery order.
	Versions []*VersionResult
	// Skipped are the versions stage 1 did not process, with the reason.
	Skipped []SkippedVersion
}

// Manifests returns the partial manifests of every CRD that did not
// fail, with their bytes and objects: what stage 1 hands to stage 2.
func (r *Result) Manifests() []*PartialManifest {
	var out []*PartialManifest
	for _, v := range r.Versions {
		for _, crd := range v.CRDs {
			for _, m := range crd.Manifests {
				if !crd.Failed && m.Object != nil {
					out = append(out, m)
				}
			}
		}
	}
	return out
}

// Release drops the bytes and objects of the partial manifests: stage 2
// takes them over, and their old schemas would otherwise be held for the
// rest of the run.
func (r *Result) Release() {
	for _, m := range r.Manifests() {
		m.Data, m.Object = nil, nil
	}
}

// SkippedVersion is a version stage 1 left alone.
type SkippedVersion struct {
	Version *discovery.Version
	Reason  string
}

// VersionResult describes one processed API version package.
type VersionResult struct {
	Group   *discovery.Group
	Version *discovery.Version
	// Name is the CRD version name: the last element of the import path.
	Name string
	// ManifestsDir is <version dir>/zz_generated.featuregated-crd-manifests.
	ManifestsDir string
	// SummaryFile is the path of the version's summary file.
	SummaryFile string
	// CRDs are the package's CRD root types, sorted by Go type name. CRDs
	// with errors are included with Failed set.
	CRDs []*CRD
	// Failed is set when the version had errors: its summary was not
	// written and stale CRD directories were not removed.
	Failed bool

	// index and roots are the package's index and root types while its
	// CRDs are read.
	index *pkgIndex
	roots []*ast.TypeSpec
}

// CRD is one CRD root type and the partial manifests it produces.
type CRD struct {
	// Name is <plural>.<group>.
	Name string
	// Kind is the Go type name; ListKind is Kind+"List", Singular the
	// lower-cased Kind.
	Kind, ListKind, Singular string
	Plural                   string
	Group                    string
	// Version is the CRD version name (the package's last path element).
	Version string
	// Scope is copied verbatim from +kubebuilder:resource.
	Scope      string
	ShortNames []string
	Categories []string
	HasStatus  bool
	// PrinterColumns are the +kubebuilder:printcolumn markers in order.
	PrinterColumns []apiextensionsv1.CustomResourceColumnDefinition
	// Approved, Capability and FilePattern are the openshift marker values.
	Approved    string
	Capability  string
	FilePattern markerdefs.FilePattern
	// MetadataAnnotations and Labels come from +kubebuilder:metadata.
	MetadataAnnotations map[string]string
	Labels              map[string]string
	// Gates is the sorted, de-duplicated list of gate entries found by the
	// type walk; an entry names one gate or several joined with "+".
	Gates []string
	// TopLevelGates are the +openshift:enable:FeatureGate values of the
	// root type itself, sorted. When non-empty no ungated manifest exists.
	TopLevelGates []string
	// Dir is ManifestsDir/<Name>.
	Dir string
	// Manifests are the partial manifests, ungated first, then by entry.
	Manifests []*PartialManifest
	// File and Line locate the type declaration (File relative to the base
	// directory).
	File string
	Line int
	// Failed is set when the CRD had errors; nothing was written for it.
	Failed bool
	// Untouched is set when Input.Only left the CRD out: its partial
	// manifests are as the tree held them, and have no Data.
	Untouched bool

	// plan is what writeCRD will do, when planned while the CRD was read.
	plan *crdPlan
}

// Action says what stage 1 did with a partial manifest.
type Action int

const (
	// Unchanged: the file matched without regard to its schema and was left
	// as it is.
	Unchanged Action = iota
	// Written: the file was missing or differed and was (re)written without
	// a schema.
	Written
)

func (a Action) String() string {
	if a == Written {
		return "written"
	}
	return "unchanged"
}

// PartialManifest is one file of a CRD's directory.
type PartialManifest struct {
	// Entry is the gate entry ("" for the ungated manifest).
	Entry string
	// GateNames are the gates whose annotations the file carries: Entry
	// split on "+" (for the ungated manifest: the single name "").
	GateNames []string
	// Path is the absolute file path.
	Path   string
	Action Action
	// Data are the file's bytes once stage 1 ran (what it wrote, or the
	// existing file it left unchanged, schema included), and Object is
	// exactly manifest.Parse(Data): stage 2 takes both instead of reading
	// and parsing the file again. Both are nil for a CRD that failed, and
	// once Result.Release dropped them.
	Data   []byte
	Object map[string]any
}

// File returns the manifest as stage 1 hands it on.
func (m *PartialManifest) File() *manifest.File {
	return &manifest.File{Path: m.Path, Data: m.Data, Object: m.Object}
}

// FileName returns the file name of the manifest of entry.
func FileName(entry string) string {
	if entry == markerdefs.Ungated {
		return UngatedFileName
	}
	return entry + ".yaml"
}

// run is the state of one stage 1 run. The CRDs of a run are read on
// every core (Run), each on a copy of run with a problems list of its own
// (crdWithOwnProblems); what the copies share is safe for concurrent use.
type run struct {
	u    *goload.Universe
	t    *tree.Tree
	base string
	fset *token.FileSet
	// problems receives what the run finds. A CRD's problems go to a list
	// of its own first (see crdWithOwnProblems).
	problems *diag.List
	indexes  *indexes
	cache    *IndexCache
	strict   bool
	// existing reads the partial manifests already in the tree ahead.
	existing *Prefetch
	only     func(groupVersion, kind string) bool
	// typeMarkerPackages are the import paths whose types' type-level
	// markers are read (Input.OwnPackageTypeMarkers): nil reads those of
	// the root's package only.
	typeMarkerPackages map[string]bool
}

// Run executes stage 1 for every version of every group in in.Discovery
// whose group does not disable emptyPartialSchema. Problems in the input
// go to in.Problems; when that is nil, Run collects them itself and
// returns its errors as the error result, like every stage. Otherwise the
// returned error is reserved for a run that cannot start (missing input).
func Run(in Input) (*Result, error) {
	if in.Discovery == nil || in.Universe == nil || in.Tree == nil {
		return nil, errors.New("partialschemas.Run: Discovery, Universe and Tree are required")
	}
	list := in.Problems
	if list == nil {
		list = &diag.List{}
	}
	r := &run{
		u:        in.Universe,
		t:        in.Tree,
		base:     in.Discovery.BaseDir,
		problems: list,
		strict:   in.Strict,
		indexes:  newIndexes(in.Universe),
		cache:    in.Indexes,
	}
	if !in.OwnPackageTypeMarkers {
		r.typeMarkerPackages = map[string]bool{}
		for _, p := range in.Discovery.AllImportPaths {
			r.typeMarkerPackages[p] = true
		}
	}
	r.existing = in.Prefetch
	r.only = in.Only
	if r.existing == nil && r.only == nil {
		r.existing = StartPrefetch(in.Tree, in.Discovery, in.Memo)
	} else if r.existing == nil {
		// A restricted run reads the few files it writes, when it needs them.
		r.existing = startPrefetch(in.Tree, in.Memo, nil)
	}
	defer r.existing.Wait()
	res := &Result{}
	versions := r.readVersions(in.Discovery)
	for _, pv := range versions {
		r.problems.Add(pv.problems.Items()...)
		if pv.skipped != "" {
			res.Skipped = append(res.Skipped, SkippedVersion{pv.v, pv.skipped})
			continue
		}
		for _, c := range pv.crds {
			r.problems.Add(c.problems...)
			pv.vr.CRDs = append(pv.vr.CRDs, c.crd)
		}
		r.finish(pv.vr)
		res.Versions = append(res.Versions, pv.vr)
	}
	keepIndexes(in.Indexes, r.indexes.m)
	if in.Problems == nil {
		return res, list.Err()
	}
	return res, nil
}

// pendingVersion is a version package read but not yet written: the
// version (nil when skipped, with the reason), the problems its package
// checks found, and its CRDs, in root type order.
type pendingVersion struct {
	g        *discovery.Group
	v        *discovery.Version
	vr       *VersionResult
	skipped  string
	problems *diag.List
	crds     []readCRD
}

// readCRD is one CRD read, with the problems found on the way.
type readCRD struct {
	crd      *CRD
	problems []diag.Diagnostic
}

// readVersions reads the version packages of d and their CRDs, in
// discovery order: first every package (version), then every CRD, each
// step on every core. Nothing is written, and nothing is reported to
// r.problems: the caller adds the problems in discovery order.
func (r *run) readVersions(d *discovery.Result) []*pendingVersion {
	var out []*pendingVersion
	for _, g := range d.Groups {
		for _, v := range g.Versions {
			pv := &pendingVersion{g: g, v: v, problems: &diag.List{}}
			if g.Config.EmptyPartialSchema.Disabled {
				pv.skipped = fmt.Sprintf("emptyPartialSchema is disabled in %s", r.rel(g.ConfigFile))
			}
			out = append(out, pv)
		}
	}
	r.checkPackages(out)
	workers.Each(len(out), func(i int) {
		if pv := out[i]; pv.skipped == "" {
			own := *r
			own.problems = pv.problems
			pv.vr, pv.skipped = own.version(pv.g, pv.v)
		}
	})
	type job struct {
		pv *pendingVersion
		n  int // the root type's index
	}
	var jobs []job
	for _, pv := range out {
		if pv.vr != nil {
			pv.crds = make([]readCRD, len(pv.vr.roots))
			for n := range pv.vr.roots {
				jobs = append(jobs, job{pv, n})
			}
		}
	}
	// The CRDs to write take longest (their partial manifests are read and
	// compared too): start them first, so that the others fill the cores
	// around them rather than after them.
	slices.SortStableFunc(jobs, func(a, b job) int {
		return cmp.Compare(r.writes(b.pv.vr, b.n), r.writes(a.pv.vr, a.n))
	})
	workers.Each(len(jobs), func(i int) {
		vr, n := jobs[i].pv.vr, jobs[i].n
		crd, problems := r.crdWithOwnProblems(vr, vr.index, vr.roots[n])
		if !crd.Failed && r.selected(vr, crd) {
			crd.plan = r.planCRD(crd)
		}
		jobs[i].pv.crds[n] = readCRD{crd, problems}
	})
	return out
}

// checkPackages type-checks the root package of every version to read
// (a no-op for the packages the pipeline checked before the stage), one
// after the other as the checker takes them, and settles the file set
// of the run: that of the first one.
func (r *run) checkPackages(versions []*pendingVersion) {
	for _, pv := range versions {
		if pv.skipped != "" {
			continue
		}
		if pkg := r.u.Root(pv.v.ImportPath); pkg != nil {
			r.u.Checker.Check(pkg)
			if r.fset == nil {
				r.fset = pkg.Fset
			}
		}
	}
}

// version checks one version package and finds its CRD root types. It
// returns nil and a reason when the package is not processed.
func (r *run) version(g *discovery.Group, v *discovery.Version) (*VersionResult, string) {
	pkg := r.u.Root(v.ImportPath)
	if pkg == nil {
		r.problems.Add(diag.Errorf(r.rel(v.Dir), 0, "", "package %s is not part of the loaded packages", v.ImportPath))
		return nil, "not loaded"
	}
	if diags := goload.Diagnostics(pkg); len(diags) > 0 {
		for _, d := range diags {
			d.File = r.rel(d.File)
			r.problems.Add(d)
		}
		return nil, "the package does not load"
	}
	docFile, docLine := r.rel(v.DocFile), v.DocLines["+"+markerdefs.FeaturegatedSchemaGenNm]
	bySchemaGen := false
	switch v.FeaturegatedSchemaGen {
	case "":
	case "true":
		bySchemaGen = true
	default:
		r.problems.Add(diag.Errorf(docFile, docLine, "+"+markerdefs.FeaturegatedSchemaGenNm+"="+v.FeaturegatedSchemaGen,
			"the only accepted value is true (remove the marker to leave the package to its root types)"))
		return nil, "invalid +" + markerdefs.FeaturegatedSchemaGenNm
	}
	idx := r.index(pkg)
	if idx.failed {
		return nil, "invalid markers"
	}
	roots, ok := r.rootTypes(idx)
	if !ok {
		return nil, "invalid +" + markerdefs.ObjectRootName
	}
	if !bySchemaGen && len(roots) == 0 {
		// The package's output does not depend on its version or group
		// name, so a mismatch there is worth a note, not an error.
		for _, d := range v.Mismatches {
			d.File = r.rel(d.File)
			klog.V(1).Infof("%s (ignored: the package has no CRD root type)", d)
		}
		return nil, "no +" + markerdefs.FeaturegatedSchemaGenNm + "=true and no +" + markerdefs.ObjectRootName + "=true type"
	}
	if len(v.Mismatches) > 0 {
		for _, d := range v.Mismatches {
			d.File = r.rel(d.File)
			r.problems.Add(d)
		}
		return nil, "GroupVersion disagrees with +groupName or the directory"
	}
	if v.GroupNameMarker == "" {
		file := docFile
		if file == "" {
			file = r.rel(v.Dir)
		}
		r.problems.Add(diag.Errorf(file, 0, "+groupName",
			"missing: a package processed by stage 1 needs +groupName=<group> in its doc.go"))
		return nil, "no +groupName"
	}
	return &VersionResult{
		Group:        g,
		Version:      v,
		Name:         v.DirName(),
		ManifestsDir: filepath.Join(v.Dir, ManifestsDirName),
		SummaryFile:  filepath.Join(v.Dir, SummaryFileName),
		index:        idx,
		roots:        roots,
	}, ""
}

// finish settles a version whose CRDs were read: their order and names,
// then it writes them, removes stale CRD directories and writes the
// summary.
func (r *run) finish(vr *VersionResult) {
	sort.SliceStable(vr.CRDs, func(i, j int) bool { return vr.CRDs[i].Kind < vr.CRDs[j].Kind })
	r.checkDuplicateNames(vr)
	for _, crd := range vr.CRDs {
		crd.Untouched = !r.selected(vr, crd)
		if !crd.Failed && !crd.Untouched {
			r.writeCRD(crd)
		}
		vr.Failed = vr.Failed || crd.Failed
	}
	if !vr.Failed {
		r.removeStaleDirs(vr)
	}
	if !vr.Failed {
		r.writeSummary(vr)
	}
	vr.index, vr.roots = nil, nil
}

// writes is 1 when Input.Only selects the root type n of vr for writing,
// else 0.
func (r *run) writes(vr *VersionResult, n int) int {
	if r.only == nil || r.only(vr.Version.Name(), vr.roots[n].Name.Name) {
		return 1
	}
	return 0
}

// selected says whether Input.Only selects the CRD for writing.
func (r *run) selected(vr *VersionResult, crd *CRD) bool {
	return r.only == nil || r.only(vr.Version.Name(), crd.Kind)
}

// checkDuplicateNames reports two root types of one package that name the
// same CRD; both are marked failed.
func (r *run) checkDuplicateNames(vr *VersionResult) {
	first := map[string]*CRD{}
	for _, crd := range vr.CRDs {
		if crd.Name == "" {
			continue
		}
		prev, dup := first[crd.Name]
		if !dup {
			first[crd.Name] = crd
			continue
		}
		r.problems.Add(diag.Errorf(crd.File, crd.Line, "type "+crd.Kind,
			"defines CRD %s, which type %s (%s) defines too: give each root type its own +kubebuilder:resource path",
			crd.Name, prev.Kind, diag.Position{File: prev.File, Line: prev.Line}))
		crd.Failed, prev.Failed, vr.Failed = true, true, true
	}
}

// rel names path relative to the base directory when it lies below it.
func (r *run) rel(path string) string {
	if path == "" {
		return ""
	}
	return tree.Rel(r.base, path)
}

// position renders pos as a relative file name and a line.
func (r *run) position(pos token.Pos) (string, int) {
	if r.fset == nil || !pos.IsValid() {
		return "", 0
	}
	p := r.fset.Position(pos)
	return r.rel(p.Filename), p.Line
}

// typeErrorsAt returns the messages of pkg's type errors on file:line.
func typeErrorsAt(pkg *loader.Package, file string, line int) []string {
	var out []string
	for _, e := range pkg.Errors {
		if e.Kind != packages.TypeError {
			continue
		}
		if d := goload.ErrorDiagnostic(e); d.File == file && d.Line == line && !slices.Contains(out, e.Msg) {
			out = append(out, e.Msg)
		}
	}
	return out
}

// splitEntry returns the gate names of a gate entry.
func splitEntry(entry string) []string { return strings.Split(entry, "+") }
