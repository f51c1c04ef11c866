package manifestmerge

import (
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/features/crdvariant"
)

func TestFindVariantAndCovers(t *testing.T) {
	d := examplePayload()
	hypershift := "include.release.openshift.io/ibm-cloud-managed"
	selfManaged := "include.release.openshift.io/self-managed-high-availability"
	cases := []struct {
		profile, featureSet string
		version             int
		ann                 map[string]string
		want                bool
		wantErr             string
	}{
		{profile: "SelfManagedHA", featureSet: "Default", ann: nil, want: true},
		{profile: "SelfManagedHA", featureSet: "Default", ann: map[string]string{selfManaged: "true"}, want: true},
		{profile: "SelfManagedHA", featureSet: "Default", ann: map[string]string{hypershift: "true"}, want: false},
		{profile: "Hypershift", featureSet: "Default", ann: map[string]string{hypershift: "true", selfManaged: "true"}, want: true},
		{profile: "SelfManagedHA", featureSet: "Default", ann: map[string]string{"release.openshift.io/feature-set": "TechPreviewNoUpgrade,DevPreviewNoUpgrade"}, want: false},
		{profile: "SelfManagedHA", featureSet: "DevPreviewNoUpgrade", ann: map[string]string{"release.openshift.io/feature-set": "TechPreviewNoUpgrade,DevPreviewNoUpgrade"}, want: true},
		{profile: "SelfManagedHA", featureSet: "Default", version: 4, ann: map[string]string{"release.openshift.io/major-version": "4,5"}, want: true},
		{profile: "SelfManagedHA", featureSet: "Default", ann: map[string]string{"release.openshift.io/major-version": "4,5"}, want: false},
		{profile: "SelfManagedHA", featureSet: "Default", ann: map[string]string{"release.openshift.io/feature-gate": "Example"}, want: false},
		{profile: "SelfManagedHA", featureSet: "TechPreviewNoUpgrade", ann: map[string]string{"release.openshift.io/feature-gate": "Example"}, want: true},
		{profile: "SelfManagedHA", featureSet: "CustomNoUpgrade", ann: map[string]string{"release.openshift.io/feature-gate": "Example"}, want: true},
		{profile: "SelfManagedHA", featureSet: "Default", ann: map[string]string{"release.openshift.io/major-version": "four"}, wantErr: `"four" is not a positive integer`},
		{profile: "SingleNode", featureSet: "Default", wantErr: `unknown cluster profile "SingleNode"`},
		{profile: "SelfManagedHA", featureSet: "Fancy", wantErr: `unknown feature set "Fancy"`},
		{profile: "SelfManagedHA", featureSet: "Default", version: 99, wantErr: "no FeatureGate manifest for SelfManagedHA Default at major version 99"},
	}
	for _, c := range cases {
		v, err := FindVariant(d, c.profile, c.featureSet, c.version)
		var got bool
		if err == nil {
			var a crdvariant.Annotations
			if a, err = crdvariant.Decode(c.ann); err == nil {
				got = a.Covers(v)
			}
		}
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("%s/%s/%d %v: error %v, want %q", c.profile, c.featureSet, c.version, c.ann, err, c.wantErr)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%s/%s/%d %v: covers %v (%v), want %v", c.profile, c.featureSet, c.version, c.ann, got, err, c.want)
		}
	}
}
