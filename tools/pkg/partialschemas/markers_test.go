package partialschemas

import (
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// TestTypeLevelMarkers pins the manifest fields and summary entries each
// type-level marker (docs/reference-rules.md, "Type markers") produces (one root type per row), the
// warnings for the root-type markers stage 1 ignores, the empty summary of
// a selected package without root types, and a group whose .codegen.yaml
// disables stage 1.
func TestTypeLevelMarkers(t *testing.T) {
	f := loadFixture(t, "markers", nil)
	// A package stage 1 does not process keeps an old summary file.
	f.write(t, "disabled/v1/"+SummaryFileName, "old: content\n")
	res, tr, probs := f.run(t)
	noErrors(t, probs)
	golden(t, "markers-result.txt", renderResult(f.base, res))
	golden(t, "markers-diagnostics.txt", renderDiags(probs.Items()))
	changes := changesOf(t, tr)
	golden(t, "markers-files.txt", renderChanges(f.base, changes))

	var emptySummary bool
	for _, c := range changes {
		rel := tree.Rel(f.base, c.Path)
		if strings.HasPrefix(rel, "disabled/") {
			t.Errorf("%s: stage 1 touched a disabled group", rel)
		}
		if rel == "empty/v1/"+SummaryFileName {
			emptySummary = c.Kind == tree.Create && len(c.New) == 0
		}
	}
	if !emptySummary {
		t.Errorf("empty/v1 has no zero-byte summary file")
	}
}
