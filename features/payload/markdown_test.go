package payload

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/features/featuregate"
)

type gates = []featuregate.FeatureGateName

const on = `<span style="background-color: #519450">Enabled</span> `

// TestFeaturesMarkdownSplitColumns pins the exact bytes for a directory where
// one (feature set, profile) is split by version: only its columns carry the
// range, columns are ordered by feature set, profile, then first version, and
// rows by number of enabled columns, then name.
func TestFeaturesMarkdownSplitColumns(t *testing.T) {
	d := &Directory{Manifests: []Manifest{
		{FileName: "c", ClusterProfile: featuregate.Hypershift, FeatureSet: featuregate.TechPreviewNoUpgrade,
			Versions: []int{5, 6, 7, 8, 9, 10}, Enabled: gates{"Gb", "Gd", "Ga"}, Disabled: gates{"Gc", "Aa"}},
		{FileName: "b", ClusterProfile: featuregate.Hypershift, FeatureSet: featuregate.TechPreviewNoUpgrade,
			Versions: []int{4}, Enabled: gates{"Ga", "Gd"}, Disabled: gates{"Aa", "Gb", "Gc"}},
		{FileName: "a", ClusterProfile: featuregate.Hypershift, FeatureSet: featuregate.Default,
			Versions: []int{4, 5, 6, 7, 8, 9, 10}, Enabled: gates{"Aa", "Ga"}, Disabled: gates{"Gb", "Gc", "Gd"}},
	}}
	want := "| FeatureGate | Default on Hypershift | TechPreviewNoUpgrade on Hypershift (4) | TechPreviewNoUpgrade on Hypershift (5-10)  |\n" +
		"| ------ | --- | --- | ---  |\n" +
		"| Gc| | |  |\n" +
		"| Aa| " + on + "| |  |\n" +
		"| Gb| | | " + on + " |\n" +
		"| Gd| | " + on + "| " + on + " |\n" +
		"| Ga| " + on + "| " + on + "| " + on + " |\n"
	if got := string(RenderFeaturesMarkdown(d)); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	// WithGateDocs links each gate to its lifecycle page and changes
	// nothing else.
	linked := strings.ReplaceAll(want, "| Ga|", "| [Ga](docs/gates/Ga.md)|")
	linked = strings.ReplaceAll(linked, "| Aa|", "| [Aa](docs/gates/Aa.md)|")
	linked = strings.ReplaceAll(linked, "| Gb|", "| [Gb](docs/gates/Gb.md)|")
	linked = strings.ReplaceAll(linked, "| Gc|", "| [Gc](docs/gates/Gc.md)|")
	linked = strings.ReplaceAll(linked, "| Gd|", "| [Gd](docs/gates/Gd.md)|")
	if got := string(RenderFeaturesMarkdown(d, WithGateDocs("docs/gates"))); got != linked {
		t.Errorf("with gate docs, got:\n%s\nwant:\n%s", got, linked)
	}
}

// TestFeaturesMarkdownUnsplitHeader checks the header of a full, unsplit
// directory: the plain reference titles, in feature set then profile order.
func TestFeaturesMarkdownUnsplitHeader(t *testing.T) {
	d, err := ReadFiles(renderTest(t, registryWithoutVersions(t)))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(RenderFeaturesMarkdown(d)), "\n")
	wantHeader := "| FeatureGate | Default on Hypershift | Default on SelfManagedHA | DevPreviewNoUpgrade on Hypershift | " +
		"DevPreviewNoUpgrade on SelfManagedHA | OKD on Hypershift | OKD on SelfManagedHA | " +
		"TechPreviewNoUpgrade on Hypershift | TechPreviewNoUpgrade on SelfManagedHA  |\n"
	if lines[0] != wantHeader {
		t.Errorf("header %q\nwant   %q", lines[0], wantHeader)
	}
	if want := "| ------ | --- | --- | --- | --- | --- | --- | --- | ---  |\n"; lines[1] != want {
		t.Errorf("separator %q, want %q", lines[1], want)
	}
	// The last element after the final newline is empty: no blank line.
	if len(lines) != 2+2+1 || lines[len(lines)-1] != "" {
		t.Errorf("want 2 header lines, 2 rows and nothing after the last newline: %q", lines)
	}
	if !strings.HasPrefix(lines[2], "| Hosted|") || !strings.HasPrefix(lines[3], "| Everywhere|") {
		t.Errorf("rows not ordered by enabled count: %q", lines[2:])
	}
}

func registryWithoutVersions(t *testing.T) *featuregate.Registry {
	t.Helper()
	r := featuregate.NewRegistry()
	for name, enable := range map[featuregate.FeatureGateName]func(*featuregate.FeatureGateBuilder){
		"Everywhere": func(b *featuregate.FeatureGateBuilder) {
			b.EnableIn(featuregate.Default, featuregate.OKD, featuregate.TechPreviewNoUpgrade, featuregate.DevPreviewNoUpgrade)
		},
		"Hosted": func(b *featuregate.FeatureGateBuilder) {
			b.EnableForClusterProfile(featuregate.Hypershift, featuregate.DevPreviewNoUpgrade)
		},
	} {
		b := r.NewFeatureGate(name).OwningComponent("c").ContactPerson("p").
			ProductScope(featuregate.ProductScopeOCP).EnhancementPR("https://github.com/openshift/enhancements/pull/2")
		enable(b)
		if _, err := b.Register(); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

func TestVerifyFeaturesMarkdown(t *testing.T) {
	d, err := ReadFiles(renderTest(t, testRegistry(t)))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "features.md")
	var se *StaleError
	if err := VerifyFeaturesMarkdown(d, path); !errors.As(err, &se) || se.Differences[0].Kind != Missing {
		t.Errorf("missing file: got %v", err)
	}
	if err := WriteFeaturesMarkdown(d, path); err != nil {
		t.Fatal(err)
	}
	if err := VerifyFeaturesMarkdown(d, path); err != nil {
		t.Errorf("after writing: %v", err)
	}
	data, _ := os.ReadFile(path)
	lines := strings.SplitAfter(string(data), "\n")
	lines[3] = "| Edited|\n"
	must(t, os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644))
	err = VerifyFeaturesMarkdown(d, path)
	if !errors.As(err, &se) || se.Differences[0].Kind != Changed || !strings.Contains(err.Error(), "line 4") ||
		!strings.Contains(err.Error(), path) {
		t.Errorf("edited file: got %v, want a change at line 4 naming %s", err, path)
	}
}
