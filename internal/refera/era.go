// Package refera names the eras of the reference generator (openshift/api's
// codegen): periods whose rules a repository's committed files follow, each
// named after the month its rules took effect. The payload FeatureGate
// directory shows the format of an era (features/payload detects it), the
// CRD merge stage reproduces each era's rules byte for byte
// (docs/reference-rules.md, "Pre-version trees"; docs/zero-configuration.md,
// "Which era a tree is in"), and a repository may name its era in
// .gatedcrd.yaml (internal/repoconfig). The names live here, below all
// three, so that reading the configuration needs none of the others.
package refera

import (
	"fmt"
	"slices"
	"strings"
)

// Era names a period of the reference generator whose output a
// repository's committed files follow. The payload format only tells
// versioned from unversioned directories, so detection answers the newest
// era of each format; the others are chosen by the repository
// configuration.
type Era string

const (
	// Era202509 is the pre-version reference before October 2025: like
	// Era202601, but combination files were ordered with sort.Slice.
	Era202509 Era = "2025-09"
	// Era202601 is the pre-version reference (before February 2026):
	// payload files without major versions, read by file name;
	// x-kubernetes-validations merged as a list keyed by rule; combination
	// files ordered by a stable sort; one file per feature set with a
	// single-valued feature-set annotation.
	Era202601 Era = "2026-01"
	// Era202602 is the first version-aware reference: versioned payload
	// files, but x-kubernetes-validations still merged by rule.
	Era202602 Era = "2026-02"
	// Era202603 is the current reference (since 2026-03-18):
	// x-kubernetes-validations is an atomic list, so a later file's rules
	// replace the list at that node.
	Era202603 Era = "2026-03"
)

// All lists every era, oldest first.
func All() []Era { return []Era{Era202509, Era202601, Era202602, Era202603} }

// Parse checks an era name, as a repository configuration spells it.
func Parse(s string) (Era, error) {
	if e := Era(s); slices.Contains(All(), e) {
		return e, nil
	}
	names := make([]string, 0, len(All()))
	for _, e := range All() {
		names = append(names, string(e))
	}
	return "", fmt.Errorf("unknown era %q of the reference generator; known eras are %s", s, strings.Join(names, ", "))
}

// Versioned reports whether the era's payload files carry major versions
// (release.openshift.io/major-version).
func (e Era) Versioned() bool { return e == Era202602 || e == Era202603 }
