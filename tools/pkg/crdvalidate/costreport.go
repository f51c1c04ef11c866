package crdvalidate

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// costReport merges the costs of every file by CRD and keeps the top ones.
func (in Input) costReport(results []checked) []CRDCosts {
	byCRD := map[string]*CRDCosts{}
	tops := map[string][]*FileRuleCost{}
	seen := map[string]*FileRuleCost{}
	for _, c := range results {
		if c.err != nil {
			continue
		}
		name, group, kind := identity(c.obj)
		rep := byCRD[name]
		if rep == nil {
			rep = &CRDCosts{Name: name}
			byCRD[name] = rep
		}
		rep.Total = max(rep.Total, c.total)
		for _, rc := range c.costs {
			k := strings.Join([]string{name, rc.Version, rc.Path, rc.Rule, fmt.Sprint(rc.Cost)}, "\x00")
			if have := seen[k]; have != nil {
				have.Files = append(have.Files, filepath.Base(c.path))
				continue
			}
			frc := &FileRuleCost{RuleCost: rc, Files: []string{filepath.Base(c.path)}}
			rule := ""
			if strings.HasSuffix(rc.Path, ".rule") {
				rule = rc.Rule
			}
			first, _, _ := strings.Cut(rc.Version, ",")
			frc.Origin, _ = in.Sources.Locate(group, first, kind, rc.Path, rule)
			seen[k] = frc
			tops[name] = append(tops[name], frc)
		}
	}
	var out []CRDCosts
	for name, rep := range byCRD {
		top := tops[name]
		sort.SliceStable(top, func(i, j int) bool {
			a, b := top[i], top[j]
			if a.Cost != b.Cost {
				return a.Cost > b.Cost
			}
			return a.Path < b.Path
		})
		for _, t := range top[:min(len(top), in.CostTop)] {
			rep.Top = append(rep.Top, *t)
		}
		out = append(out, *rep)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// identity returns the name, group and kind of a CRD manifest.
func identity(obj map[string]any) (name, group, kind string) {
	meta, _ := obj["metadata"].(map[string]any)
	spec, _ := obj["spec"].(map[string]any)
	names, _ := spec["names"].(map[string]any)
	name, _ = meta["name"].(string)
	group, _ = spec["group"].(string)
	kind, _ = names["kind"].(string)
	return name, group, kind
}

// FormatCosts renders cost reports for the terminal.
func FormatCosts(reports []CRDCosts, base string) string {
	var b strings.Builder
	for _, r := range reports {
		fmt.Fprintf(&b, "CEL cost of %s: total %d (%s of the %d per-CRD budget)\n", r.Name, r.Total, percent(r.Total, CRDBudget), uint64(CRDBudget))
		for i, rc := range r.Top {
			sp := parseSchemaPath(rc.Path)
			fmt.Fprintf(&b, "  %d. %s %s %s: cost %d (%s of the per-rule budget, %s of the per-CRD budget)", i+1, rc.Version, sp.dataPath(), sp.keyword, rc.Cost, percent(rc.Cost, RuleBudget), percent(rc.Cost, CRDBudget))
			if rc.Origin.File != "" {
				fmt.Fprintf(&b, " at %s", diag.Position{File: tree.Rel(base, rc.Origin.File), Line: rc.Origin.Line})
			}
			fmt.Fprintf(&b, "\n     %s\n     in %s\n", rc.Rule, strings.Join(rc.Files, ", "))
		}
	}
	return b.String()
}

func percent(cost uint64, budget uint64) string {
	return fmt.Sprintf("%.2f%%", float64(cost)*100/float64(budget))
}
