package compat

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"path/filepath"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/internal/suggest"
	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// Acceptance is an accepted finding from a group's .codegen.yaml
// (compat.accepted): findings of Check at Path of CRD become accepted
// instead of breaking.
type Acceptance struct {
	File             string
	Line             int
	CRD, Check, Path string
	Reason           string
}

// position is where the acceptance is written, which identifies it.
func (a Acceptance) position() diag.Position { return diag.Position{File: a.File, Line: a.Line} }

// applyAcceptances marks the findings that .codegen.yaml accepts, checks
// the accepted check names and lists the acceptances that matched nothing.
// Each CRD consults the configuration of the group directories holding its
// files in the new tree (the old tree's for a CRD the new tree lacks).
func applyAcceptances(rep *Report, old, cur *side, load func(string) ([]Acceptance, error)) error {
	if load == nil {
		return nil
	}
	known := KnownChecks()
	byDir := map[string][]Acceptance{}
	used := map[diag.Position]bool{}
	var errs []string
	loadDir := func(dir string) []Acceptance {
		if as, ok := byDir[dir]; ok {
			return as
		}
		as, err := load(dir)
		if err != nil {
			errs = append(errs, err.Error())
		}
		for _, a := range as {
			if !slices.Contains(known, a.Check) {
				errs = append(errs, diag.Errorf(a.File, a.Line, "compat.accepted.check", "%q is not a check of codegen compat%s", a.Check, closest(a.Check, known)).Error())
			}
		}
		byDir[dir] = as
		return as
	}
	for _, c := range rep.CRDs {
		if c.New {
			continue
		}
		cs := cur.crds[c.Name]
		if cs == nil {
			cs = old.crds[c.Name]
		}
		var accepted []Acceptance
		for _, dir := range sortedKeys(cs.groupDirs) {
			accepted = append(accepted, loadDir(dir)...)
		}
		for _, f := range c.Findings {
			if f.Class == ClassWarning {
				continue
			}
			for _, a := range accepted {
				if a.CRD == c.Name && a.Check == f.Check && a.Path == f.Path {
					f.Class, f.Reason = ClassAccepted, a.Reason
					used[a.position()] = true
				}
			}
		}
		sort.SliceStable(c.Findings, func(i, j int) bool { return classRank(c.Findings[i].Class) < classRank(c.Findings[j].Class) })
	}
	// Entries of every group directory of the new tree count, also those
	// naming CRDs that no longer exist.
	for _, cs := range cur.crds {
		for dir := range cs.groupDirs {
			loadDir(dir)
		}
	}
	if len(errs) > 0 {
		sort.Strings(errs)
		return fmt.Errorf("%s", strings.Join(slices.Compact(errs), "\n"))
	}
	for _, dir := range sortedKeys(boolKeys(byDir)) {
		for _, a := range byDir[dir] {
			if !used[a.position()] {
				rep.Stale = append(rep.Stale, StaleAcceptance{File: a.File, Line: a.Line, CRD: a.CRD, Check: a.Check, Path: a.Path})
			}
		}
	}
	return nil
}

func boolKeys[V any](m map[string]V) map[string]bool {
	out := make(map[string]bool, len(m))
	for k := range m {
		out[k] = true
	}
	return out
}

// closest suggests the nearest known check name.
func closest(name string, known []string) string {
	best, bestD := "", 4
	for _, k := range known {
		if d := suggest.Distance(strings.ToLower(name), strings.ToLower(k)); d < bestD {
			best, bestD = k, d
		}
	}
	if best == "" {
		return "; known checks: " + strings.Join(known, ", ")
	}
	return "; did you mean " + best + "?"
}

// CodegenYAMLAcceptances reads compat.accepted from the .codegen.yaml of a
// group directory (slash path relative to root), naming the file relative
// to root.
func CodegenYAMLAcceptances(root string) func(groupDir string) ([]Acceptance, error) {
	return func(groupDir string) ([]Acceptance, error) {
		cfg, file, err := discovery.LoadConfig(filepath.Join(root, filepath.FromSlash(groupDir)))
		if err != nil {
			return nil, err
		}
		var out []Acceptance
		for _, a := range cfg.Compat.Accepted {
			out = append(out, Acceptance{File: tree.Rel(root, file), Line: a.Line, CRD: a.CRD, Check: a.Check, Path: a.Path, Reason: a.Reason})
		}
		return out, nil
	}
}
