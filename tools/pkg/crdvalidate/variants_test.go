package crdvalidate

import (
	"strings"
	"testing"
)

func TestVariantsString(t *testing.T) {
	meta := func(ann map[string]any) map[string]any {
		return map[string]any{"metadata": map[string]any{"annotations": ann}}
	}
	cases := []struct {
		name  string
		files []map[string]any
		want  string
	}{
		{"no annotations", []map[string]any{meta(nil)}, "every FeatureSet; every ClusterProfile; every major version"},
		{"lists sorted, versions as numbers", []map[string]any{
			meta(map[string]any{
				"release.openshift.io/feature-set":               "TechPreviewNoUpgrade",
				"release.openshift.io/major-version":             "10",
				"include.release.openshift.io/ibm-cloud-managed": "true",
			}),
			meta(map[string]any{
				"release.openshift.io/feature-set":               "DevPreviewNoUpgrade",
				"release.openshift.io/major-version":             "9",
				"include.release.openshift.io/ibm-cloud-managed": "true",
			}),
		}, "FeatureSet DevPreviewNoUpgrade,TechPreviewNoUpgrade; ClusterProfile Hypershift; major version 9,10"},
		{"both profiles are every profile", []map[string]any{
			meta(map[string]any{"include.release.openshift.io/ibm-cloud-managed": "true"}),
			meta(map[string]any{"include.release.openshift.io/self-managed-high-availability": "true"}),
		}, "every FeatureSet; every ClusterProfile; every major version"},
		{"one unrestricted file opens a dimension", []map[string]any{
			meta(map[string]any{"release.openshift.io/feature-set": "Default"}),
			meta(nil),
		}, "every FeatureSet; every ClusterProfile; every major version"},
	}
	for _, c := range cases {
		v := newVariants()
		for _, f := range c.files {
			a, err := decodeVariants(f)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			v.add(a)
		}
		if got := v.String(); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestDecodeVariantsNamesTheAnnotation(t *testing.T) {
	obj := map[string]any{"metadata": map[string]any{"annotations": map[string]any{"release.openshift.io/major-version": "x"}}}
	if _, err := decodeVariants(obj); err == nil || !strings.Contains(err.Error(), "release.openshift.io/major-version") {
		t.Errorf("error %v, want it to name the annotation", err)
	}
}
