package server

import (
	"strings"
	"testing"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

func TestDecodeCRDs(t *testing.T) {
	widgets := string(readTestdata(t, "widgets.yaml"))
	for _, tc := range []struct {
		name    string
		text    string
		want    []string // CRD names
		wantErr string
	}{
		{name: "one document", text: widgets, want: []string{"widgets.apitest.gatedcrd.example"}},
		{
			name: "several documents and empty ones",
			text: "---\n" + widgets + "\n---\n---\n" + strings.Replace(widgets, "name: widgets.", "name: gadgets.", 1),
			want: []string{"widgets.apitest.gatedcrd.example", "gadgets.apitest.gatedcrd.example"},
		},
		{
			name: "JSON",
			text: `{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition", "metadata": {"name": "a.b"}}`,
			want: []string{"a.b"},
		},
		{name: "nothing", text: "# only a comment\n", want: nil},
		{
			name:    "another kind",
			text:    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n",
			wantErr: `document 0: want a apiextensions.k8s.io/v1 CustomResourceDefinition, got apiVersion "v1" kind "ConfigMap"`,
		},
		{
			name:    "an older CRD version",
			text:    "apiVersion: apiextensions.k8s.io/v1beta1\nkind: CustomResourceDefinition\n",
			wantErr: `got apiVersion "apiextensions.k8s.io/v1beta1"`,
		},
		{name: "not YAML", text: "a: [b\n", wantErr: "document 0:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			crds, err := DecodeCRDs([]byte(tc.text))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, crd := range crds {
				names = append(names, crd.Name)
			}
			if strings.Join(names, ",") != strings.Join(tc.want, ",") {
				t.Errorf("decoded %q, want %q", names, tc.want)
			}
		})
	}
}

func TestSingleVersion(t *testing.T) {
	crd := &CRD{}
	crd.Name = "things.example.com"
	crd.UID = "1234"
	crd.ResourceVersion = "42"
	crd.Annotations = map[string]string{"a": "b"}
	crd.Spec.Group = "example.com"
	crd.Spec.Names.Plural = "things"
	crd.Spec.Conversion = &apiextensionsv1.CustomResourceConversion{Strategy: apiextensionsv1.WebhookConverter}
	crd.Spec.Versions = []apiextensionsv1.CustomResourceDefinitionVersion{
		{Name: "v1", Served: true, Storage: true},
		{Name: "v1beta1", Served: false, Storage: false, Subresources: &apiextensionsv1.CustomResourceSubresources{}},
	}
	crd.Status.StoredVersions = []string{"v1"}

	got, err := SingleVersion(crd, "v1beta1")
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Spec.Versions) != 1 {
		t.Fatalf("got %d versions, want 1", len(got.Spec.Versions))
	}
	v := got.Spec.Versions[0]
	if v.Name != "v1beta1" || !v.Served || !v.Storage || v.Subresources == nil {
		t.Errorf("version = %+v, want v1beta1 served, stored, with its subresources", v)
	}
	if got.Spec.Conversion != nil || got.UID != "" || got.ResourceVersion != "" || len(got.Status.StoredVersions) != 0 {
		t.Errorf("copy keeps conversion, server metadata or status: %+v", got)
	}
	if got.Annotations["a"] != "b" || got.Kind != "CustomResourceDefinition" {
		t.Errorf("copy lost annotations or type: %+v", got.ObjectMeta)
	}
	if crd.Spec.Versions[1].Served || len(crd.Spec.Versions) != 2 || crd.Spec.Conversion == nil {
		t.Errorf("SingleVersion changed its input")
	}
	if want := (schema.GroupVersionResource{Group: "example.com", Version: "v1beta1", Resource: "things"}); Resource(got, "v1beta1") != want {
		t.Errorf("Resource = %v, want %v", Resource(got, "v1beta1"), want)
	}

	if _, err := SingleVersion(crd, "v2"); err == nil || !strings.Contains(err.Error(), `no version "v2"`) {
		t.Errorf("an unknown version gave %v", err)
	}
}

func TestDecodeObject(t *testing.T) {
	obj, err := DecodeObject([]byte("apiVersion: example.com/v1\nkind: Thing\nspec:\n  count: 3\n  ratio: 0.5\n"))
	if err != nil {
		t.Fatal(err)
	}
	spec := obj.Object["spec"].(map[string]any)
	if _, ok := spec["count"].(int64); !ok {
		t.Errorf("count decoded as %T, want int64", spec["count"])
	}
	if _, ok := spec["ratio"].(float64); !ok {
		t.Errorf("ratio decoded as %T, want float64", spec["ratio"])
	}
	for _, text := range []string{"", "null", "- a\n", "a: [b\n"} {
		if _, err := DecodeObject([]byte(text)); err == nil {
			t.Errorf("DecodeObject(%q) succeeded", text)
		}
	}
}

// TestNudgeDue: a lingering CRD whose finalizer recorded a failure is
// nudged soon; one without a sign of trouble (waiting its turn while a
// batch is deleted) only after the longer interval.
func TestNudgeDue(t *testing.T) {
	terminating := func(reason string) *CRD {
		crd := &CRD{}
		crd.Status.Conditions = []apiextensionsv1.CustomResourceDefinitionCondition{
			{Type: apiextensionsv1.Established, Status: apiextensionsv1.ConditionTrue, Reason: "InitialNamesAccepted"},
			{Type: apiextensionsv1.Terminating, Status: apiextensionsv1.ConditionTrue, Reason: reason},
		}
		return crd
	}
	for _, c := range []struct {
		crd   *CRD
		since time.Duration
		want  bool
	}{
		{terminating("InstanceDeletionFailed"), nudgeInterval, true},
		{terminating("InstanceDeletionCheck"), nudgeInterval, true},
		{terminating("InstanceDeletionFailed"), nudgeInterval - time.Millisecond, false},
		{terminating("InstanceDeletionInProgress"), nudgeInterval, false},
		{terminating("InstanceDeletionInProgress"), nudgeIntervalNoSigns, true},
		{&CRD{}, nudgeIntervalNoSigns - time.Millisecond, false},
		{&CRD{}, nudgeIntervalNoSigns, true},
	} {
		reason := "no condition"
		if tc := findCondition(c.crd, apiextensionsv1.Terminating); tc != nil {
			reason = tc.Reason
		}
		if got := nudgeDue(c.crd, c.since); got != c.want {
			t.Errorf("nudgeDue(%s, %v) = %v, want %v", reason, c.since, got, c.want)
		}
	}
}
