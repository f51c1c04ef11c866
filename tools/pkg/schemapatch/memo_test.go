package schemapatch

import (
	"reflect"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
)

// The selection and Settle read the memo's own objects (manifest.Memo
// View): readManifest must leave every object as it found it, whatever
// its verdict, and a manifest to process must not hold the memo's.
func TestReadManifestOnlyReadsTheMemosObject(t *testing.T) {
	docs := map[string]string{
		"partial manifest": partialManifest("example.io", "widgets", "Widget", "v1", "GateA"),
		"merged manifest":  "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  annotations:\n    " + manifest.MergedAnnotation + ": \"true\"\n  name: widgets.example.io\n",
		"feature set":      "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  annotations:\n    " + manifest.FeatureSetAnnotation + ": Default\n",
		"bad versions":     "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec:\n  names: {kind: W}\n  versions: [{served: true}]\n",
		"test suite":       "apiVersion: apiextensions.k8s.io/v1 # as openshift/api's suites begin\nname: \"[Stable] Widget\"\ncrdName: widgets.example.io\ntests:\n  onCreate: []\n",
	}
	memo := manifest.NewMemo()
	for what, doc := range docs {
		f := memo.ViewFile("/t/v1/x.yaml", []byte(doc))
		m, _ := readManifest("v1/x.yaml", f, nil)
		want, err := manifest.Parse([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(f.Object, want) {
			t.Errorf("%s: readManifest changed the object", what)
		}
		if m != nil {
			m.obj = memo.Own(m.obj)
			m.obj["kind"] = "changed"
			if again, _ := memo.View([]byte(doc)); !reflect.DeepEqual(again, want) {
				t.Errorf("%s: a manifest to process shares the memo's object", what)
			}
		}
	}
}
