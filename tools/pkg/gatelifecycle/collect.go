package gatelifecycle

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
	"github.com/gatedcrd/gatedcrd/tools/pkg/markerdefs"
	"github.com/gatedcrd/gatedcrd/tools/pkg/partialschemas"
)

// What is the kind of schema change a gate makes.
type What string

const (
	// WholeCRD: the root type is gated, the CRD exists only with the gate.
	WholeCRD What = "whole CRD"
	// Field: a property that exists only with the gate.
	Field What = "field"
	// Enum: enum values the gate adds or drops.
	Enum What = "enum"
	// Rule: a CEL rule (x-kubernetes-validations) the gate adds.
	Rule What = "CEL rule"
	// MaxItems: a list limit the gate sets.
	MaxItems What = "list limit"
)

// Change is one thing a gate controls.
type Change struct {
	// CRD is the CRD name; Group, Version and Kind its API coordinates.
	CRD, Group, Version, Kind string
	// Path is the JSON path of the schema node (".spec.items[*].name"),
	// "" for a whole CRD.
	Path   string
	What   What
	Detail string
	// With lists the other gates the change also needs (a
	// requiredFeatureGate combination), sorted.
	With []string
	// File (slash-separated, relative to the base directory) and Line
	// locate the marker; Line is 0 when it could not be found.
	File string
	Line int
}

// LocateFunc finds the marker called name whose value satisfies match on
// the schema node at the server field path of a CRD version
// (spec.versions[0].schema.openAPIV3Schema.properties[spec]...), or on its
// type. file is absolute; ok is false when there is none.
type LocateFunc func(group, version, kind, path, name string, match func(any) bool) (file string, line int, ok bool)

// Input is what Collect reads.
type Input struct {
	// BaseDir is the absolute base directory; File of a Change is relative
	// to it.
	BaseDir string
	// CRDs are stage 1's CRDs with their partial manifests.
	CRDs []*partialschemas.CRD
	// Files reads the partial manifests as stage 2 filled them: those
	// stage 2 handed over in the same process as they are, any other
	// through the run's tree.
	Files *manifest.Reader
	// Locate finds markers; nil leaves only the type declaration's
	// position for whole CRDs and no position otherwise.
	Locate LocateFunc
}

// Collect returns, per gate name, every change its markers make, sorted.
func Collect(in Input) (map[string][]Change, error) {
	out := map[string][]Change{}
	for _, crd := range in.CRDs {
		if crd.Failed {
			continue
		}
		if err := in.collectCRD(crd, out); err != nil {
			return nil, err
		}
	}
	for _, changes := range out {
		sortChanges(changes)
	}
	return out, nil
}

// found is a change before it is attributed to gates and located.
type found struct {
	path, serverPath string
	what             What
	detail           string
	// marker names the marker that makes the change; rule is the CEL rule
	// text for Rule.
	marker, rule string
}

func (f found) key() string { return string(f.what) + "\x00" + f.path + "\x00" + f.detail }

func (in Input) collectCRD(crd *partialschemas.CRD, out map[string][]Change) error {
	manifests := slices.Clone(crd.Manifests)
	// Single gates before combinations: a combination only counts what its
	// gates do not bring alone.
	sort.SliceStable(manifests, func(i, j int) bool { return len(manifests[i].GateNames) < len(manifests[j].GateNames) })
	var ungated map[string]any
	single := map[string]map[string]bool{}
	for _, m := range manifests {
		schema, err := in.schema(m.Path)
		if err != nil {
			return err
		}
		if m.Entry == markerdefs.Ungated {
			ungated = schema
			continue
		}
		var changes []found
		if len(crd.TopLevelGates) > 0 || ungated == nil {
			changes = []found{{what: WholeCRD, detail: "exists only with the gate", marker: markerdefs.EnableFeatureGateName}}
		} else {
			diffSchema(ungated, schema, "", "", &changes)
		}
		if len(m.GateNames) == 1 {
			keys := map[string]bool{}
			for _, c := range changes {
				keys[c.key()] = true
			}
			single[m.GateNames[0]] = keys
		} else {
			changes = slices.DeleteFunc(changes, func(c found) bool {
				for _, g := range m.GateNames {
					if single[g][c.key()] {
						return true
					}
				}
				return false
			})
		}
		for _, gate := range m.GateNames {
			for _, c := range changes {
				out[gate] = append(out[gate], in.change(crd, gate, m.GateNames, c))
			}
		}
	}
	return nil
}

const rootPath = "spec.versions[0].schema.openAPIV3Schema"

// schema reads the openAPIV3Schema of a partial manifest's only version.
func (in Input) schema(path string) (map[string]any, error) {
	f, err := in.Files.Read(path)
	if err != nil {
		return nil, err
	}
	if f.ParseErr != nil {
		return nil, fmt.Errorf("%s: %w", path, f.ParseErr)
	}
	spec, _ := f.Object["spec"].(map[string]any)
	versions, _ := spec["versions"].([]any)
	if len(versions) == 0 {
		return map[string]any{}, nil
	}
	v, _ := versions[0].(map[string]any)
	s, _ := v["schema"].(map[string]any)
	root, _ := s["openAPIV3Schema"].(map[string]any)
	if root == nil {
		root = map[string]any{}
	}
	return root, nil
}

// change attributes f to gate, with the entry's other gates, and locates
// its marker.
func (in Input) change(crd *partialschemas.CRD, gate string, entry []string, f found) Change {
	c := Change{CRD: crd.Name, Group: crd.Group, Version: crd.Version, Kind: crd.Kind, Path: f.path, What: f.what, Detail: f.detail}
	for _, g := range entry {
		if g != gate {
			c.With = append(c.With, g)
		}
	}
	sort.Strings(c.With)
	if in.Locate != nil {
		serverPath := rootPath + f.serverPath
		if file, line, ok := in.Locate(crd.Group, crd.Version, crd.Kind, serverPath, f.marker, matcher(gate, entry, f)); ok {
			c.File, c.Line = in.rel(file), line
		}
	}
	if c.Line == 0 && f.what == WholeCRD {
		c.File, c.Line = filepath.ToSlash(crd.File), crd.Line
	}
	return c
}

func (in Input) rel(file string) string {
	if r, err := filepath.Rel(in.BaseDir, file); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return filepath.ToSlash(file)
}

// matcher selects the marker value behind f: the field or type gate
// naming gate, or the FeatureGate-aware marker active for the entry's
// gates (with the rule text of a CEL rule).
func matcher(gate string, entry []string, f found) func(any) bool {
	gates := markerdefs.NewGateSet(entry...)
	return func(v any) bool {
		switch m := v.(type) {
		case markerdefs.EnableFeatureGate:
			return slices.Contains(m, gate)
		case markerdefs.GateAwareXValidation:
			return m.Rule == f.rule && m.GateCondition().Active(gates)
		case markerdefs.GateAware:
			return m.GateCondition().Active(gates)
		}
		return false
	}
}

func sortChanges(changes []Change) {
	sort.SliceStable(changes, func(i, j int) bool {
		a, b := changes[i], changes[j]
		for _, d := range [][2]string{{a.CRD, b.CRD}, {a.Version, b.Version}, {a.Path, b.Path}, {string(a.What), string(b.What)},
			{a.Detail, b.Detail}, {strings.Join(a.With, "+"), strings.Join(b.With, "+")}} {
			if d[0] != d[1] {
				return d[0] < d[1]
			}
		}
		return false
	})
}
