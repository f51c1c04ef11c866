package suite

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gatedcrd/gatedcrd/features/crdvariant"
	"github.com/gatedcrd/gatedcrd/features/featuregate"
	"github.com/gatedcrd/gatedcrd/features/payload"
	"github.com/gatedcrd/gatedcrd/internal/diag"
)

// Decision says whether a suite runs against one CRD file, and why.
type Decision struct {
	File   *CRDFile
	Run    bool
	Reason string
}

// Match decides, for every file among files whose CRD is the suite's
// crdName, whether the suite runs against it:
//
//   - a suite without featureGates runs against every such file;
//   - a file whose feature-set annotation contains CustomNoUpgrade, where
//     any gate may be on, runs the suite unless it needs a gate disabled;
//   - a file without a ClusterProfile annotation valued "true" runs it;
//   - otherwise the first payload FeatureGate manifest (in the directory's
//     order: feature set, profile, first version) of the file's first
//     profile (by annotation key) whose tuple the file's annotations cover
//     (features/crdvariant, as the merge wrote them: the listed feature
//     sets and major versions, every one of either when not listed, and,
//     without a feature-set annotation, only the tuples where every gate of
//     a release.openshift.io/feature-gate annotation is enabled) decides:
//     the suite runs iff every gate it needs enabled is enabled there and
//     every gate it needs disabled is disabled there. A file without a
//     feature-set annotation is thus decided by its Default manifest, unless
//     its feature-gate annotation names a gate Default lacks. A pre-version
//     payload directory (no file carries release.openshift.io/major-version,
//     docs/reference-rules.md, "Pre-version trees") has exactly one manifest per profile and feature set, the
//     file named featureGate-<Profile>-<FeatureSet>.yaml whatever its
//     annotations say, covering every version: there the file name decides;
//   - a file with a feature-gate annotation whose gates no payload manifest
//     of its profile enables is installed by CustomNoUpgrade only, and is
//     decided like a CustomNoUpgrade file.
//
// A gate that no payload manifest names, a selected payload manifest that
// lacks a gate, a file for which no payload manifest exists, and a suite
// that runs against no file are errors (each a *diag.Diagnostic naming the suite
// file and line). The decisions come in the order of files.
func Match(s *Suite, files []*CRDFile, d *payload.Directory) ([]Decision, error) {
	known := d.Gates()
	var errs []error
	for _, g := range s.FeatureGates {
		if !slices.Contains(known, g.Gate) {
			errs = append(errs, &diag.Diagnostic{File: s.Path, Line: g.Line, Message: fmt.Sprintf(
				"unknown FeatureGate %s: no payload FeatureGate manifest in %s names it", g.Gate, d.Path)})
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	var decisions []Decision
	for _, f := range files {
		if f.CRD.Name != s.CRDName {
			continue
		}
		run, reason, err := decide(s, f, d)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		decisions = append(decisions, Decision{File: f, Run: run, Reason: reason})
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if !slices.ContainsFunc(decisions, func(d Decision) bool { return d.Run }) {
		if len(decisions) == 0 {
			return nil, &diag.Diagnostic{File: s.Path, Line: s.CRDNameLine, Message: fmt.Sprintf(
				"no generated CRD file defines %s", s.CRDName)}
		}
		var why []string
		for _, d := range decisions {
			why = append(why, fmt.Sprintf("%s: %s", filepath.Base(d.File.Path), d.Reason))
		}
		return nil, &diag.Diagnostic{File: s.Path, Line: s.CRDNameLine, Message: fmt.Sprintf(
			"the suite (featureGates %s) runs against none of the %d CRD files of %s:\n\t%s",
			s.GateList(), len(decisions), s.CRDName, strings.Join(why, "\n\t"))}
	}
	return decisions, nil
}

// decide applies Match's rules to one file.
func decide(s *Suite, f *CRDFile, d *payload.Directory) (bool, string, error) {
	if len(s.FeatureGates) == 0 {
		return true, "the suite needs no FeatureGate", nil
	}
	if slices.Contains(f.Variants.FeatureSets, featuregate.CustomNoUpgrade) {
		return decideCustom(s, "CustomNoUpgrade may enable any gate")
	}
	if len(f.Variants.Profiles) == 0 {
		return true, "the file names no ClusterProfile", nil
	}
	m, ok := selectPayload(f, d)
	if !ok && f.Variants.FeatureSets == nil && f.Variants.Gates != nil {
		return decideCustom(s, fmt.Sprintf("only CustomNoUpgrade installs the file: no payload FeatureGate manifest of %s enables %s",
			f.Variants.Profiles[0], crdvariant.JoinNames(f.Variants.Gates)))
	}
	if !ok {
		return false, "", &diag.Diagnostic{File: s.Path, Line: s.CRDNameLine, Message: fmt.Sprintf(
			"no payload FeatureGate manifest in %s for ClusterProfile %s, %s, %s, which %s applies to",
			d.Path, f.Variants.Profiles[0], featureSetsOf(f), versionsOf(f), f.Path)}
	}
	var errs []error
	for _, g := range s.FeatureGates {
		if !m.IsEnabled(g.Gate) && !slices.Contains(m.Disabled, g.Gate) {
			errs = append(errs, &diag.Diagnostic{File: s.Path, Line: g.Line, Message: fmt.Sprintf(
				"FeatureGate %s is neither enabled nor disabled in payload manifest %s, which decides for %s",
				g.Gate, m.FileName, f.Path)})
		}
	}
	if len(errs) > 0 {
		return false, "", errors.Join(errs...)
	}
	for _, g := range s.FeatureGates {
		if enabled := m.IsEnabled(g.Gate); enabled != g.Enabled {
			state := "disabled"
			if enabled {
				state = "enabled"
			}
			return false, fmt.Sprintf("%s is %s in %s", g.Gate, state, m.FileName), nil
		}
	}
	return true, fmt.Sprintf("%s in %s", s.GateList(), m.FileName), nil
}

// decideCustom decides for a file that CustomNoUpgrade installs, where any
// gate may be enabled; why says so.
func decideCustom(s *Suite, why string) (bool, string, error) {
	if s.hasNegatedGate() {
		return false, why + ", and the suite needs some disabled", nil
	}
	return true, why, nil
}

// selectPayload picks the payload manifest that decides for a file with
// profiles: the first, in the directory's order, of the file's first
// profile whose tuple, at one of its versions, the file covers.
func selectPayload(f *CRDFile, d *payload.Directory) (payload.Manifest, bool) {
	for _, m := range d.Manifests {
		if m.ClusterProfile != f.Variants.Profiles[0] {
			continue
		}
		for _, v := range candidateVersions(f, m) {
			t := featuregate.TupleGates{
				Tuple:     featuregate.Tuple{Version: v, ClusterProfile: m.ClusterProfile, FeatureSet: m.FeatureSet},
				GateLists: featuregate.GateLists{Enabled: m.Enabled, Disabled: m.Disabled},
			}
			if f.Variants.Covers(t) {
				return m, true
			}
		}
	}
	return payload.Manifest{}, false
}

// candidateVersions are the versions of m's tuples that may concern f. A
// pre-version manifest covers every version: the file's, or any.
func candidateVersions(f *CRDFile, m payload.Manifest) []int {
	switch {
	case len(m.Versions) > 0:
		return m.Versions
	case f.Variants.Versions != nil:
		return f.Variants.Versions
	}
	return []int{0}
}

func featureSetsOf(f *CRDFile) string {
	if f.Variants.FeatureSets == nil {
		return "any feature set"
	}
	return "feature sets " + f.featureSetList()
}

func versionsOf(f *CRDFile) string {
	if f.Variants.Versions == nil {
		return "any major version"
	}
	return "major versions " + payload.VersionRange(f.Variants.Versions)
}
