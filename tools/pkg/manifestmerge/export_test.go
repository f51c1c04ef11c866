package manifestmerge

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/features/featuregate"
	fgpayload "github.com/gatedcrd/gatedcrd/features/payload"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
)

// TestOutputCoversExample reads the example group's committed output back:
// every tuple gets exactly one file of a CRD that is not gated as a whole,
// and the type-gated CRD covers exactly the tuples where its gate is on.
func TestOutputCoversExample(t *testing.T) {
	dir, err := fgpayload.ReadDir(filepath.Join("..", "..", "..", "payload-manifests", "featuregates"))
	if err != nil {
		t.Fatal(err)
	}
	tuples, err := Tuples(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(tuples) == 0 {
		t.Fatal("no tuples")
	}
	for _, tc := range []struct {
		versionDir string
		want       func(Tuple) bool
	}{
		{"v1", func(Tuple) bool { return true }},
		{"v1alpha1", func(t Tuple) bool { return t.Custom() || t.Enabled["Example"] }},
	} {
		outDir := filepath.Join("..", "..", "..", "example", tc.versionDir, OutputDirName)
		entries, err := os.ReadDir(outDir)
		if err != nil {
			t.Fatal(err)
		}
		covered := map[string][]string{}
		for _, e := range entries {
			if !strings.HasSuffix(e.Name(), outputExt) {
				continue
			}
			data, err := os.ReadFile(filepath.Join(outDir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			obj, err := manifest.Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			ann := map[string]string{}
			for k, v := range annotationsOf(obj) {
				ann[k], _ = v.(string)
			}
			for _, tu := range tuples {
				ok, err := OutputCovers(ann, tu)
				if err != nil {
					t.Fatal(err)
				}
				if ok {
					covered[tu.String()] = append(covered[tu.String()], e.Name())
				}
			}
		}
		for _, tu := range tuples {
			files := covered[tu.String()]
			switch {
			case tc.want(tu) && len(files) != 1:
				t.Errorf("%s: tuple %s is covered by %v, want exactly one file", tc.versionDir, tu, files)
			case !tc.want(tu) && len(files) != 0:
				t.Errorf("%s: tuple %s is covered by %v, want none", tc.versionDir, tu, files)
			}
		}
	}
}

func TestOutputCovers(t *testing.T) {
	hypershift, selfManaged := featuregate.Hypershift, featuregate.SelfManagedHA
	on := map[string]bool{"A": true}
	tp := Tuple{Version: 5, Profile: selfManaged, FeatureSet: "TechPreviewNoUpgrade", Enabled: on}
	def := Tuple{Version: 5, Profile: selfManaged, FeatureSet: "Default", Enabled: map[string]bool{}}
	custom := Tuple{Version: 5, Profile: hypershift, FeatureSet: "CustomNoUpgrade"}
	for _, tc := range []struct {
		name string
		ann  map[string]string
		t    Tuple
		want bool
	}{
		{"no annotation covers everything", nil, def, true},
		{"other profile", map[string]string{hypershift.AnnotationKey(): "true"}, def, false},
		{"profile not true", map[string]string{selfManaged.AnnotationKey(): "false"}, def, false},
		{"version listed", map[string]string{manifest.MajorVersionAnnotation: "4,5"}, def, true},
		{"version not listed", map[string]string{manifest.MajorVersionAnnotation: "4,6"}, def, false},
		{"feature set listed", map[string]string{manifest.FeatureSetAnnotation: "Default,OKD"}, def, true},
		{"feature set not listed", map[string]string{manifest.FeatureSetAnnotation: "OKD"}, def, false},
		{"gate pass-through, gate on", map[string]string{manifest.FeatureGatePassThrough: "A"}, tp, true},
		{"gate pass-through, gate off", map[string]string{manifest.FeatureGatePassThrough: "A"}, def, false},
		{"gate pass-through, CustomNoUpgrade", map[string]string{manifest.FeatureGatePassThrough: "A"}, custom, true},
		{"feature set wins over pass-through", map[string]string{manifest.FeatureGatePassThrough: "A", manifest.FeatureSetAnnotation: "Default"}, def, true},
	} {
		got, err := OutputCovers(tc.ann, tc.t)
		if err != nil || got != tc.want {
			t.Errorf("%s: got %v, %v; want %v", tc.name, got, err, tc.want)
		}
	}
	if _, err := OutputCovers(map[string]string{manifest.MajorVersionAnnotation: "4,x"}, def); err == nil {
		t.Error("a malformed major-version list is accepted")
	}
}
