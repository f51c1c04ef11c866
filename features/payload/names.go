package payload

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gatedcrd/gatedcrd/features/featuregate"
)

// Annotation keys and values of payload FeatureGate manifests.
const (
	FeatureSetAnnotation   = "release.openshift.io/feature-set"
	MajorVersionAnnotation = "release.openshift.io/major-version"
	// ProfileAnnotationValue marks the profile annotation of a payload
	// FeatureGate: it identifies the profile without asking the installer
	// to apply the object.
	ProfileAnnotationValue = "false-except-for-the-config-operator"
)

// FileName returns the payload file name for a profile, a feature set and a
// run of versions: featureGate-<range>-<Profile>-<FeatureSet>.yaml.
func FileName(profile featuregate.ClusterProfileName, fs featuregate.FeatureSetName, versions []int) string {
	return fmt.Sprintf("featureGate-%s-%s-%s.yaml", VersionRange(versions), profile, fs)
}

// VersionRange formats ascending versions compactly: "N" for one version,
// "N-M" when they are consecutive integers, and the comma-joined list
// otherwise (a rendered group is always consecutive; a hand-edited file may
// not be, and "N-M" would then claim versions it does not cover).
func VersionRange(versions []int) string {
	switch {
	case len(versions) == 0:
		return ""
	case len(versions) == 1:
		return strconv.Itoa(versions[0])
	case consecutive(versions):
		return fmt.Sprintf("%d-%d", versions[0], versions[len(versions)-1])
	}
	return FormatMajorVersions(versions)
}

func consecutive(versions []int) bool {
	for i := 1; i < len(versions); i++ {
		if versions[i] != versions[i-1]+1 {
			return false
		}
	}
	return true
}

// FormatMajorVersions writes the value of a release.openshift.io/major-version
// annotation: the inverse of [ParseMajorVersions] for ascending versions.
func FormatMajorVersions(versions []int) string {
	parts := make([]string, len(versions))
	for i, v := range versions {
		parts[i] = strconv.Itoa(v)
	}
	return strings.Join(parts, ",")
}
