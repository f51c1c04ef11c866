package markerdefs

import (
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
