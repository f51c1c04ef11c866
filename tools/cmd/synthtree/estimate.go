package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gatedcrd/gatedcrd/features/featuregate"
)

// counts describe a generated tree. They are measured on the plan's type
// declarations (not taken from the targets), so a test can compare them.
type counts struct {
	Groups            int
	GroupVersions     int
	CRDs              int
	TypeGated         int
	Gates             int // declared in the payload
	GatesUsed         int // named by at least one marker
	GatedFields       int // fields with +openshift:enable:FeatureGate
	DoubleGated       int // ... with two of them
	Enums             int // named string types with FeatureGateAwareEnum
	PointerEnums      int // ... reached through a pointer field
	RequiredPairs     int // FeatureGateAwareXValidation with requiredFeatureGate=A;B
	GatedXValidations int
	GatedMaxItems     int // fields with FeatureGateAwareMaxItems
	Overrides         int
	CrossPackageRefs  int // fields whose type is declared in another package
	CELRules          int // +kubebuilder:validation:XValidation markers
	MaxDepth          int // deepest chain of struct fields below a CRD's root type
	Aggregates        int // CRDs whose status embeds their package's other specs
	PartialManifests  int // stage 1 files expected
	MergedFiles       int // stage 3 files expected (estimate)
	PayloadFiles      int
	GoFiles           int
}

func (c counts) String() string {
	return fmt.Sprintf(`%d groups, %d group-versions, %d CRDs (%d gated as a whole)
%d FeatureGates in %d payload manifests, %d of them named by markers
%d gated fields (%d behind two gates), %d FeatureGateAware enums (%d reached through a pointer)
%d requiredFeatureGate pairs, %d FeatureGateAwareXValidation markers, %d fields with FeatureGateAwareMaxItems
%d cross-package field references, %d manual overrides, %d Go files
%d CEL rules (XValidation markers), struct fields nested %d deep, %d aggregate CRDs
expected: %d partial manifests, about %d merged CRD manifests`,
		c.Groups, c.GroupVersions, c.CRDs, c.TypeGated,
		c.Gates, c.PayloadFiles, c.GatesUsed,
		c.GatedFields, c.DoubleGated, c.Enums, c.PointerEnums,
		c.RequiredPairs, c.GatedXValidations, c.GatedMaxItems,
		c.CrossPackageRefs, c.Overrides, c.GoFiles,
		c.CELRules, c.MaxDepth, c.Aggregates,
		c.PartialManifests, c.MergedFiles)
}

// allTypes returns every declared type once.
func (p *plan) allTypes() []*typeDecl {
	out := slices.Clone(p.Shared)
	for _, gv := range p.GVs {
		out = append(out, gv.Shared...)
		for _, c := range gv.CRDs {
			out = append(out, c.Types...)
		}
	}
	return out
}

func hasPrefix(markers []string, prefix string) int {
	n := 0
	for _, m := range markers {
		if strings.HasPrefix(m, prefix) {
			n++
		}
	}
	return n
}

func (p *plan) count() (counts, error) {
	c := counts{Groups: len(p.Groups), GroupVersions: len(p.GVs), CRDs: len(p.CRDs), Gates: len(p.Gates)}
	used := map[string]bool{}
	enumTypes := map[*typeDecl]bool{}
	c.GoFiles = 2 // shared/types: types.go and its deepcopy
	for i, gv := range p.GVs {
		// doc.go, register.go, the two generated files, a file per CRD
		c.GoFiles += 4 + len(gv.CRDs)
		if len(gv.Shared) > 0 {
			c.GoFiles++
		}
		if i%protobufEvery == 0 {
			c.GoFiles++ // generated.pb.go
		}
	}
	for _, t := range p.allTypes() {
		for _, r := range gateRefs(t.Markers) {
			for _, g := range strings.Split(r, "+") {
				used[g] = true
			}
		}
		if n := hasPrefix(t.Markers, mEnum); n > 0 {
			c.Enums++
			enumTypes[t] = true
		}
		c.CELRules += hasPrefix(t.Markers, mCEL)
		for _, m := range t.Markers {
			if strings.HasPrefix(m, mXVal) {
				c.GatedXValidations++
				if strings.Contains(m, "requiredFeatureGate=") {
					c.RequiredPairs++
				}
			}
		}
		for _, f := range t.Fields {
			for _, r := range gateRefs(f.Markers) {
				for _, g := range strings.Split(r, "+") {
					used[g] = true
				}
			}
			switch hasPrefix(f.Markers, mEnable) {
			case 0:
			case 1:
				c.GatedFields++
			default:
				c.GatedFields++
				c.DoubleGated++
			}
			c.CELRules += hasPrefix(f.Markers, mCEL)
			if hasPrefix(f.Markers, mMaxItems) > 0 {
				c.GatedMaxItems++
			}
			if f.Type.Named != nil && f.Type.Named.Pkg != t.Pkg || strings.HasPrefix(f.Type.Builtin, plainRefPk+".") {
				c.CrossPackageRefs++
			}
		}
	}
	for _, t := range p.allTypes() {
		for _, f := range t.Fields {
			if f.Type.Ptr && enumTypes[f.Type.Named] {
				c.PointerEnums++
			}
		}
	}
	c.GatesUsed = len(used)
	for _, cr := range p.CRDs {
		if cr.Cat == catTypeGated {
			c.TypeGated++
		}
		if cr.Override != nil {
			c.Overrides++
		}
		if cr.aggregate {
			c.Aggregates++
		}
		c.MaxDepth = max(c.MaxDepth, depth(cr.Types[0]))
	}
	reg, err := p.registry()
	if err != nil {
		return c, err
	}
	pf, err := p.payloadFiles()
	if err != nil {
		return c, err
	}
	c.PayloadFiles = len(pf)
	for _, cr := range p.CRDs {
		entries, top := cr.gateEntries()
		if len(top) == 0 {
			c.PartialManifests++
		}
		c.PartialManifests += len(entries)
		c.MergedFiles += estimateMerged(reg, cr, entries, top)
	}
	return c, nil
}

// depth returns the longest chain of struct-typed fields below t.
func depth(t *typeDecl) int {
	d := 0
	for _, f := range t.Fields {
		if f.Type.Named != nil && f.Type.Named.Fields != nil && f.Type.Named != t {
			d = max(d, 1+depth(f.Type.Named))
		}
	}
	return d
}

// gateEntries walks the CRD's types as stage 1 does (docs/reference-rules.md,
// "Gate discovery") and returns
// the sorted gate entries and the root type's own gates.
func (c *crd) gateEntries() (entries, top []string) {
	root := c.Types[0]
	seen := map[*typeDecl]bool{}
	set := map[string]bool{}
	var walk func(t *typeDecl)
	walk = func(t *typeDecl) {
		if t == nil || seen[t] {
			return
		}
		seen[t] = true
		for _, r := range gateRefs(t.Markers) {
			set[r] = true
		}
		for _, f := range t.Fields {
			for _, r := range gateRefs(f.Markers) {
				set[r] = true
			}
			walk(f.Type.Named)
		}
	}
	walk(root)
	for _, m := range root.Markers {
		if v, ok := strings.CutPrefix(m, mEnable); ok {
			top = append(top, v)
		}
	}
	for e := range set {
		entries = append(entries, e)
	}
	slices.Sort(entries)
	return entries, top
}

// estimateMerged predicts how many files stage 3 writes for one CRD by
// running stage 3's choice of files (docs/reference-rules.md, "Which
// files are written") on the sets of pertinent
// manifests instead of merged objects. Two tuples with the same pertinent
// set merge to the same CRD; the converse holds for the content this
// generator writes (every gate adds something), so the count is exact
// unless stage 3 differs from the spec.
func estimateMerged(reg *featuregate.Registry, c *crd, entries, top []string) int {
	// Each tuple with a CRD, labelled with its pertinent manifests in
	// place of the merged content.
	var recs []featuregate.Labeled[string]
	profiles := featuregate.ClusterProfiles()
	sets := []featuregate.FeatureSetName{featuregate.CustomNoUpgrade}
	sets = append(sets, featuregate.FixedFeatureSets()...)
	versions := reg.Versions()
	for _, v := range versions {
		for _, prof := range profiles {
			for _, fs := range sets {
				enabled := map[string]bool{}
				if fs != featuregate.CustomNoUpgrade {
					for _, g := range reg.FeatureSets(v, prof, fs).Enabled {
						enabled[string(g)] = true
					}
				}
				ok := func(entry string) bool {
					if fs == featuregate.CustomNoUpgrade {
						return true
					}
					for _, g := range strings.Split(entry, "+") {
						if !enabled[g] {
							return false
						}
					}
					return true
				}
				var pertinent []string
				if len(top) == 0 {
					pertinent = append(pertinent, "AAA_ungated")
				}
				for _, e := range entries {
					if ok(e) {
						pertinent = append(pertinent, e)
					}
				}
				if len(pertinent) == 0 {
					continue
				}
				if c.Override != nil && (!c.Override.ProfileOnly || prof == featuregate.SelfManagedHA) {
					pertinent = append(pertinent, "override:"+c.Override.FileName)
				}
				recs = append(recs, featuregate.Labeled[string]{
					Label: strings.Join(pertinent, ","),
					Tuple: featuregate.Tuple{Version: v, ClusterProfile: prof, FeatureSet: fs},
				})
			}
		}
	}
	products := featuregate.CollapseLabeled(recs)

	var knownFS []featuregate.FeatureSetName
	var knownP []featuregate.ClusterProfileName
	knownFSOf := map[featuregate.ClusterProfileName][]featuregate.FeatureSetName{}
	for _, r := range products {
		knownFS = union(knownFS, r.FeatureSets)
		knownP = union(knownP, r.ClusterProfiles)
		for _, p := range r.ClusterProfiles {
			knownFSOf[p] = union(knownFSOf[p], r.FeatureSets)
		}
	}
	n := 0
	for _, r := range products {
		fsSame := slices.Equal(r.FeatureSets, knownFS)
		pSame := slices.Equal(r.ClusterProfiles, knownP)
		if !pSame {
			fsSame = true
			for _, p := range r.ClusterProfiles {
				if !slices.Equal(r.FeatureSets, knownFSOf[p]) {
					fsSame = false
				}
			}
		}
		switch {
		case fsSame && pSame:
			n++
		case fsSame:
			n += len(r.ClusterProfiles)
		case pSame:
			n += len(r.FeatureSets)
		default:
			n += len(r.ClusterProfiles) * len(r.FeatureSets)
		}
	}
	return n
}

// union returns the ascending list of the values of a and b.
func union[T ~string](a, b []T) []T {
	out := slices.Clone(a)
	for _, x := range b {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	slices.Sort(out)
	return out
}
