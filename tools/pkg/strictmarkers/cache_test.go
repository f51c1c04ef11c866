package strictmarkers

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/goload"
)

// TestLineCacheKeepsFindingsOfUnchangedTexts scans typesGo's findings
// through one LineCache three times: as they are, again (every line from
// the cache), and after an edit that moves every line down and changes
// one marker. Each scan reports what a scan without cache reports, at
// the lines' present positions, gate names included.
func TestLineCacheKeepsFindingsOfUnchangedTexts(t *testing.T) {
	dir, _ := loadTypes(t)
	p := filepath.Join(dir, "v1", "types.go")
	importPath := "github.com/gatedcrd/gatedcrd/tools/pkg/strictmarkers/testdata/" + filepath.Base(dir) + "/v1"
	cache := NewLineCache()
	report := func(cache *LineCache) string {
		t.Helper()
		u, err := goload.Load(dir, []string{importPath})
		if err != nil {
			t.Fatal(err)
		}
		var problems diag.List
		in := Input{Universe: u, KnownGates: []string{"Example", "Example2"}, PayloadDir: "payload"}
		ScanWith(u, cache).Report(in, &problems)
		var b strings.Builder
		for _, d := range problems.Items() {
			b.WriteString(d.String() + "\n")
		}
		return b.String()
	}
	check := func(what string, wantChecked, wantReused int) {
		t.Helper()
		checked, reused := cache.Checked, cache.Reused
		got, want := report(cache), report(nil)
		if got != want || want == "" {
			t.Errorf("%s:\n%s\nwant:\n%s", what, got, want)
		}
		if cache.Checked-checked != wantChecked || cache.Reused-reused != wantReused {
			t.Errorf("%s: %d checked, %d reused; want %d and %d", what, cache.Checked-checked, cache.Reused-reused, wantChecked, wantReused)
		}
	}
	lines := strings.Count(typesGo, "// +")
	check("first scan", lines, 0)
	check("second scan", 0, lines)
	edited := "// Package v1 moves every line down.\n" + strings.Replace(typesGo, "+kubebuilder:Required", "+kubebuilder:Requird", 1)
	if err := os.WriteFile(p, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	check("after the edit", 1, lines-1)
}
