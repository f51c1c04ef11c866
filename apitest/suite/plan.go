package suite

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gatedcrd/gatedcrd/apitest/server"
	"github.com/gatedcrd/gatedcrd/features/payload"
	"github.com/gatedcrd/gatedcrd/internal/diag"
	"k8s.io/apimachinery/pkg/api/equality"
)

// Variant is one CRD file installed in one version, and the suites that
// run against it.
type Variant struct {
	File    *CRDFile
	Version string
	// CRD is what gets installed: the file's CRD reduced to Version,
	// served and used for storage.
	CRD    *server.CRD
	Suites []*Suite
}

// TestName names the test group of a suite run against the variant:
//
//	[<group>/<version>, Resource=<plural>][ClusterProfiles=<short names>][FeatureSet="<annotation>"][FeatureGate=<gates>][File=<base name>] <name>
//
// so that a failure says which CRD file, profile, feature set and gates it
// was about.
func (v *Variant) TestName(s *Suite) string {
	return fmt.Sprintf("[%s][ClusterProfiles=%s][FeatureSet=%q][FeatureGate=%s][File=%s] %s",
		server.Resource(v.File.CRD, v.Version), v.File.profileList(), v.File.featureSetList(),
		s.GateList(), filepath.Base(v.File.Path), s.Name)
}

// The names of the subtests that hold a suite's tests.
const (
	OnCreate = "onCreate"
	OnUpdate = "onUpdate"
)

// FullTestName names one test of a suite run against the variant:
// TestName, the kind of test (OnCreate or OnUpdate) and the test's name,
// joined by "/", as the subtests are nested.
func (v *Variant) FullTestName(s *Suite, kind, test string) string {
	return v.TestName(s) + "/" + kind + "/" + test
}

// Plan is the order in which the variants are installed and tested.
type Plan struct {
	// Batches are installed one after the other, each as a whole (the
	// server delays the first creates after an install, once per batch);
	// a CRD of the next batch replaces the one of its name by an update
	// in place where it can (see Installed). A CRD name can only have one CRD
	// installed at a time, so each batch holds one CRD per name: the
	// variants of a name whose CRDs have the same spec (as the CRD files
	// of several feature sets often do) share a batch and one
	// installation of the first one's CRD (see sameSpec); the others go
	// to successive batches. There are as many batches as the largest
	// number of distinct specs of one name.
	Batches [][]*Variant
	// Warnings are the defects of the suite files that lenient parsing
	// accepted (see ParseWith), file by file.
	Warnings []*diag.Diagnostic
}

// Suites returns the number of (suite, variant) pairs in the plan.
func (p *Plan) Suites() int {
	n := 0
	for _, batch := range p.Batches {
		for _, v := range batch {
			n += len(v.Suites)
		}
	}
	return n
}

// Tests returns the number of tests in the plan: each test of each
// (suite, variant) pair.
func (p *Plan) Tests() int {
	n := 0
	for _, batch := range p.Batches {
		for _, v := range batch {
			for _, s := range v.Suites {
				n += len(s.OnCreate) + len(s.OnUpdate)
			}
		}
	}
	return n
}

// Filter returns the plan without the variants and suites that have no
// test whose full name (see Variant.FullTestName) keep accepts, and
// without the batches left empty. Tests within a kept suite are filtered
// when they run.
func (p *Plan) Filter(keep func(fullTestName string) bool) *Plan {
	return p.Select(func(v *Variant, s *Suite) bool { return v.hasTest(s, keep) })
}

// hasTest reports whether keep accepts some test of s run against v.
func (v *Variant) hasTest(s *Suite, keep func(string) bool) bool {
	for _, t := range s.OnCreate {
		if keep(v.FullTestName(s, OnCreate, t.Name)) {
			return true
		}
	}
	for _, t := range s.OnUpdate {
		if keep(v.FullTestName(s, OnUpdate, t.Name)) {
			return true
		}
	}
	return false
}

// Prepare discovers the suites below opts.BaseDir, parses them (leniently
// unless opts.Strict, see ParseWith), reads the CRD files of their version
// directories and the payload FeatureGate manifests (in the format of
// opts.Era, detected when empty) of opts.PayloadDir, else of
// DefaultPayloadDir when it exists, else the one FindPayloadDir finds for
// each version directory, matches them and plans the run. It returns the plan of every suite that could be prepared and,
// joined, the problem of every suite that could not (each naming its file
// and line), so that one broken suite does not keep the others from
// running. The plan lists the defects lenient parsing accepted in
// Warnings.
func Prepare(opts Options) (*Plan, error) {
	baseDir := opts.BaseDir
	resolver := &payloadResolver{given: opts.PayloadDir, baseDir: baseDir}
	payloads := map[string]*payload.Directory{}
	payloadErrs := map[string]error{}
	if opts.PayloadDir != "" || exists(DefaultPayloadDir(baseDir)) {
		// One directory serves every suite: a problem with it is the
		// run's.
		dir, _ := resolver.dirFor("")
		d, err := payload.ReadDirEra(dir, opts.Era)
		if err != nil {
			return nil, err
		}
		payloads[dir] = d
	}
	paths, err := Discover(baseDir)
	if err != nil {
		return nil, fmt.Errorf("discovering suites: %w", err)
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("no suite below %s (suites are <dir>/%s/<crdName>/*.yaml, beside <dir>/%s)", baseDir, testsDir, generatedDir)
	}
	var errs []error
	var suites []*Suite
	var warnings []*diag.Diagnostic
	for _, path := range paths {
		s, err := ParseFile(path, ParseOptions{Lenient: !opts.Strict})
		if err != nil {
			errs = append(errs, err)
			continue
		}
		suites = append(suites, s)
		warnings = append(warnings, s.Warnings...)
	}
	crdDirs := map[string][]*CRDFile{}
	crdDirErrs := map[string]error{}
	var pairs []pairing
	for _, s := range suites {
		dir := filepath.Join(versionDir(s.Path), generatedDir)
		if _, read := crdDirs[dir]; !read && crdDirErrs[dir] == nil {
			crdDirs[dir], crdDirErrs[dir] = ReadCRDDir(dir)
			if crdDirErrs[dir] != nil {
				errs = append(errs, fmt.Errorf("reading the CRD files of %s: %w", s.Path, crdDirErrs[dir]))
			}
		}
		if crdDirErrs[dir] != nil {
			continue
		}
		pdir, err := resolver.dirFor(s.Path)
		if err != nil {
			if vd := versionDir(s.Path); payloadErrs[vd] == nil {
				payloadErrs[vd] = err
				errs = append(errs, err)
			}
			continue
		}
		if _, read := payloads[pdir]; !read && payloadErrs[pdir] == nil {
			payloads[pdir], payloadErrs[pdir] = payload.ReadDirEra(pdir, opts.Era)
			if payloadErrs[pdir] != nil {
				errs = append(errs, fmt.Errorf("the payload of the suites of %s: %w", versionDir(s.Path), payloadErrs[pdir]))
			}
		}
		if payloadErrs[pdir] != nil {
			continue
		}
		decisions, err := Match(s, crdDirs[dir], payloads[pdir])
		if err != nil {
			errs = append(errs, err)
			continue
		}
		var files []*CRDFile
		for _, decision := range decisions {
			if decision.Run {
				files = append(files, decision.File)
			}
		}
		version, err := suiteVersion(s, files)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, f := range files {
			pairs = append(pairs, pairing{suite: s, file: f, version: version})
		}
	}
	plan, err := newPlan(pairs)
	if err != nil {
		errs = append(errs, err)
	}
	plan.Warnings = warnings
	return plan, errors.Join(errs...)
}

// pairing is a suite to run against a CRD file in a version.
type pairing struct {
	suite   *Suite
	file    *CRDFile
	version string
}

// newPlan groups pairings into variants and variants into batches.
func newPlan(pairs []pairing) (*Plan, error) {
	type key struct{ path, version string }
	variants := map[key]*Variant{}
	var errs []error
	for _, p := range pairs {
		k := key{p.file.Path, p.version}
		v, ok := variants[k]
		if !ok {
			crd, err := server.SingleVersion(p.file.CRD, p.version)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", p.file.Path, err))
				continue
			}
			v = &Variant{File: p.file, Version: p.version, CRD: crd}
			variants[k] = v
		}
		v.Suites = append(v.Suites, p.suite)
	}
	byName := map[string][]*Variant{}
	for _, v := range variants {
		slices.SortFunc(v.Suites, func(a, b *Suite) int { return strings.Compare(a.Path, b.Path) })
		byName[v.CRD.Name] = append(byName[v.CRD.Name], v)
	}
	slots := map[string][][]*Variant{}
	for name, list := range byName {
		slices.SortFunc(list, func(a, b *Variant) int {
			return cmp.Or(strings.Compare(a.File.Path, b.File.Path), strings.Compare(a.Version, b.Version))
		})
		slots[name] = bySpec(list)
	}
	return &Plan{Batches: batches(slots)}, errors.Join(errs...)
}

// batches puts the slots of each CRD name (the groups of its variants
// that share one installation, in the order they run) into batches: the
// i-th batch holds the i-th slot of every name that has one, names in
// order.
func batches(slots map[string][][]*Variant) [][]*Variant {
	names := slices.Sorted(maps.Keys(slots))
	var out [][]*Variant
	for i := 0; ; i++ {
		var batch []*Variant
		for _, name := range names {
			if i < len(slots[name]) {
				batch = append(batch, slots[name][i]...)
			}
		}
		if len(batch) == 0 {
			return out
		}
		out = append(out, batch)
	}
}

// bySpec groups the variants of one CRD name by their CRD's spec, in
// the order each spec first appears.
func bySpec(list []*Variant) [][]*Variant {
	var groups [][]*Variant
	for _, v := range list {
		i := slices.IndexFunc(groups, func(g []*Variant) bool { return sameSpec(g[0].CRD, v.CRD) })
		if i < 0 {
			groups = append(groups, []*Variant{v})
			continue
		}
		groups[i] = append(groups[i], v)
	}
	return groups
}

// sameSpec tells whether two CRDs of one name have the same spec. The
// server validates, defaults and stores custom resources by the spec
// alone (their schemas, CEL rules, subresources, names); the metadata,
// where the CRD files of different feature sets or profiles differ when
// their schemas do not, plays no part. So variants whose CRDs have the same
// spec can run their suites on one installation.
func sameSpec(a, b *server.CRD) bool {
	return equality.Semantic.DeepEqual(a.Spec, b.Spec)
}

// suiteVersion returns the CRD version a suite tests: its version field,
// which every matched file must define, or else the single version that
// every matched file defines.
func suiteVersion(s *Suite, files []*CRDFile) (string, error) {
	if s.Version != "" {
		for _, f := range files {
			if !slices.Contains(f.versionNames(), s.Version) {
				return "", &diag.Diagnostic{File: s.Path, Line: s.VersionLine, Message: fmt.Sprintf(
					"version %s: %s defines only %s", s.Version, f.Path, strings.Join(f.versionNames(), ", "))}
			}
		}
		return s.Version, nil
	}
	version := ""
	for _, f := range files {
		names := f.versionNames()
		if len(names) != 1 {
			return "", &diag.Diagnostic{File: s.Path, Line: s.CRDNameLine, Message: fmt.Sprintf(
				"%s defines the versions %s; say which one the suite tests with version:", f.Path, strings.Join(names, ", "))}
		}
		if version != "" && names[0] != version {
			return "", &diag.Diagnostic{File: s.Path, Line: s.CRDNameLine, Message: fmt.Sprintf(
				"the matched CRD files define different versions (%s and %s); say which one the suite tests with version:", version, names[0])}
		}
		version = names[0]
	}
	return version, nil
}
