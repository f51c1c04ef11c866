package compat

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/gatedcrd/gatedcrd/internal/diag"
)

// Classes of findings.
const (
	// ClassBreaking fails the run.
	ClassBreaking = "breaking"
	// ClassAccepted is a breaking finding accepted in .codegen.yaml.
	ClassAccepted = "accepted"
	// ClassWarning is reported but does not fail the run.
	ClassWarning = "warning"
	// ClassPreview is a breaking finding about a CRD or version that only
	// feature sets which cannot upgrade (TechPreviewNoUpgrade,
	// DevPreviewNoUpgrade, CustomNoUpgrade) install: reported, not failing.
	ClassPreview = "preview"
	// ClassNew is a finding about a CRD or version new in the tuples it
	// names (a served-version pair with a new version): reported, not
	// failing.
	ClassNew = "new"
)

// Report is the outcome of a comparison.
type Report struct {
	// Tool names the command in the summary line; "" is compat.
	Tool string       `json:"-"`
	Old  string       `json:"old"`
	New  string       `json:"new"`
	CRDs []*CRDReport `json:"crds"`
	// Stale are accepted findings in .codegen.yaml that match no finding.
	Stale []StaleAcceptance `json:"staleAcceptances,omitempty"`
	// Summary counts distinct findings per check and class.
	Summary Summary `json:"summary"`
}

// Summary counts what a report holds.
type Summary struct {
	CRDsCompared int `json:"crdsCompared"`
	NewCRDs      int `json:"newCRDs"`
	Breaking     int `json:"breaking"`
	Accepted     int `json:"accepted"`
	Warnings     int `json:"warnings"`
	Preview      int `json:"preview,omitempty"`
	New          int `json:"new,omitempty"`
	GateChanges  int `json:"gateChanges"`
	// PerCheck maps a check name to its distinct findings per class.
	PerCheck map[string]map[string]int `json:"perCheck"`
}

// CRDReport is what changed for one CRD.
type CRDReport struct {
	Name string `json:"name"`
	// New is set when the old tree has no such CRD; it is not compared.
	New         bool          `json:"new,omitempty"`
	Findings    []*Finding    `json:"findings,omitempty"`
	GateChanges []*GateChange `json:"gateChanges,omitempty"`
	// NewTuples are tuples that install the CRD now and did not before,
	// without a gate change explaining it.
	NewTuples *TupleSet `json:"newTuples,omitempty"`
}

// Finding is one difference found by a check, with every tuple where it
// was found.
type Finding struct {
	Class   string `json:"class"`
	Check   string `json:"check"`
	Version string `json:"version,omitempty"`
	Path    string `json:"path"`
	Message string `json:"message"`
	// Note explains the finding further, e.g. that a removed field is still
	// in the types but behind a FeatureGate that is off in these tuples.
	Note string `json:"note,omitempty"`
	// Reason is the reason given in .codegen.yaml for an accepted finding.
	Reason string    `json:"reason,omitempty"`
	Tuples *TupleSet `json:"tuples"`
}

// GateState is a gate whose enablement changed in a tuple.
type GateState struct {
	Gate    string `json:"gate"`
	Enabled bool   `json:"enabled"`
}

// GateChange is a difference explained by FeatureGates whose enablement
// changed between the payloads of the two trees: not breaking.
type GateChange struct {
	Gates []GateState `json:"gates"`
	// Installs or Removes is set when the tuple gains or loses the CRD.
	Installs bool `json:"installs,omitempty"`
	Removes  bool `json:"removes,omitempty"`
	// AddedFields and RemovedFields are schema paths ("v1 ^.spec.x"),
	// outermost only.
	AddedFields   []string `json:"addedFields,omitempty"`
	RemovedFields []string `json:"removedFields,omitempty"`
	// Other are further check messages the gate change explains.
	Other  []string  `json:"other,omitempty"`
	Tuples *TupleSet `json:"tuples"`
}

// StaleAcceptance is an accepted finding that matched nothing.
type StaleAcceptance struct {
	File  string `json:"file"`
	Line  int    `json:"line"`
	CRD   string `json:"crd"`
	Check string `json:"check"`
	Path  string `json:"path"`
}

func (s StaleAcceptance) String() string {
	return diag.Errorf(s.File, s.Line, "compat.accepted", "%s %s %s matches no finding; remove the entry", s.CRD, s.Check, s.Path).String()
}

// Breaking reports whether the report has a breaking finding.
func (r *Report) Breaking() bool { return r.Summary.Breaking > 0 }

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

// WriteText writes the report for people: per CRD, breaking findings
// first, each with the tuples it affects, then a summary line.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	for _, c := range r.CRDs {
		if !c.New && len(c.Findings) == 0 && len(c.GateChanges) == 0 && c.NewTuples == nil {
			continue
		}
		fmt.Fprintf(&b, "%s\n", c.Name)
		if c.New {
			fmt.Fprintf(&b, "  new CRD (not in %s): %s\n", r.Old, c.NewTuples)
		}
		for _, f := range c.Findings {
			where := f.Path
			if f.Version != "" {
				where = f.Version + " " + f.Path
			}
			fmt.Fprintf(&b, "  %-9s %s %s: %s\n", strings.ToUpper(f.Class), f.Check, where, f.Message)
			if f.Note != "" {
				fmt.Fprintf(&b, "            %s\n", f.Note)
			}
			if f.Reason != "" {
				fmt.Fprintf(&b, "            accepted: %s\n", f.Reason)
			}
			fmt.Fprintf(&b, "            in %s\n", f.Tuples)
		}
		for _, g := range c.GateChanges {
			fmt.Fprintf(&b, "  GATE      %s: %s\n", gateText(g.Gates), effectText(g))
			fmt.Fprintf(&b, "            in %s\n", g.Tuples)
		}
		if c.NewTuples != nil && !c.New {
			fmt.Fprintf(&b, "  NEW       now installed in %s\n", c.NewTuples)
		}
	}
	for _, s := range r.Stale {
		fmt.Fprintf(&b, "warning: %s\n", s)
	}
	sm := r.Summary
	tool := r.Tool
	if tool == "" {
		tool = "compat"
	}
	var extra string
	if sm.Preview+sm.New > 0 {
		extra = fmt.Sprintf(", %d preview-only, %d about new CRDs or versions", sm.Preview, sm.New)
	}
	fmt.Fprintf(&b, "%s: %s → %s: %d CRD(s) compared, %d new; %d breaking, %d accepted, %d warning(s)%s, %d gate change(s), %d stale acceptance(s)\n",
		tool, r.Old, r.New, sm.CRDsCompared, sm.NewCRDs, sm.Breaking, sm.Accepted, sm.Warnings, extra, sm.GateChanges, len(r.Stale))
	_, err := io.WriteString(w, b.String())
	return err
}

func gateText(gs []GateState) string {
	var parts []string
	for _, g := range gs {
		state := "disabled"
		if g.Enabled {
			state = "enabled"
		}
		parts = append(parts, g.Gate+" now "+state)
	}
	return strings.Join(parts, ", ")
}

func effectText(g *GateChange) string {
	var parts []string
	if g.Installs {
		parts = append(parts, "installs the CRD")
	}
	if g.Removes {
		parts = append(parts, "no longer installs the CRD")
	}
	if len(g.AddedFields) > 0 {
		parts = append(parts, "adds "+strings.Join(g.AddedFields, ", "))
	}
	if len(g.RemovedFields) > 0 {
		parts = append(parts, "removes "+strings.Join(g.RemovedFields, ", "))
	}
	parts = append(parts, g.Other...)
	if len(parts) == 0 {
		return "no schema change"
	}
	return strings.Join(parts, "; ")
}

// summarize fills r.Summary and sorts everything.
func (r *Report) summarize() {
	sort.Slice(r.CRDs, func(i, j int) bool { return r.CRDs[i].Name < r.CRDs[j].Name })
	sm := Summary{PerCheck: map[string]map[string]int{}}
	for _, c := range r.CRDs {
		if c.New {
			sm.NewCRDs++
		} else {
			sm.CRDsCompared++
		}
		sm.GateChanges += len(c.GateChanges)
		for _, f := range c.Findings {
			if sm.PerCheck[f.Check] == nil {
				sm.PerCheck[f.Check] = map[string]int{}
			}
			sm.PerCheck[f.Check][f.Class]++
			switch f.Class {
			case ClassBreaking:
				sm.Breaking++
			case ClassAccepted:
				sm.Accepted++
			case ClassWarning:
				sm.Warnings++
			case ClassPreview:
				sm.Preview++
			case ClassNew:
				sm.New++
			}
		}
	}
	r.Summary = sm
}
