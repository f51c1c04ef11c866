package schemapatch

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// TestEveryManifestAsIfAlone: generations share the views and schemas of
// gate-independent types, so each manifest must get exactly the bytes a
// run holding only that manifest (one generation, nothing shared) gives
// it. The fixture nests gate-dependent types under shared ones (Widget
// over WidgetSpec; GadgetSpec over SharedSettings and Speed), and an
// added Gadget partial for Example2 makes GadgetSpec shared by three gate
// sets of which only Example2 turns on a field deep in its closure
// (SharedSettings.turbo) and widens an enum (Speed).
func TestEveryManifestAsIfAlone(t *testing.T) {
	base := prepare(t, "gates")
	gadgets := filepath.Join(base, "widgets/v1/zz_generated.featuregated-crd-manifests/gadgets.widgets.example.io")
	extra := filepath.Join(gadgets, "Example2.yaml")
	if err := os.WriteFile(extra, []byte(partialManifest("widgets.example.io", "gadgets", "Gadget", "v1", "Example2")), 0o644); err != nil {
		t.Fatal(err)
	}
	l := load(t, base)
	_, together := l.mustRun(t)
	all := yamlFiles(t, together, base)

	turbo := "spec.versions.0.schema.openAPIV3Schema.properties.spec.properties.shared.properties.turbo"
	for _, f := range []string{"Example.yaml", "Example2.yaml"} {
		_, on := lookup(parseFile(t, together, filepath.Join(gadgets, f)), turbo)
		if on != (f == "Example2.yaml") {
			t.Errorf("gadgets %s: turbo present = %v", f, on)
		}
	}

	for _, rel := range sortedKeys(all) {
		tr := tree.New()
		for _, other := range sortedKeys(all) {
			if other != rel {
				tr.Remove(filepath.Join(base, filepath.FromSlash(other)))
			}
		}
		list := &diag.List{}
		if _, err := Run(Input{Discovery: l.discovery, Universe: l.universe, Tree: tr, Problems: list}); err != nil {
			t.Fatal(err)
		}
		if list.HasErrors() {
			t.Fatalf("%s alone: %v", rel, list.Err())
		}
		if alone := yamlFiles(t, tr, base)[rel]; alone != all[rel] {
			t.Errorf("%s differs from a run holding only this manifest:\n--- together\n%s\n--- alone\n%s", rel, all[rel], alone)
		}
	}
}

// TestViewsSharedByActivation: a gate-dependent type's view is built once
// per activation of the gates its markers name (ThingSpec's: Example), so
// gate sets that agree on them share it, and a set that does not builds
// its own.
func TestViewsSharedByActivation(t *testing.T) {
	decls := `
type ThingSpec struct {
	// name is gated.
	// +openshift:enable:FeatureGate=Example
	// +optional
	Name string ` + "`json:\"name,omitempty\"`" + `
}
`
	views := func(gates ...[]string) int {
		t.Helper()
		res, _ := load(t, write(t, thingsAPI(decls, gates...))).mustRun(t)
		if res.GateSets != len(gates) {
			t.Fatalf("gate sets = %d, want %d", res.GateSets, len(gates))
		}
		return res.Views
	}
	one := views([]string{""})
	two := views([]string{""}, []string{"Example"})
	four := views([]string{""}, []string{"Example"}, []string{"Example2"}, []string{"Example", "Example2"})
	if two != one+1 {
		t.Errorf("views with Example on and off = %d, want %d (one more than with it off only)", two, one+1)
	}
	if four != two {
		t.Errorf("views with Example2 added to both = %d, want %d (Example2 is not ThingSpec's)", four, two)
	}
}
