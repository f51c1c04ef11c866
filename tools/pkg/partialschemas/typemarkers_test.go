package partialschemas

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// TestTypeMarkersOfOtherPackages: the type-level gate markers of a type
// of another group-version count, those of a plain package never do, and
// in the era of OwnPackageTypeMarkers (before 2025-11-05) neither does;
// each ignored marker is a warning naming it. Field markers count
// everywhere.
func TestTypeMarkersOfOtherPackages(t *testing.T) {
	base := testtree.Copy(t, filepath.Join("testdata", "fixtures", "gates"))
	mark := func(rel, decl, gate string) {
		p := filepath.Join(base, rel)
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		marker := `// +openshift:validation:FeatureGateAwareXValidation:featureGate=` + gate + `,rule="true",message="m"` + "\n"
		text := strings.Replace(string(data), decl, marker+decl, 1)
		if text == string(data) {
			t.Fatalf("%s has no %q", rel, decl)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mark("other/v1/types.go", "type Shared struct", "OtherTypeGate")
	mark("lib/lib.go", "type Helper struct", "LibTypeGate")
	f := loadTree(t, base, nil)
	for _, own := range []bool{false, true} {
		probs := &diag.List{}
		res, err := Run(Input{Discovery: f.disc, Universe: f.u, Tree: tree.New(), Problems: probs, OwnPackageTypeMarkers: own})
		if err != nil {
			t.Fatal(err)
		}
		var gates []string
		for _, v := range res.Versions {
			for _, c := range v.CRDs {
				if slices.Contains(c.Gates, "CrossGate") {
					gates = c.Gates
				}
			}
		}
		if !slices.Contains(gates, "LibGate") {
			t.Fatalf("own=%v: no CRD reaches both packages: %v", own, gates)
		}
		if got := slices.Contains(gates, "OtherTypeGate"); got == own {
			t.Errorf("own=%v: OtherTypeGate among the gates: %v", own, got)
		}
		if slices.Contains(gates, "LibTypeGate") {
			t.Errorf("own=%v: LibTypeGate among the gates", own)
		}
		warned := map[string]bool{}
		for _, d := range probs.Items() {
			if d.Severity == diag.Warning && strings.Contains(d.Message, "type-level markers are ignored") {
				warned[filepath.Base(filepath.Dir(d.File))+"/"+filepath.Base(d.File)] = true
			}
		}
		if !warned["lib/lib.go"] || warned["v1/types.go"] != own {
			t.Errorf("own=%v: warnings for %v", own, warned)
		}
	}
}
