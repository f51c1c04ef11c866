package markerdefs

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Ungated is the gate name of the ungated partial manifest: its annotation
// is the bare "feature-gate.release.openshift.io/" prefix.
const Ungated = ""

// GateSet is the set of gates a schema is generated for. The ungated
// manifest's set holds only Ungated.
type GateSet map[string]bool

// NewGateSet returns a set holding names.
func NewGateSet(names ...string) GateSet {
	s := GateSet{}
	for _, n := range names {
		s[n] = true
	}
	return s
}

// Sorted returns the names in byte order.
func (s GateSet) Sorted() []string {
	out := make([]string, 0, len(s))
	for n := range s {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Key renders the set as a stable string, usable as a map key. The empty
// set and the ungated set {""} have different keys.
func (s GateSet) Key() string {
	return strconv.Itoa(len(s)) + ":" + strings.Join(s.Sorted(), "+")
}

// Condition is the gate part shared by the three FeatureGate-aware markers.
type Condition struct {
	// FeatureGate: active when any of these gates is on ("" = ungated).
	FeatureGate []string
	// RequiredFeatureGate: active only when all of these gates are on.
	RequiredFeatureGate []string
}

// Active reports whether the condition holds for the gate set s: s contains
// at least one gate of FeatureGate ∪ RequiredFeatureGate, and every gate of
// RequiredFeatureGate.
func (c Condition) Active(s GateSet) bool {
	for _, g := range c.RequiredFeatureGate {
		if !s[g] {
			return false
		}
	}
	for _, g := range c.FeatureGate {
		if s[g] {
			return true
		}
	}
	for _, g := range c.RequiredFeatureGate {
		if s[g] {
			return true
		}
	}
	return false
}

// Entries returns the partial-manifest entries the condition contributes to
// stage 1: each featureGate name on its own (except the ungated ""), and the
// requiredFeatureGate names joined with "+" in written order as one entry.
func (c Condition) Entries() []string {
	var out []string
	for _, g := range c.FeatureGate {
		if g != Ungated {
			out = append(out, g)
		}
	}
	if len(c.RequiredFeatureGate) > 0 {
		out = append(out, strings.Join(c.RequiredFeatureGate, "+"))
	}
	return out
}

// GateAware is implemented by the three FeatureGate-aware marker values.
type GateAware interface {
	GateCondition() Condition
}

// gateNamePattern is what a gate name may look like: it becomes part of a
// file name and of an annotation key, so separators and quotes are out.
var gateNamePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)

// GateNameProblem says why name cannot be a gate, or returns "" when it
// can.
func GateNameProblem(name string) string {
	switch {
	case name == "":
		return "names an empty gate"
	case !gateNamePattern.MatchString(name):
		return fmt.Sprintf("gate name %q is not valid: use letters, digits, '_', '.' and '-', starting with a letter or digit", name)
	}
	return ""
}

// Problems returns what is wrong with the gate lists of a FeatureGate-aware
// marker, one message per problem, or nil. It is the one place gate
// conditions are validated: stage 1 reports every message at the marker,
// stage 2 refuses to apply a marker with problems.
func (c Condition) Problems() []string {
	if len(c.FeatureGate) == 0 && len(c.RequiredFeatureGate) == 0 {
		return []string{`names no gate: give featureGate=<Gate>[;<Gate>...] (featureGate="" for the ungated variant) or requiredFeatureGate=<Gate>[;<Gate>...]`}
	}
	var out []string
	for _, g := range c.FeatureGate {
		if g == Ungated {
			continue
		}
		if p := GateNameProblem(g); p != "" {
			out = append(out, "featureGate: "+p)
		}
	}
	seen := map[string]bool{}
	for _, g := range c.RequiredFeatureGate {
		switch {
		case g == "":
			out = append(out, `requiredFeatureGate: names an empty gate ("" only means ungated in featureGate)`)
		case GateNameProblem(g) != "":
			out = append(out, "requiredFeatureGate: "+GateNameProblem(g))
		case seen[g]:
			out = append(out, fmt.Sprintf("requiredFeatureGate: names gate %s twice", g))
		}
		seen[g] = true
	}
	return out
}
