// Package refera names the eras of the reference generator (openshift/api's
// codegen): the dated changes of the reference that alter its output, and
// the eras they delimit, each named after the day its newest change took
// effect. A repository's pin of the reference or the reference in its
// tools/ names its era (internal/referenceera), a repository may name it in
// .gatedcrd.yaml (internal/repoconfig), and the payload FeatureGate
// directory shows its format (features/payload); the three CRD stages
// follow each era's rules byte for byte (docs/zero-configuration.md, "Which
// era a tree is in"; docs/reference-rules.md). The names live here, below
// all of those, so that none of them imports a higher layer to name one.
package refera

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// Era names a period of the reference generator (openshift/api's codegen)
// whose output a repository's committed files follow: the changes of the
// reference that alter its output ([Changes]) in effect then. An era is
// named after the date its newest change took effect (the day it landed
// on openshift/api's main branch), "2025-09" being the oldest one, with
// none of them. A repository's pin of the reference (a pseudo-version,
// which carries a date) or its configuration names it; failing those, the
// payload FeatureGate directory shows the format ([DetectEra]).
type Era string

// A Change is a change of the reference that alters its output, known by
// the date it took effect.
type Change struct {
	// Date is when it landed on the reference's main branch, YYYY-MM-DD.
	Date string
	// What it changed, for messages and documentation.
	What string
}

// The changes of the reference since September 2025 that alter its output,
// oldest first. Each is consulted where its rule lives (Era.Has).
var (
	// StableMergeOrder: crd-manifest-merge orders a CRD's partial manifests
	// with a stable sort (sort.Slice before).
	StableMergeOrder = Change{"2025-10-09", "partial manifests merged in the order of a stable sort"}
	// TypeMarkersAcrossPackages: empty-partial-schemas parses every
	// group-version of the run together and sees the type-level gate
	// markers of the types of all of them; before, it parsed each
	// group-version alone and saw those of the CRD's own package only.
	TypeMarkersAcrossPackages = Change{"2025-11-05", "type-level gate markers seen on the types of every group-version of the run, not only of the CRD's own"}
	// SeparateEnums: schemapatch's controller-tools no longer folds a
	// field's enum and its type's into allOf.
	SeparateEnums = Change{"2026-01-21", "a field's and its type's enums no longer folded into allOf"}
	// GatedCRDsInOneFile: a CRD carrying release.openshift.io/feature-gate
	// is written as if it were in every feature set.
	GatedCRDsInOneFile = Change{"2026-02-18", "a CRD gated as a whole written as one file, not per feature set"}
	// VersionAware: versioned payload files and major versions in the
	// merge (release.openshift.io/major-version).
	VersionAware = Change{"2026-02-23", "payload FeatureGate files and merged CRDs carry major versions"}
	// AtomicValidations: x-kubernetes-validations is an atomic list in the
	// merge (keyed by rule before).
	AtomicValidations = Change{"2026-03-20", "x-kubernetes-validations merged as an atomic list"}
)

// Changes lists every Change, oldest first.
func Changes() []Change {
	return []Change{StableMergeOrder, TypeMarkersAcrossPackages, SeparateEnums, GatedCRDsInOneFile, VersionAware, AtomicValidations}
}

const (
	// Era202509 is the oldest era: none of the changes, as the reference
	// of September 2025.
	Era202509 Era = "2025-09"
	// Era202601 is the pre-version reference from 2025-11-05 (configured
	// as "2026-01"): payload files without major versions, read by file
	// name; x-kubernetes-validations merged as a list keyed by rule;
	// combination files ordered by a stable sort; a field's and its type's
	// enums in allOf; one file per feature set with a single-valued
	// feature-set annotation.
	Era202601 Era = "2025-11-05"
	// Era202602 is the first version-aware reference (configured as
	// "2026-02"): versioned payload files, but x-kubernetes-validations
	// still merged by rule.
	Era202602 Era = "2026-02-23"
	// Era202603 is the current reference (configured as "2026-03"):
	// x-kubernetes-validations is an atomic list.
	Era202603 Era = "2026-03-20"
)

// aliases are the month names earlier versions of gatedcrd gave eras.
var aliases = map[string]Era{"2026-01": Era202601, "2026-02": Era202602, "2026-03": Era202603}

// Eras lists every era, oldest first: the oldest, then one per Change.
func Eras() []Era {
	out := []Era{Era202509}
	for _, c := range Changes() {
		out = append(out, Era(c.Date))
	}
	return out
}

// EraAt is the era of the reference as it was on date (YYYY-MM-DD): the
// newest change in effect then, or the oldest era.
func EraAt(date string) Era {
	era := Era202509
	for _, c := range Changes() {
		if c.Date <= date {
			era = Era(c.Date)
		}
	}
	return era
}

// ParseEra checks an era name as a repository configuration spells it:
// an era of Eras, one of the month names "2026-01", "2026-02", "2026-03",
// or any date from 2025-09-01 on, YYYY-MM-DD, which names the era then
// (EraAt). It returns the era's own name.
func ParseEra(s string) (Era, error) {
	if e := Era(s); slices.Contains(Eras(), e) {
		return e, nil
	}
	if e, ok := aliases[s]; ok {
		return e, nil
	}
	if _, err := time.Parse(time.DateOnly, s); err == nil && s >= "2025-09-01" {
		return EraAt(s), nil
	}
	names := make([]string, 0, len(Eras())+len(aliases))
	for _, e := range Eras() {
		names = append(names, string(e))
	}
	for _, a := range slices.Sorted(maps.Keys(aliases)) {
		names = append(names, a)
	}
	return "", fmt.Errorf("unknown era %q of the reference generator; known eras are %s, or a date from 2025-09-01 on (YYYY-MM-DD)", s, strings.Join(names, ", "))
}

// Has reports whether change is in effect in the era. The empty era is the
// current reference, which has every change.
func (e Era) Has(c Change) bool { return e == "" || string(e) >= c.Date }

// Versioned reports whether the era's payload files carry major versions
// (release.openshift.io/major-version).
func (e Era) Versioned() bool { return e != "" && e.Has(VersionAware) }
