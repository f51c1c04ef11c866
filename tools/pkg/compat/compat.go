package compat

import (
	"crypto/sha256"
	"fmt"
	"sort"
	"strings"
	"sync"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/crdify/pkg/validations"
	"sigs.k8s.io/crdify/pkg/validations/crd/existingfieldremoval"

	"github.com/gatedcrd/gatedcrd/features/featuregate"
	"github.com/gatedcrd/gatedcrd/internal/workers"
)

// Options say what to compare.
type Options struct {
	// Old and New are the two trees.
	Old, New Source
	// PayloadDir is the payload FeatureGate directory relative to each
	// tree's root, slash-separated.
	PayloadDir string
	// Accepted returns the accepted findings of a group directory of the
	// new tree (slash path relative to its root); nil accepts nothing.
	Accepted func(groupDir string) ([]Acceptance, error)
	// Comparer makes the comparison of one worker; nil is compat's own
	// (crdify with compat's configuration and the CEL check).
	Comparer func() (Comparer, error)
	// CheckNew also compares the CRD of each tuple that the old tree does
	// not install it in, with a nil old CRD, for checks that judge the new
	// CRD alone.
	CheckNew bool
	// Include, when set, keeps only the CRD files (slash paths relative to
	// each tree's root) it returns true for.
	Include func(path string) bool
	// Tool names the command in the report's summary line ("compat").
	Tool string
	// Preview classifies breaking findings about a CRD or version that
	// only NoUpgrade feature sets install as ClassPreview.
	Preview bool
}

// Run compares the CRDs of two trees tuple by tuple.
func Run(opts Options) (*Report, error) {
	var old, cur *side
	var oldErr, newErr error
	cache := newParseCache()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		old, oldErr = readSide(opts.Old, opts.PayloadDir, opts.Include, cache)
	}()
	cur, newErr = readSide(opts.New, opts.PayloadDir, opts.Include, cache)
	wg.Wait()
	if oldErr != nil {
		return nil, oldErr
	}
	if newErr != nil {
		return nil, newErr
	}
	alignEras(old, cur)
	names := map[string]bool{}
	for n := range old.crds {
		names[n] = true
	}
	for n := range cur.crds {
		names[n] = true
	}
	sorted := make([]string, 0, len(names))
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)

	rep := &Report{Tool: opts.Tool, Old: opts.Old.Describe(), New: opts.New.Describe(), CRDs: make([]*CRDReport, len(sorted))}
	newComparer := opts.Comparer
	if newComparer == nil {
		newComparer = func() (Comparer, error) {
			r, err := newRunner()
			if err != nil {
				return nil, fmt.Errorf("configuring crdify: %w", err)
			}
			return crdifyComparer{r}, nil
		}
	}
	var runErr error
	var once sync.Once
	// Each goroutine compares with a crdify runner of its own.
	workers.EachWith(len(sorted), func() Comparer {
		r, err := newComparer()
		if err != nil {
			once.Do(func() { runErr = err })
		}
		return r
	}, func(r Comparer, i int) {
		if r == nil {
			return
		}
		c := &crdComparison{old: old, cur: cur, comparer: r, checkNew: opts.CheckNew, preview: opts.Preview, cache: map[[2][sha256.Size]byte][]Difference{}}
		rep.CRDs[i] = c.run(sorted[i])
		if c.err != nil {
			once.Do(func() { runErr = c.err })
		}
	})
	if runErr != nil {
		return nil, runErr
	}
	if err := applyAcceptances(rep, old, cur, opts.Accepted); err != nil {
		return nil, err
	}
	rep.summarize()
	return rep, nil
}

// crdComparison compares one CRD.
type crdComparison struct {
	old, cur *side
	comparer Comparer
	checkNew bool
	preview  bool
	// name and groupDirs are the CRD's, for the comparer.
	name      string
	groupDirs []string
	// cache holds the findings per (old variant, new variant) content.
	cache map[[2][sha256.Size]byte][]Difference
	// present holds every field of every new variant, computed once.
	present map[string]int
	// err is the first variant that could not be decoded.
	err error
}

// group collects findings or gate changes with equal content.
type group[T any] struct {
	order []string
	items map[string]T
}

func (g *group[T]) get(key string, mk func() T) T {
	if g.items == nil {
		g.items = map[string]T{}
	}
	it, ok := g.items[key]
	if !ok {
		it = mk()
		g.items[key] = it
		g.order = append(g.order, key)
	}
	return it
}

func (g *group[T]) list() []T {
	keys := append([]string(nil), g.order...)
	sort.Strings(keys)
	out := make([]T, len(keys))
	for i, k := range keys {
		out[i] = g.items[k]
	}
	return out
}

func (c *crdComparison) run(name string) *CRDReport {
	o, n := c.old.crds[name], c.cur.crds[name]
	rep := &CRDReport{Name: name}
	c.name = name
	if n != nil {
		c.groupDirs = sortedKeys(n.groupDirs)
	} else {
		c.groupDirs = sortedKeys(o.groupDirs)
	}
	// The gates each tree's manifests depend on: only those can change
	// that tree's CRD.
	newGates, gates := map[string]bool{}, map[string]bool{}
	if n != nil {
		newGates = n.gates
	}
	if o != nil {
		for g := range o.gates {
			gates[g] = true
		}
	}
	for g := range newGates {
		gates[g] = true
	}
	var findings group[*Finding]
	var changes group[*GateChange]
	newTuples := newTupleSet(len(c.cur.tuples))
	type pendingFinding struct {
		t       featuregate.TupleGates
		f       Difference
		changed []GateState
	}
	var pending []pendingFinding
	codeFindings := map[string]bool{}
	addFinding := func(t featuregate.TupleGates, f Difference, note string) {
		class := ClassBreaking
		switch {
		case f.New:
			class = ClassNew
		case f.Warning:
			class = ClassWarning
		}
		key := strings.Join([]string{class, f.Check, f.Version, f.Path, f.Message, note}, "\x00")
		c := findings.get(key, func() *Finding {
			return &Finding{Class: class, Check: f.Check, Version: f.Version, Path: f.Path, Message: f.Message, Note: note, Tuples: newTupleSet(len(c.cur.tuples))}
		})
		c.Tuples.add(t)
	}
	addChange := func(t featuregate.TupleGates, gc GateChange) {
		if !gc.Installs && !gc.Removes && len(gc.AddedFields)+len(gc.RemovedFields)+len(gc.Other) == 0 {
			return // the gate does not touch this CRD's schema
		}
		key := fmt.Sprintf("%v|%v|%v|%v|%v|%v", gc.Gates, gc.Installs, gc.Removes, gc.AddedFields, gc.RemovedFields, gc.Other)
		g := changes.get(key, func() *GateChange {
			gc.Tuples = newTupleSet(len(c.cur.tuples))
			return &gc
		})
		g.Tuples.add(t)
	}
	if o == nil {
		rep.New = true
		rep.NewTuples = newTupleSet(len(c.cur.tuples))
		for _, t := range c.cur.tuples {
			if nv := n.variants[t.Tuple]; nv != nil {
				rep.NewTuples.add(t)
				c.checkNewVariant(t, nv, nil, addFinding)
			}
		}
		rep.Findings = findings.list()
		c.classify(rep, n)
		return rep
	}
	for _, nt := range c.cur.tuples {
		key := nt.Tuple
		var nv *variant
		if n != nil {
			nv = n.variants[key]
		}
		ot, inOld := c.old.byKey[key]
		ov := o.variants[key]
		changed := changedGates(gates, ot, nt)
		switch {
		case ov == nil && nv == nil:
			continue
		case ov == nil:
			if inOld && len(changed) > 0 {
				addChange(nt, GateChange{Gates: changed, Installs: true})
			} else {
				newTuples.add(nt)
			}
			c.checkNewVariant(nt, nv, o, addFinding)
			continue
		case nv == nil:
			if len(changed) > 0 && n != nil {
				addChange(nt, GateChange{Gates: changed, Removes: true})
			} else {
				addFinding(nt, crdRemoval(), "")
			}
			continue
		}
		if len(changed) == 0 {
			for _, f := range c.compare(ov, nv) {
				addFinding(nt, f, c.removalNote(n, f))
			}
			continue
		}
		// Split the change in two steps, one changing the code and one the
		// gates, through a CRD that one of the trees has elsewhere: the
		// new types with the old gate states, or else the old types with
		// the new gate states.
		if u := counterfactual(c.cur.tuples, n, newGates, ot, nt); u != nil {
			for _, f := range c.compare(ov, u) {
				addFinding(nt, f, c.removalNote(n, f))
			}
			addChange(nt, c.gateChange(changed, u, nv))
			continue
		}
		if v := counterfactual(c.old.tuples, o, o.gates, nt, ot); v != nil {
			for _, f := range c.compare(v, nv) {
				addFinding(nt, f, c.removalNote(n, f))
			}
			addChange(nt, c.gateChange(changed, ov, v))
			continue
		}
		for _, f := range c.compare(ov, nv) {
			pending = append(pending, pendingFinding{nt, f, changed})
		}
	}
	// A finding that a comparison without gate changes also made is a
	// change of the types; the others may be due to the gates as well.
	for _, g := range findings.items {
		codeFindings[findingKey(Difference{Check: g.Check, Version: g.Version, Path: g.Path, Message: g.Message})] = true
	}
	for _, p := range pending {
		if codeFindings[findingKey(p.f)] {
			addFinding(p.t, p.f, c.removalNote(n, p.f))
			continue
		}
		addFinding(p.t, p.f, "the enablement of "+gateNames(p.changed)+" changed here too, and neither tree has a tuple with the gate states to tell the two apart")
	}
	// Tuples that installed the CRD and no longer exist in the payload.
	for _, ot := range c.old.tuples {
		if _, ok := c.cur.byKey[ot.Tuple]; !ok && o.variants[ot.Tuple] != nil {
			addFinding(ot, Difference{Check: CheckCRDRemoval, Path: "^", Message: "the tuple is no longer in the payload", Warning: true}, "")
		}
	}
	rep.Findings = findings.list()
	c.classify(rep, o)
	rep.GateChanges = changes.list()
	if newTuples.Len() > 0 {
		rep.NewTuples = newTuples
	}
	return rep
}

// checkNewVariant compares a variant of a tuple that did not install the
// CRD with nothing, when the comparer judges new CRDs alone; such
// findings carry a note saying so.
func (c *crdComparison) checkNewVariant(t featuregate.TupleGates, nv *variant, o *crdSide, add func(featuregate.TupleGates, Difference, string)) {
	if !c.checkNew {
		return
	}
	if o == nil || len(o.variants) == 0 {
		for _, f := range c.compare(nil, nv) {
			add(t, f, "the CRD is new in these tuples")
		}
		return
	}
	// The old tree installs the CRD in other tuples: a field is new only
	// if none of them had it.
	count := map[string]int{}
	var order []Difference
	seen := map[string]bool{}
	n := 0
	for _, ov := range distinctVariants(o) {
		n++
		for _, f := range c.compare(ov, nv) {
			if !f.NewField {
				continue
			}
			k := findingKey(f)
			if count[k]++; !seen[k] {
				seen[k] = true
				order = append(order, f)
			}
		}
	}
	for _, f := range order {
		if count[findingKey(f)] == n {
			add(t, f, "the CRD is new in these tuples; no tuple of the old tree had the field")
		}
	}
}

// distinctVariants lists a CRD's variants once each, by id.
func distinctVariants(s *crdSide) []*variant {
	byID := map[string]*variant{}
	for _, v := range s.variants {
		byID[v.id] = v
	}
	ids := make([]string, 0, len(byID))
	for id := range byID {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	out := make([]*variant, len(ids))
	for i, id := range ids {
		out[i] = byID[id]
	}
	return out
}

// checkFieldRemoval is crdify's check for removed fields.
var checkFieldRemoval = (&existingfieldremoval.ExistingFieldRemoval{}).Name()

func classRank(c string) int {
	switch c {
	case ClassBreaking:
		return 0
	case ClassAccepted:
		return 1
	case ClassPreview:
		return 2
	case ClassNew:
		return 3
	}
	return 4
}

// compare runs crdify once per pair of variants.
func (c *crdComparison) compare(a, b *variant) []Difference {
	var key [2][sha256.Size]byte
	if a != nil {
		key[0] = a.digest
	}
	key[1] = b.digest
	if fs, ok := c.cache[key]; ok {
		return fs
	}
	var fs []Difference
	if a == nil || a.digest != b.digest {
		var oldCRD *apiextensionsv1.CustomResourceDefinition
		var err error
		if a != nil {
			oldCRD, err = c.load(a)
		}
		newCRD, err2 := c.load(b)
		if err != nil || err2 != nil {
			return nil
		}
		fs = c.comparer.Compare(c.name, c.groupDirs, oldCRD, newCRD)
	}
	c.cache[key] = fs
	return fs
}

// load decodes a variant, keeping the first error.
func (c *crdComparison) load(v *variant) (*apiextensionsv1.CustomResourceDefinition, error) {
	crd, err := v.load()
	if err != nil && c.err == nil {
		c.err = err
	}
	return crd, err
}

// on reports whether a gate is enabled in a tuple; in CustomNoUpgrade
// every gate may be.
func on(t featuregate.TupleGates, gate string) bool {
	return t.Custom() || t.IsEnabled(featuregate.FeatureGateName(gate))
}

// changedGates lists the CRD's gates whose enablement differs between the
// old and the new payload in one tuple.
func changedGates(gates map[string]bool, old, cur featuregate.TupleGates) []GateState {
	var out []GateState
	for _, g := range sortedKeys(gates) {
		if on(old, g) != on(cur, g) {
			out = append(out, GateState{Gate: g, Enabled: on(cur, g)})
		}
	}
	return out
}

// gateNames lists the gates, at most three and a count of the others.
func gateNames(gs []GateState) string {
	var names []string
	for i, g := range gs {
		if i == 3 {
			names = append(names, fmt.Sprintf("%d more", len(gs)-3))
			break
		}
		names = append(names, g.Gate)
	}
	return strings.Join(names, ", ")
}

func findingKey(f Difference) string {
	return strings.Join([]string{f.Check, f.Version, f.Path, f.Message}, "\x00")
}

// counterfactual finds, among the tuples of one tree, the CRD of that tree
// in a tuple whose gates (those the CRD depends on) are set as in want.
// Tuples of the profile, version and feature set of near are preferred,
// in that order.
func counterfactual(tuples []featuregate.TupleGates, c *crdSide, gates map[string]bool, want, near featuregate.TupleGates) *variant {
	var best *variant
	bestScore := 1 << 30
	for _, u := range tuples {
		v := c.variants[u.Tuple]
		if v == nil {
			continue
		}
		match := true
		for g := range gates {
			if on(u, g) != on(want, g) {
				match = false
				break
			}
		}
		if !match {
			continue
		}
		score := 0
		if u.ClusterProfile != near.ClusterProfile {
			score += 4
		}
		if u.Version != near.Version {
			score += 2
		}
		if u.FeatureSet != near.FeatureSet {
			score++
		}
		if score < bestScore {
			best, bestScore = v, score
		}
	}
	return best
}

// gateChange describes what a gate change does to the CRD of a tuple: from
// the CRD with the old gate states to the CRD with the new ones, both of the
// same types.
func (c *crdComparison) gateChange(changed []GateState, u, nv *variant) GateChange {
	gc := GateChange{Gates: changed}
	uf, nf := c.fieldsOf(u), c.fieldsOf(nv)
	gc.AddedFields = outermost(nf, uf)
	gc.RemovedFields = outermost(uf, nf)
	for _, f := range c.compare(u, nv) {
		if f.Removal {
			continue
		}
		gc.Other = append(gc.Other, fmt.Sprintf("%s %s: %s", f.Check, f.Path, f.Message))
	}
	return gc
}

// removalNote tells a field deleted from the types from one that is only
// missing in this tuple, because the new tree still has it elsewhere.
func (c *crdComparison) removalNote(n *crdSide, f Difference) string {
	if !f.Removal {
		return ""
	}
	if c.present == nil {
		c.present = map[string]int{}
		seen := map[string]bool{}
		for _, v := range n.variants {
			if seen[v.id] {
				continue
			}
			seen[v.id] = true
			for p := range c.fieldsOf(v) {
				c.present[p]++
			}
		}
	}
	if c.present[f.Version+" "+f.Path] > 0 {
		return "the field is still in the types but missing here: the FeatureGate it now needs is off in these tuples"
	}
	return "the field is gone from every tuple: deleted from the types"
}

// fieldsOf returns the schema paths of a variant, "version ^.a.b".
func (c *crdComparison) fieldsOf(v *variant) map[string]bool {
	if v.fields != nil {
		return v.fields
	}
	v.fields = map[string]bool{}
	crd, err := c.load(v)
	if err != nil {
		return v.fields
	}
	for _, ver := range crd.Spec.Versions {
		if ver.Schema == nil {
			continue
		}
		validations.SchemaHas(ver.Schema.OpenAPIV3Schema, field.NewPath("^"), field.NewPath("^"), nil,
			func(_ *apiextensionsv1.JSONSchemaProps, _, simple *field.Path, _ []*apiextensionsv1.JSONSchemaProps) bool {
				v.fields[ver.Name+" "+simple.String()] = true
				return false
			})
	}
	return v.fields
}

// outermost lists the paths of a that b lacks, leaving out those whose
// parent is listed too.
func outermost(a, b map[string]bool) []string {
	var diff []string
	for p := range a {
		if !b[p] {
			diff = append(diff, p)
		}
	}
	sort.Strings(diff)
	var out []string
	for _, p := range diff {
		if len(out) > 0 && strings.HasPrefix(p, out[len(out)-1]+".") || len(out) > 0 && strings.HasPrefix(p, out[len(out)-1]+"[") {
			continue
		}
		out = append(out, p)
	}
	return out
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// classify marks, with Options.Preview, the breaking findings about a
// CRD or a version that no upgradeable tuple (a feature set not ending in
// NoUpgrade: Default, OKD) installs as preview findings, then sorts the
// findings by class. The side given is the old tree's (the new tree's for
// a new CRD): objects stored before the change exist only where it
// installed the CRD, and a cluster of a NoUpgrade feature set cannot
// upgrade, so such a change breaks no object an upgrade carries along.
func (c *crdComparison) classify(rep *CRDReport, sides ...*crdSide) {
	var upgradeable map[string]bool // version names; nil until needed
	for _, f := range rep.Findings {
		if f.Class != ClassBreaking || !c.preview {
			continue
		}
		if upgradeable == nil {
			upgradeable = c.upgradeableVersions(sides...)
		}
		if len(upgradeable) == 0 || f.Version != "" && !anyVersion(upgradeable, f.Version) {
			f.Class = ClassPreview
		}
	}
	sort.SliceStable(rep.Findings, func(i, j int) bool { return classRank(rep.Findings[i].Class) < classRank(rep.Findings[j].Class) })
}

// anyVersion reports whether a finding's version ("v1", or "v1 -> v2" for
// a served-version pair) names a version of the set.
func anyVersion(set map[string]bool, version string) bool {
	for _, v := range strings.Split(version, " -> ") {
		if set[v] {
			return true
		}
	}
	return false
}

// upgradeableVersions lists the versions the CRD has in the upgradeable
// tuples of the given sides (nil sides are skipped).
func (c *crdComparison) upgradeableVersions(sides ...*crdSide) map[string]bool {
	out := map[string]bool{}
	for _, s := range sides {
		if s == nil {
			continue
		}
		seen := map[string]bool{}
		for t, v := range s.variants {
			if !Upgradeable(string(t.FeatureSet)) || seen[v.id] {
				continue
			}
			seen[v.id] = true
			crd, err := c.load(v)
			if err != nil {
				continue
			}
			for _, ver := range crd.Spec.Versions {
				out[ver.Name] = true
			}
		}
	}
	return out
}

// Upgradeable reports whether clusters of a feature set can upgrade: all
// but the NoUpgrade ones (TechPreviewNoUpgrade, DevPreviewNoUpgrade,
// CustomNoUpgrade).
func Upgradeable(featureSet string) bool { return !strings.HasSuffix(featureSet, "NoUpgrade") }

// alignEras lets a tree of a pre-version payload, whose tuples all have
// version 0 (one per profile and feature set, whatever the major
// version), be compared with a tree whose payload has major versions: each
// version-0 tuple then stands for its profile and feature set at every
// major version of the other tree. Without it no tuple would be in both
// trees and nothing would be compared.
func alignEras(a, b *side) {
	switch {
	case versionless(a) && !versionless(b):
		a.expand(versionsOf(b))
	case versionless(b) && !versionless(a):
		b.expand(versionsOf(a))
	}
}

func versionless(s *side) bool {
	for _, t := range s.tuples {
		if t.Version != 0 {
			return false
		}
	}
	return len(s.tuples) > 0
}

func versionsOf(s *side) []int {
	seen := map[int]bool{}
	var out []int
	for _, t := range s.tuples {
		if !seen[t.Version] {
			seen[t.Version] = true
			out = append(out, t.Version)
		}
	}
	sort.Ints(out)
	return out
}

// expand replaces each version-0 tuple of s by one per version.
func (s *side) expand(versions []int) {
	var tuples []featuregate.TupleGates
	byKey := map[featuregate.Tuple]featuregate.TupleGates{}
	for _, t := range s.tuples {
		for _, v := range versions {
			u := t
			u.Version = v
			tuples = append(tuples, u)
			byKey[u.Tuple] = u
		}
	}
	s.tuples, s.byKey = tuples, byKey
	for _, c := range s.crds {
		variants := make(map[featuregate.Tuple]*variant, len(c.variants)*len(versions))
		for k, v := range c.variants {
			for _, ver := range versions {
				k.Version = ver
				variants[k] = v
			}
		}
		c.variants = variants
	}
}
