package manifestmerge

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gatedcrd/gatedcrd/features/featuregate"
	fgpayload "github.com/gatedcrd/gatedcrd/features/payload"
	"github.com/gatedcrd/gatedcrd/tools/pkg/diag"
)

// Variant is one tuple of the stage (major version × ClusterProfile ×
// FeatureSet), for consumers of the stage's output files: it tells which
// output file holds a CRD as that tuple sees it.
type Variant struct {
	t tuple
}

// String names the variant like the stage's messages: Profile/FeatureSet/version.
func (v Variant) String() string { return v.t.String() }

// FindVariant returns the tuple of the payload directory d for the given
// ClusterProfile name, feature set and major version; version 0 selects the
// highest major version the payload knows. The error lists what exists.
func FindVariant(d *fgpayload.Directory, profile, featureSet string, version int) (Variant, error) {
	problems := &diag.List{}
	pl, err := readPayload(d, problems)
	if err == nil {
		err = problems.Err()
	}
	if err != nil {
		return Variant{}, err
	}
	p := slices.Index(clusterProfiles, featuregate.ClusterProfileName(profile))
	if p < 0 {
		return Variant{}, fmt.Errorf("unknown cluster profile %q; known: %s", profile, joinProfiles())
	}
	if !slices.Contains(pl.featureSets, featureSet) {
		return Variant{}, fmt.Errorf("unknown feature set %q; the payload knows %s", featureSet, strings.Join(pl.featureSets, ", "))
	}
	if version == 0 {
		version = pl.versions[len(pl.versions)-1]
	}
	for _, t := range pl.tuples {
		if t.profile == p && t.featureSet == featureSet && t.version == version {
			return Variant{t: t}, nil
		}
	}
	return Variant{}, fmt.Errorf("the payload has no FeatureGate manifest for %s %s at major version %d (major versions: %s)", profile, featureSet, version, ints(pl.versions))
}

func joinProfiles() string {
	names := make([]string, len(clusterProfiles))
	for i, p := range clusterProfiles {
		names[i] = string(p)
	}
	return strings.Join(names, ", ")
}

// Covers reports whether an output file of the stage, given its
// annotations, is the CRD of this variant; see OutputCovers.
func (v Variant) Covers(annotations map[string]string) (bool, error) {
	return OutputCovers(annotations, v.tuple())
}

// tuple is the variant as the exported Tuple that OutputCovers reads.
func (v Variant) tuple() Tuple {
	t := v.t
	return Tuple{Version: t.version, Profile: clusterProfiles[t.profile], FeatureSet: t.featureSet, Enabled: t.enabled}
}
