package compat

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"
)

var updateRealSummary = flag.Bool("update-real-summary", false, "rewrite testdata/real-summary.json from the real trees")

// TestRealTrees compares two real API trees when hack/conformance-compat.sh
// names them (COMPAT_OLD_TREE, COMPAT_NEW_TREE) and checks the report's
// summary against testdata/real-summary.json. Without them it is skipped.
func TestRealTrees(t *testing.T) {
	oldDir, newDir := os.Getenv("COMPAT_OLD_TREE"), os.Getenv("COMPAT_NEW_TREE")
	if oldDir == "" || newDir == "" {
		t.Skip("COMPAT_OLD_TREE and COMPAT_NEW_TREE are not set; hack/conformance-compat.sh sets them")
	}
	start := time.Now()
	rep, err := Run(Options{Old: DirSource{Root: oldDir}, New: DirSource{Root: newDir}, PayloadDir: "payload-manifests/featuregates"})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("compared %d CRDs in %v", rep.Summary.CRDsCompared, time.Since(start))
	got, err := json.MarshalIndent(rep.Summary, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "real-summary.json")
	if *updateRealSummary {
		if err := os.WriteFile(golden, append(got, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != string(got)+"\n" {
		t.Errorf("summary differs from %s (rerun with -update-real-summary and review):\n%s", golden, got)
	}
}
