package watch

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
)

const sharedTypes = "example/v1alpha1/types_shared.go"

// importPath is the import path of the test tree at dir, a directory
// below this package's testdata/ in the tools module.
func importPath(t testing.TB, dir string) string {
	t.Helper()
	tools, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(tools, dir)
	if err != nil {
		t.Fatal(err)
	}
	return "github.com/gatedcrd/gatedcrd/tools/" + filepath.ToSlash(rel)
}

// withSharedCRD adds a second CRD to example.openshift.io/v1alpha1 of the
// example tree at dir, whose spec holds NestedConfig of example/v1: a
// type shared across group-versions, and a group-version with two CRDs
// of which an edit may concern one.
func withSharedCRD(t testing.TB, dir string) string {
	t.Helper()
	writeFile(t, filepath.Join(dir, sharedTypes), `package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	examplev1 "`+importPath(t, dir)+`/example/v1"
)

// +openshift:api-approved.openshift.io=https://github.com/gatedcrd/gatedcrd/pull/1
// +openshift:file-pattern=cvoRunLevel=0000_50,operatorName=my-operator,operatorOrdering=02

// SharedUserConfig is a second CRD of the group-version, holding a type of
// example/v1.
//
// Compatibility level 4: No compatibility is provided, the API can change at any point for any reason. These capabilities should not be used by applications needing long term support.
// +openshift:compatibility-gen:level=4
// +kubebuilder:object:root=true
// +kubebuilder:resource:path=shareduserconfigs,scope=Cluster
type SharedUserConfig struct {
	metav1.TypeMeta `+"`"+`json:",inline"`+"`"+`

	// metadata is the standard object's metadata.
	metav1.ObjectMeta `+"`"+`json:"metadata,omitempty"`+"`"+`

	// spec holds the desired configuration.
	// +required
	Spec SharedUserConfigSpec `+"`"+`json:"spec"`+"`"+`
}

// SharedUserConfigSpec holds a type of example/v1.
type SharedUserConfigSpec struct {
	// nested are entries as example/v1 defines them.
	// +optional
	Nested examplev1.NestedConfig `+"`"+`json:"nested,omitempty"`+"`"+`
}
`)
	return dir
}

// started returns a watcher of dir that ran its first, full cycle,
// after recording the declarations of the tree as Run does; it is closed
// when the test ends.
func started(t testing.TB, dir string) *Watcher {
	t.Helper()
	return startedWith(t, dir, Options{NewRun: newRun(dir)})
}

// startedWith is started with opts.
func startedWith(t testing.TB, dir string, opts Options) *Watcher {
	t.Helper()
	w, err := New(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	w.seed()
	if rep := w.Cycle(nil); rep.Err != nil {
		t.Fatalf("first cycle: %v", rep.Err)
	}
	return w
}

// rewriteImports makes the Go files copied from the tree at from import
// the packages of the tree at to (withSharedCRD names its own tree).
func rewriteImports(t testing.TB, from, to, rel, content string) string {
	if !strings.HasSuffix(rel, ".go") {
		return content
	}
	return strings.ReplaceAll(content, importPath(t, from)+"/", importPath(t, to)+"/")
}

// TestCyclesRegenerateTheCRDsReachingTheEdit checks the selection of a
// restricted cycle and its result: an edit of a type of one CRD
// regenerates that CRD only (the other CRD of its group-version, and the
// group-versions that do not reach the type, are left alone); an edit of
// a type two group-versions embed regenerates the CRDs of both that reach
// it; an edit of what is not a type declaration regenerates every CRD of
// the package. After each cycle the tree is what a one-shot run writes.
func TestCyclesRegenerateTheCRDsReachingTheEdit(t *testing.T) {
	dir := withSharedCRD(t, exampleTree(t, true, false))
	w := started(t, dir)
	const v1, v1alpha1 = "example.openshift.io/v1", "example.openshift.io/v1alpha1"
	steps := []struct {
		what      string
		edit      func() []string
		scope     []string
		kinds     map[string][]string
		notInKind map[string]string
	}{
		{"a doc comment of NotStableConfigTypeSpec",
			func() []string {
				return replace(t, dir, alphaTypes, "// newField needs no gate marker", "// newField needs no gate marker at all")
			},
			[]string{v1alpha1}, map[string][]string{v1alpha1: {"NotStableConfigType", "NotStableConfigTypeList", "NotStableConfigTypeSpec"}}, nil},
		{"a doc comment of NestedConfig, which both group-versions hold",
			func() []string {
				return replace(t, dir, stableTypes, "// entries are keyed by name.", "// entries are keyed by their name.")
			},
			[]string{v1, v1alpha1}, map[string][]string{
				v1:       {"NestedConfig", "StableConfigType", "StableConfigTypeList", "StableConfigTypeSpec"},
				v1alpha1: {"SharedUserConfig", "SharedUserConfigSpec"}}, nil},
		{"a doc comment of StableConfigTypeStatus, which only example/v1 holds",
			func() []string {
				return replace(t, dir, stableTypes, "type StableConfigTypeStatus struct {\n\t// ", "type StableConfigTypeStatus struct {\n\t// Edited. ")
			},
			[]string{v1}, map[string][]string{v1: {"StableConfigType", "StableConfigTypeList", "StableConfigTypeStatus"}}, nil},
		{"a function added to types_notstable.go",
			func() []string {
				return replace(t, dir, alphaTypes, "// NotStableConfigTypeSpec is", "func unused() {}\n\n// NotStableConfigTypeSpec is")
			},
			[]string{v1alpha1}, map[string][]string{}, nil},
	}
	for _, s := range steps {
		rep := w.Cycle(w.changedOf(setOf(s.edit())))
		if rep.Err != nil {
			t.Fatalf("%s: %v", s.what, rep.Err)
		}
		if !slices.Equal(rep.Scope, s.scope) {
			t.Errorf("%s: scope %v, want %v", s.what, rep.Scope, s.scope)
		}
		for gv, want := range s.kinds {
			if got, ok := rep.Kinds[gv]; !ok || !slices.Equal(got, want) {
				t.Errorf("%s: %s: root types %v (restricted %v), want %v", s.what, gv, got, ok, want)
			}
		}
		if len(s.kinds) == 0 && len(rep.Kinds) > 0 {
			t.Errorf("%s: restricted to %v, want every CRD of the package", s.what, rep.Kinds)
		}
		want, err := oneShot(t, dir)
		if err != nil {
			t.Fatal(err)
		}
		sameTree(t, s.what, want, testtree.Snapshot(t, dir))
	}
	if _, err := os.Stat(filepath.Join(dir, "example/v1alpha1/zz_generated.featuregated-crd-manifests/shareduserconfigs.example.openshift.io")); err != nil {
		t.Errorf("the shared CRD was not generated: %v", err)
	}
}
