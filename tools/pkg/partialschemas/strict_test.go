package partialschemas

import (
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// TestStrictMakesIgnoredRootMarkersErrors: a root-type marker stage 1
// cannot honour is a warning by default and an error in strict mode, where
// nothing is written for the CRD.
func TestStrictMakesIgnoredRootMarkersErrors(t *testing.T) {
	base := widgetsGroup(t, `package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// +kubebuilder:object:root=true
// +kubebuilder:resource:path=widgets,scope=Namespaced
// +kubebuilder:subresource:scale:specpath=.spec.replicas,statuspath=.status.replicas
type Widget struct {
	metav1.TypeMeta   `+"`json:\",inline\"`"+`
	metav1.ObjectMeta `+"`json:\"metadata,omitempty\"`"+`
}
`)
	f := loadTree(t, base, nil)
	for _, strict := range []bool{false, true} {
		tr := tree.New()
		probs := &diag.List{}
		if _, err := Run(Input{Discovery: f.disc, Universe: f.u, Tree: tr, Problems: probs, Strict: strict}); err != nil {
			t.Fatal(err)
		}
		items := probs.Items()
		if len(items) != 1 || !strings.Contains(items[0].String(), "+kubebuilder:subresource:scale") || !strings.Contains(items[0].String(), "is not supported by stage 1") {
			t.Fatalf("strict=%v: problems = %v", strict, items)
		}
		wantSeverity := diag.Warning
		if strict {
			wantSeverity = diag.Error
		}
		if items[0].Severity != wantSeverity {
			t.Errorf("strict=%v: severity %v, want %v", strict, items[0].Severity, wantSeverity)
		}
		changes, _, _ := tr.Changes()
		if strict && len(changes) != 0 {
			t.Errorf("strict mode wrote %d files for a CRD with an error", len(changes))
		}
		if !strict && len(changes) == 0 {
			t.Error("non-strict mode wrote nothing")
		}
	}
}
