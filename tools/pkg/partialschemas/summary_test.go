package partialschemas

import (
	"bytes"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
	"github.com/gatedcrd/gatedcrd/tools/pkg/markerdefs"
)

// TestSummaryAsStructEntries checks that the summary, written from the
// generic form of each entry, has the bytes manifest.Marshal gives the
// entry structs themselves (through sigs.k8s.io/yaml), for entries with
// every kind of value: numbers, empty and nil lists and maps, strings
// that YAML would read as something else, and a string that is not valid
// UTF-8.
func TestSummaryAsStructEntries(t *testing.T) {
	vr := &VersionResult{CRDs: []*CRD{
		{Name: "empties.example.io", Kind: "Empty", Group: "example.io", Version: "v1"},
		{
			Name: "widgets.example.io", Kind: "Widget", Plural: "widgets", Group: "example.io", Version: "v1",
			Scope: "Cluster", ShortNames: []string{"wd", "yes"}, Categories: []string{"a", "b"}, HasStatus: true,
			PrinterColumns: []apiextensionsv1.CustomResourceColumnDefinition{
				{Name: "Age", Type: "date", JSONPath: ".metadata.creationTimestamp", Priority: 1},
				{Name: "On", Type: "boolean", JSONPath: ".spec.on", Description: "null"},
			},
			Approved: "https://github.com/openshift/api/pull/470", Capability: "1.5",
			FilePattern:         markerdefs.FilePattern{OperatorName: "0000", OperatorOrdering: "01", CVORunLevel: "10"},
			MetadataAnnotations: map[string]string{"release.openshift.io/bootstrap-required": "true"},
			Labels:              map[string]string{"odd": "\xff\xfe", "0x1F": "~"},
			Gates:               []string{"A", "A+B"}, TopLevelGates: []string{},
		},
	}}
	got, err := vr.Summary()
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	for _, crd := range vr.CRDs {
		data, err := manifest.Marshal(map[string]any{crd.Name: crd.summaryEntry()})
		if err != nil {
			t.Fatal(err)
		}
		want.Write(data)
		want.WriteString("\n")
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Errorf("summary:\n%s\nwant:\n%s", got, want.Bytes())
	}
}
