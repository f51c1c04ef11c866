package admission

import (
	"fmt"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Finding is one error the API server reports for a CRD manifest.
type Finding struct {
	// Path is the field path the server names, e.g.
	// spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule.
	Path string
	// Message is the error type, the rejected value when it is a scalar,
	// and the detail, e.g. "Invalid value: compilation failed: ...".
	Message string
	// OnCreate and OnUpdate say which requests the server rejects with it:
	// creating the CRD, and replacing the previously committed manifest
	// with it (only checked when there is one).
	OnCreate, OnUpdate bool
}

// Verdict is the outcome of validating one manifest.
type Verdict struct {
	Findings []Finding
	// Upgrade is true when the manifest was also validated as an update of
	// a previous one.
	Upgrade bool
}

// Check validates the CRD manifest data (apiextensions.k8s.io/v1, YAML or
// JSON) as the API server does on creation: defaulting, conversion to the
// internal version, the registry's preparation, then
// validation.ValidateCustomResourceDefinition. When previous is not nil it
// is the manifest the CRD replaces, and data is also validated as that
// update (ValidateCustomResourceDefinitionUpdate: unchanged expressions
// compile in the stored-expressions environment, unchanged schemas are
// exempt from the per-rule cost limit). The error is for a manifest the
// server cannot even decode.
func Check(data, previous []byte) (*Verdict, error) {
	s := newServer()
	crd, err := s.decode(data)
	if err != nil {
		return nil, err
	}
	v := &Verdict{}
	byKey := map[string]int{}
	add := func(errs field.ErrorList, mark func(*Finding)) {
		for _, e := range errs {
			msg := Message(e)
			k := e.Field + "\x00" + msg
			i, seen := byKey[k]
			if !seen {
				i = len(v.Findings)
				byKey[k] = i
				v.Findings = append(v.Findings, Finding{Path: e.Field, Message: msg})
			}
			mark(&v.Findings[i])
		}
	}
	if previous == nil {
		add(s.create(crd), func(f *Finding) { f.OnCreate = true })
		v.stableContributors(data)
		return v.Sorted(), nil
	}
	old, err := s.decode(previous)
	if err != nil {
		return nil, fmt.Errorf("previous version: %w", err)
	}
	updated, err := s.decode(data)
	if err != nil {
		return nil, err
	}
	v.Upgrade = true
	add(s.create(crd), func(f *Finding) { f.OnCreate = true })
	add(s.update(updated, old), func(f *Finding) { f.OnUpdate = true })
	v.stableContributors(data)
	return v.Sorted(), nil
}

// Message renders an error like the server does, but shows the rejected
// value only when it is a scalar: for a rule it is the whole rule struct,
// which the source position shows better.
func Message(e *field.Error) string {
	e.Detail = strings.TrimSpace(e.Detail)
	switch e.BadValue.(type) {
	case string, bool, int, int32, int64, float64:
		return e.ErrorBody()
	}
	msg := e.Type.String()
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	return msg
}

// Sorted orders the findings by path, keeping the order of equal paths.
func (v *Verdict) Sorted() *Verdict {
	sort.SliceStable(v.Findings, func(i, j int) bool { return v.Findings[i].Path < v.Findings[j].Path })
	return v
}

// The server's messages about the per-schema cost total.
const (
	totalCostMessage   = "estimated rule cost total for entire OpenAPIv3 schema"
	contributorMessage = "Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema"
	// mostExpensiveKept is how many contributors the server names (its
	// TotalCost keeps the 4 most expensive).
	mostExpensiveKept = 4
)

// stableContributors replaces the server's "contributed to estimated rule
// cost total" findings by a deterministic list. The server names the 4
// most expensive expressions of a schema over the total budget, but picks
// among expressions of equal cost in the order it iterates the schema's
// property maps, which is random: on a real tree the same CRD yielded
// different findings from run to run. Here every expression at least as
// expensive as the 4th is named (ties included), with the costs from
// Costs (the server's own estimator); like the server, only expressions of
// at least 1% of the budget count.
func (v *Verdict) stableContributors(data []byte) {
	totals := map[string]Finding{} // schema root -> its total finding
	kept := v.Findings[:0]
	for _, f := range v.Findings {
		switch {
		case f.Message == contributorMessage:
			continue
		case strings.Contains(f.Message, totalCostMessage):
			totals[f.Path] = f
		}
		kept = append(kept, f)
	}
	v.Findings = kept
	if len(totals) == 0 {
		return
	}
	costs, _, err := Costs(data)
	if err != nil {
		return
	}
	for root, total := range totals {
		var mine []RuleCost // most expensive first
		for _, c := range costs {
			if strings.HasPrefix(c.Path, root+".") && c.Cost >= CRDBudget/100 {
				mine = append(mine, c)
			}
		}
		for i, c := range mine {
			if i >= mostExpensiveKept && c.Cost < mine[mostExpensiveKept-1].Cost {
				break
			}
			v.Findings = append(v.Findings, Finding{Path: c.Path, Message: contributorMessage, OnCreate: total.OnCreate, OnUpdate: total.OnUpdate})
		}
	}
}
