package manifest

import "testing"

func TestMetadataName(t *testing.T) {
	for _, tc := range []struct {
		data string
		want string
		ok   bool
	}{
		{"apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  annotations:\n    a: \"true\"\n    name: inner\n  name: widgets.example.io\nspec:\n  group: example.io\n", "widgets.example.io", true},
		{"apiVersion: v1\nmetadata:\n  labels:\n    x: y\nspec:\n  name: notmetadata\n", "", false},
		{"apiVersion: v1\nmetadata:\n  name: \"quoted\"\n", "", false},
		{"name: top\n", "", false},
	} {
		got, ok := MetadataName([]byte(tc.data))
		if got != tc.want || ok != tc.ok {
			t.Errorf("MetadataName(%q) = %q, %v; want %q, %v", tc.data, got, ok, tc.want, tc.ok)
		}
	}
}

func TestUntouched(t *testing.T) {
	u := Untouched{"widgets.example.io": true}
	for path, want := range map[string]bool{
		"/t/example/v1/" + PartialManifestsDirName + "/widgets.example.io/AAA_ungated.yaml": true,
		"/t/example/v1/" + OverridesDirName + "/widgets.example.io/AAA_ungated.yaml":        true,
		"/t/example/v1/" + PartialManifestsDirName + "/gadgets.example.io/AAA_ungated.yaml": false,
		"/t/example/v1/tests/widgets.example.io/AAA_ungated.yaml":                           true,
		"/t/example/v1/tests/gadgets.example.io/AAA_ungated.yaml":                           false,
		"/t/example/v1/" + MergedManifestsDirName + "/widgets.crd.yaml":                     false,
	} {
		if got := u.Dir(path); got != want {
			t.Errorf("Dir(%s) = %v, want %v", path, got, want)
		}
	}
	if !u.Merged([]byte("kind: CustomResourceDefinition\nmetadata:\n  name: widgets.example.io\n")) {
		t.Error("a merged manifest of an untouched CRD is not recognised")
	}
	if u.Merged([]byte("kind: CustomResourceDefinition\nmetadata:\n  name: gadgets.example.io\n")) {
		t.Error("a merged manifest of another CRD is taken for an untouched one")
	}
	if (Untouched{}).Dir("/t/example/v1/"+PartialManifestsDirName+"/widgets.example.io/x.yaml") || Untouched(nil).Merged([]byte("metadata:\n  name: a\n")) {
		t.Error("an empty set leaves something untouched")
	}
}
