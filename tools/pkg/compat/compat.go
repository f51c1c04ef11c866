package compat

import (
	"crypto/sha256"
	"fmt"
	"sort"
	"strings"
	"sync"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/crdify/pkg/runner"
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
		old, oldErr = readSide(opts.Old, opts.PayloadDir, cache)
	}()
	cur, newErr = readSide(opts.New, opts.PayloadDir, cache)
	wg.Wait()
	if oldErr != nil {
		return nil, oldErr
	}
	if newErr != nil {
		return nil, newErr
	}
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

	rep := &Report{Old: opts.Old.Describe(), New: opts.New.Describe(), CRDs: make([]*CRDReport, len(sorted))}
	var runErr error
	var once sync.Once
	// Each goroutine compares with a crdify runner of its own.
	workers.EachWith(len(sorted), func() *runner.Runner {
		r, err := newRunner()
		if err != nil {
			once.Do(func() { runErr = fmt.Errorf("configuring crdify: %w", err) })
		}
		return r
	}, func(r *runner.Runner, i int) {
		if r == nil {
			return
		}
		c := &crdComparison{old: old, cur: cur, runner: r, cache: map[[2][sha256.Size]byte][]rawFinding{}}
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
	runner   *runner.Runner
	// cache holds the findings per (old variant, new variant) content.
	cache map[[2][sha256.Size]byte][]rawFinding
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
	if o == nil {
		rep.New = true
		rep.NewTuples = newTupleSet(len(c.cur.tuples))
		for _, t := range c.cur.tuples {
			if n.variants[t.Tuple] != nil {
				rep.NewTuples.add(t)
			}
		}
		return rep
	}
	// The gates each tree's manifests depend on: only those can change
	// that tree's CRD.
	newGates, gates := map[string]bool{}, map[string]bool{}
	if n != nil {
		newGates = n.gates
	}
	for g := range o.gates {
		gates[g] = true
	}
	for g := range newGates {
		gates[g] = true
	}
	var findings group[*Finding]
	var changes group[*GateChange]
	newTuples := newTupleSet(len(c.cur.tuples))
	type pendingFinding struct {
		t       featuregate.TupleGates
		f       rawFinding
		changed []GateState
	}
	var pending []pendingFinding
	codeFindings := map[string]bool{}
	addFinding := func(t featuregate.TupleGates, f rawFinding, note string) {
		class := ClassBreaking
		if f.Warning {
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
		codeFindings[findingKey(rawFinding{Check: g.Check, Version: g.Version, Path: g.Path, Message: g.Message})] = true
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
			addFinding(ot, rawFinding{Check: CheckCRDRemoval, Path: "^", Message: "the tuple is no longer in the payload", Warning: true}, "")
		}
	}
	rep.Findings = findings.list()
	sort.SliceStable(rep.Findings, func(i, j int) bool { return classRank(rep.Findings[i].Class) < classRank(rep.Findings[j].Class) })
	rep.GateChanges = changes.list()
	if newTuples.Len() > 0 {
		rep.NewTuples = newTuples
	}
	return rep
}

// checkFieldRemoval is crdify's check for removed fields.
var checkFieldRemoval = (&existingfieldremoval.ExistingFieldRemoval{}).Name()

func classRank(c string) int {
	switch c {
	case ClassBreaking:
		return 0
	case ClassAccepted:
		return 1
	}
	return 2
}

// compare runs crdify once per pair of variants.
func (c *crdComparison) compare(a, b *variant) []rawFinding {
	key := [2][sha256.Size]byte{a.digest, b.digest}
	if fs, ok := c.cache[key]; ok {
		return fs
	}
	var fs []rawFinding
	if a.digest != b.digest {
		oldCRD, err := c.load(a)
		newCRD, err2 := c.load(b)
		if err != nil || err2 != nil {
			return nil
		}
		fs = compare(c.runner, oldCRD, newCRD)
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

func findingKey(f rawFinding) string {
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
		if f.Check == checkFieldRemoval {
			continue
		}
		gc.Other = append(gc.Other, fmt.Sprintf("%s %s: %s", f.Check, f.Path, f.Message))
	}
	return gc
}

// removalNote tells a field deleted from the types from one that is only
// missing in this tuple, because the new tree still has it elsewhere.
func (c *crdComparison) removalNote(n *crdSide, f rawFinding) string {
	if f.Check != checkFieldRemoval {
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
