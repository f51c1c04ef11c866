package partialschemas

import (
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
)

// TestKubebuilderListTypesAreNotCRDs: kubebuilder marks FooList with
// +kubebuilder:object:root=true too; such a type is skipped, while a root
// type that merely ends in "List" but is a real CRD is kept.
func TestKubebuilderListTypesAreNotCRDs(t *testing.T) {
	base := widgetsGroup(t, `package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// +kubebuilder:object:root=true
// +kubebuilder:resource:path=widgets,scope=Namespaced
type Widget struct {
	metav1.TypeMeta   `+"`json:\",inline\"`"+`
	metav1.ObjectMeta `+"`json:\"metadata,omitempty\"`"+`
}

// +kubebuilder:object:root=true
type WidgetList struct {
	metav1.TypeMeta `+"`json:\",inline\"`"+`
	metav1.ListMeta `+"`json:\"metadata,omitempty\"`"+`
	Items           []Widget `+"`json:\"items\"`"+`
}

// +kubebuilder:object:root=true
// +kubebuilder:resource:path=todolists,scope=Namespaced
type TodoList struct {
	metav1.TypeMeta   `+"`json:\",inline\"`"+`
	metav1.ObjectMeta `+"`json:\"metadata,omitempty\"`"+`
	Items             []string `+"`json:\"items\"`"+`
}

// +kubebuilder:object:root=true
type BrokenList struct {
	metav1.TypeMeta   `+"`json:\",inline\"`"+`
	metav1.ObjectMeta `+"`json:\"metadata,omitempty\"`"+`
	Items             []string `+"`json:\"items\"`"+`
}
`)
	f := loadTree(t, base, nil)
	res, _, probs := f.run(t)
	var kinds []string
	for _, v := range res.Versions {
		for _, c := range v.CRDs {
			kinds = append(kinds, c.Kind)
		}
	}
	if got := strings.Join(kinds, ","); got != "BrokenList,TodoList,Widget" {
		t.Errorf("CRDs = %s, want BrokenList (still an error), TodoList and Widget", got)
	}
	errs := probs.Err()
	if errs == nil || !strings.Contains(errs.Error(), "BrokenList") && !strings.Contains(errs.Error(), "has no +kubebuilder:resource") {
		t.Fatalf("a root type ending in List without resource marker or Items of a root type must still be an error; got %v", errs)
	}
	if strings.Contains(errs.Error(), "WidgetList") {
		t.Fatalf("WidgetList reported: %v", errs)
	}
}

// widgetsGroup writes a one-version API group widgets.example.io/v1 whose
// types.go is typesGo (package v1, importing metav1 as needed) and returns
// the tree's base directory.
func widgetsGroup(t *testing.T, typesGo string) string {
	t.Helper()
	return testtree.Write(t, map[string]string{
		"v1/doc.go": "// +groupName=widgets.example.io\npackage v1\n",
		"v1/register.go": `package v1

import "k8s.io/apimachinery/pkg/runtime/schema"

var GroupVersion = schema.GroupVersion{Group: "widgets.example.io", Version: "v1"}
`,
		"v1/types.go": typesGo,
	})
}
