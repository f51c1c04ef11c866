package partialschemas

import (
	"reflect"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// TestGateDiscovery pins the gate entries the type walk finds for every
// marker that names gates (docs/reference-rules.md, "Gate discovery") and every way of reaching a type
// (pointers to named non-struct types, map keys and values, slice
// elements, embedded and anonymous structs, recursive types, other API
// packages, plain packages, aliases), the stop points (runtime.Object,
// metav1.Time, Quantity, IntOrString, untagged and json:"-" fields), and a
// type-gated CRD with nested gates. The golden file holds the written
// files and the diagnostics.
func TestGateDiscovery(t *testing.T) {
	f := loadFixture(t, "gates", nil)
	res, tr, probs := f.run(t)
	noErrors(t, probs)
	golden(t, "gates-result.txt", renderResult(f.base, res))
	golden(t, "gates-diagnostics.txt", renderDiags(probs.Items()))
	golden(t, "gates-files.txt", renderChanges(f.base, changesOf(t, tr)))

	var gadget, gizmo *CRD
	for _, v := range res.Versions {
		for _, c := range v.CRDs {
			switch c.Kind {
			case "Gadget":
				gadget = c
			case "Gizmo":
				gizmo = c
			}
		}
	}
	if gadget == nil || gizmo == nil {
		t.Fatalf("CRDs missing from the result:\n%s", renderResult(f.base, res))
	}
	wantGadget := []string{
		"AfterLineCommentGate", "AliasGate", "AliasTargetGate", "AnonGate", "BraceGate", "CrossGate",
		"EmbeddedGate", "EnumFieldGate", "EnumTypeGate", "FarGate", "FieldGate", "GroupedGate",
		"InnerGate", "KeyGate", "LibGate", "MaxA", "MaxB", "MaxTypeGate", "OuterGate", "PtrEnumGate",
		"RecursiveGate", "ReqA+ReqB", "ReqB+ReqA", "SliceElemGate", "Solo", "TypeGate", "ValueGate",
		"XFieldGate", "XTypeGate",
	}
	if !reflect.DeepEqual(gadget.Gates, wantGadget) {
		t.Errorf("Gadget gates:\n got  %q\n want %q", gadget.Gates, wantGadget)
	}
	if len(gadget.TopLevelGates) != 0 || gadget.Manifests[0].Entry != "" {
		t.Errorf("Gadget is not type-gated: want AAA_ungated first, no top-level gates")
	}
	if want := []string{"NestedGate", "TopGate", "TopGate+Extra"}; !reflect.DeepEqual(gizmo.Gates, want) {
		t.Errorf("Gizmo gates = %q, want %q", gizmo.Gates, want)
	}
	if want := []string{"TopGate"}; !reflect.DeepEqual(gizmo.TopLevelGates, want) {
		t.Errorf("Gizmo top-level gates = %q, want %q", gizmo.TopLevelGates, want)
	}
	for _, m := range gizmo.Manifests {
		if m.Entry == "" {
			t.Errorf("type-gated Gizmo has an ungated manifest")
		}
	}
	for _, d := range probs.Items() {
		for _, never := range []string{"IgnoredGate", "TrailingGate", "InFunctionGate", "LineCommentGate\n"} {
			if strings.Contains(d.String(), never) {
				t.Errorf("diagnostic mentions %s: %s", never, d)
			}
		}
	}
}

// TestOutputIndependentOfFilter runs stage 1 for gates/v1 with and without
// --api-group-versions; gates/v1 uses a type of other/v1, which the filter
// leaves out of the roots. The files written for gates/v1 must be the
// same bytes.
func TestOutputIndependentOfFilter(t *testing.T) {
	all := loadFixture(t, "gates", nil)
	only := loadFixture(t, "gates", []string{"gates.example.io/v1"})
	if n := len(only.u.Roots); n != 1 {
		t.Fatalf("filtered universe has %d roots, want 1", n)
	}
	_, trAll, pAll := all.run(t)
	_, trOnly, pOnly := only.run(t)
	noErrors(t, pAll)
	noErrors(t, pOnly)
	render := func(f *fixture, tr *tree.Tree) string {
		var keep []tree.Change
		for _, c := range changesOf(t, tr) {
			if strings.HasPrefix(tree.Rel(f.base, c.Path), "gates/") {
				keep = append(keep, c)
			}
		}
		return renderChanges(f.base, keep)
	}
	a, b := render(all, trAll), render(only, trOnly)
	if a != b {
		t.Errorf("output differs with the filter:\n%s", tree.UnifiedDiff("gates/v1", []byte(a), []byte(b)))
	}
	if !strings.Contains(a, "CrossGate.yaml") {
		t.Errorf("the gate from other/v1 was not found")
	}
}
