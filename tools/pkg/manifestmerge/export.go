package manifestmerge

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gatedcrd/gatedcrd/features/featuregate"
	fgpayload "github.com/gatedcrd/gatedcrd/features/payload"
	"github.com/gatedcrd/gatedcrd/tools/pkg/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
)

// Tuple is one (major version, ClusterProfile, FeatureSet) combination the
// stage computes a CRD for, as other packages see it.
type Tuple struct {
	Version    int
	Profile    featuregate.ClusterProfileName
	FeatureSet string
	// Enabled holds the gates on in the tuple; nil for CustomNoUpgrade,
	// where every gate counts as on.
	Enabled map[string]bool
}

// Custom reports whether t is a CustomNoUpgrade tuple.
func (t Tuple) Custom() bool { return t.Enabled == nil }

func (t Tuple) String() string {
	return fmt.Sprintf("%s/%s/%d", t.Profile, t.FeatureSet, t.Version)
}

// Tuples returns the tuples of a payload FeatureGate directory (SPEC §5.2)
// in the stage's order: by version, profile, then feature set. A problem
// with any manifest is an error, as in the stage.
func Tuples(d *fgpayload.Directory) ([]Tuple, error) {
	var problems diag.List
	pl, err := readPayload(d, &problems)
	if err != nil {
		return nil, err
	}
	if err := problems.Err(); err != nil {
		return nil, err
	}
	out := make([]Tuple, len(pl.tuples))
	for i, t := range pl.tuples {
		out[i] = Variant{t: t}.tuple()
	}
	return out, nil
}

// OutputCovers reports whether a CRD file the stage wrote, carrying the
// given annotations, is the CRD of tuple t. It reads back what step 5 of
// SPEC §5.8 writes: the profiles whose include annotation is "true" (none
// named means every profile), the major-version list (absent: every
// version) and the feature-set list. Without a feature-set annotation the
// file covers every feature set, unless it kept the
// release.openshift.io/feature-gate annotation: then it covers the tuples
// where every gate named there (comma-separated) is enabled, and
// CustomNoUpgrade.
func OutputCovers(annotations map[string]string, t Tuple) (bool, error) {
	restricted, named := false, false
	for key, val := range annotations {
		if !strings.HasPrefix(key, manifest.IncludeAnnotationPrefix) {
			continue
		}
		restricted = true
		if key == t.Profile.AnnotationKey() && val == "true" {
			named = true
		}
	}
	if restricted && !named {
		return false, nil
	}
	if list, ok := annotations[manifest.MajorVersionAnnotation]; ok {
		versions, err := parseVersionList(list)
		if err != nil {
			return false, fmt.Errorf("annotation %s: %w", manifest.MajorVersionAnnotation, err)
		}
		if !versions[t.Version] {
			return false, nil
		}
	}
	if list, ok := annotations[manifest.FeatureSetAnnotation]; ok {
		return slices.Contains(strings.Split(list, ","), t.FeatureSet), nil
	}
	if gates, ok := annotations[manifest.FeatureGatePassThrough]; ok && !t.Custom() {
		for _, g := range strings.Split(gates, ",") {
			if !t.Enabled[strings.TrimSpace(g)] {
				return false, nil
			}
		}
	}
	return true, nil
}
