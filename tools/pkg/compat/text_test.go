package compat

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/features/featuregate"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/*.txt")

// TestTextReport pins the text report (docs/breaking-changes.md shows it): a gate
// promotion that merges files, an enum value removed, a field removal
// accepted in .codegen.yaml and a stale acceptance.
func TestTextReport(t *testing.T) {
	h := newHistory(t)
	h.commit(merge(payload(t, map[string][]featuregate.FeatureSetName{"WidgetColours": preview}), gated("WidgetColours"), snapshot{
		outDir + "widgets-Default.crd.yaml": crdFile(t, "Default,OKD", object(props{"size": str(), "legacy": str(), "mode": enum("Fast", "Slow")})),
		outDir + "widgets-TechPreviewNoUpgrade.crd.yaml": crdFile(t, "CustomNoUpgrade,DevPreviewNoUpgrade,TechPreviewNoUpgrade",
			object(props{"size": str(), "legacy": str(), "mode": enum("Fast", "Slow"), "colour": str()})),
	}))
	cur := merge(payload(t, map[string][]featuregate.FeatureSetName{"WidgetColours": stable}), gated("WidgetColours"), snapshot{
		outDir + "widgets.crd.yaml": crdFile(t, "", object(props{"size": str(), "mode": enum("Fast"), "colour": str()})),
		"widgets/.codegen.yaml": `compat:
  accepted:
  - crd: widgets.example.io
    check: existingFieldRemoval
    path: ^.spec.legacy
    reason: deprecated in 4.12, never read since
  - crd: widgets.example.io
    check: maxLength
    path: ^.spec.size
    reason: a limit that has since been reverted
`,
	})
	h.commit(cur)
	rep := h.compare("HEAD~1")
	var out bytes.Buffer
	if err := rep.WriteText(&out); err != nil {
		t.Fatal(err)
	}
	got := strings.ReplaceAll(out.String(), h.Dir, ".")
	golden := filepath.Join("testdata", "report.txt")
	if *updateGolden {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("text report differs from %s (rerun with -update and review):\n%s", golden, got)
	}
}
