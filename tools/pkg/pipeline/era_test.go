package pipeline_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/features/payload"
	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
	"github.com/gatedcrd/gatedcrd/tools/pkg/pipeline"
)

// preVersionCorpus copies the corpus and rewrites its payload directory in
// the format of the reference before February 2026, as operator
// repositories keep it: featureGate-<Profile>-<FeatureSet>.yaml, no
// major-version or feature-set annotation, "#" comment lines in the JSON.
// drop removes a gate from every payload file.
func preVersionCorpus(t *testing.T, drop string) string {
	t.Helper()
	dir := testtree.Copy(t, "../../internal/corpus/testdata/base")
	payloadDir := filepath.Join(dir, pipeline.DefaultPayloadDir)
	entries, err := os.ReadDir(payloadDir)
	if err != nil {
		t.Fatal(err)
	}
	annotation := regexp.MustCompile(`(?m),\n\s*"release.openshift.io/(feature-set|major-version)": "[^"]*"`)
	versionPrefix := regexp.MustCompile(`^featureGate-\d+(-\d+)?-`)
	for _, e := range entries {
		old := filepath.Join(payloadDir, e.Name())
		data, err := os.ReadFile(old)
		if err != nil {
			t.Fatal(err)
		}
		text := annotation.ReplaceAllString(string(data), "")
		text = strings.Replace(text, `"metadata": {`, "# written by hack/update-featuregates.sh\n    \"metadata\": {", 1)
		if drop != "" {
			text = regexp.MustCompile(`\{\s*"name": "`+drop+`"\s*\},?`).ReplaceAllString(text, "")
		}
		if strings.Contains(text, "major-version") || strings.Contains(text, "feature-set") {
			t.Fatalf("%s: annotations left:\n%s", e.Name(), text)
		}
		must(t, os.Remove(old))
		must(t, os.WriteFile(filepath.Join(payloadDir, versionPrefix.ReplaceAllString(e.Name(), "featureGate-")), []byte(text), 0o644))
	}
	return dir
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestPreVersionPayload: a tree whose payload directory is in the
// pre-version format regenerates: the era is detected, and the corpus'
// CRD (different in every feature set) keeps its files, one per feature
// set with a single feature-set name, as the reference of that era chose
// them.
func TestPreVersionPayload(t *testing.T) {
	dir := preVersionCorpus(t, "")
	r := pipeline.New(pipeline.Options{BaseDir: dir, PayloadDir: pipeline.DefaultPayloadDir})
	changes, err := r.Generate()
	if err != nil {
		t.Fatalf("%v\n%v", err, r.Problems.Err())
	}
	if d, err := r.Payload(); err != nil || d.Era != payload.Era202601 {
		t.Fatalf("payload read as %v, %v; want era 2026-01", d, err)
	}
	if changes.Stale() {
		t.Errorf("the pre-version rules change the corpus:\n%s", changes.Describe())
	}
}

// TestStrictMarkersReadPreVersionGates: strict mode takes the gate names
// from a pre-version payload directory too, so a marker naming a gate the
// payload lacks is reported, and no "cannot check" warning appears.
func TestStrictMarkersReadPreVersionGates(t *testing.T) {
	for _, drop := range []string{"", "WidgetLimits"} {
		dir := preVersionCorpus(t, drop)
		r := pipeline.New(pipeline.Options{BaseDir: dir, PayloadDir: pipeline.DefaultPayloadDir, Stages: pipeline.PartialSchemas})
		d, err := r.Discover()
		if err != nil {
			t.Fatalf("%v\n%v", err, r.Problems.Err())
		}
		l, err := d.Load()
		if err != nil {
			t.Fatalf("%v\n%v", err, r.Problems.Err())
		}
		_, _ = l.CheckMarkers() // strict findings may be errors or warnings
		var text []string
		for _, p := range r.Problems.Items() {
			text = append(text, p.String())
		}
		all := strings.Join(text, "\n")
		if strings.Contains(all, "cannot check FeatureGate names") {
			t.Errorf("drop %q: strict mode could not read the pre-version payload:\n%s", drop, all)
		}
		if reported := strings.Contains(all, "WidgetLimits"); reported != (drop != "") {
			t.Errorf("drop %q: WidgetLimits reported: %v\n%s", drop, reported, all)
		}
	}
}

// TestOptionsEra: a chosen era reads the payload in its format; one that
// does not fit the directory fails naming what is missing.
func TestOptionsEra(t *testing.T) {
	t.Run("2026-02 on versioned files", func(t *testing.T) {
		dir := testtree.Copy(t, "../../internal/corpus/testdata/base")
		r := pipeline.New(pipeline.Options{BaseDir: dir, PayloadDir: pipeline.DefaultPayloadDir, Era: payload.Era202602})
		changes, err := r.Generate()
		if err != nil {
			t.Fatalf("%v\n%v", err, r.Problems.Err())
		}
		if d, _ := r.Payload(); d.Era != payload.Era202602 {
			t.Errorf("payload read as era %s", d.Era)
		}
		if changes.Stale() {
			t.Errorf("2026-02 changes the corpus:\n%s", changes.Describe())
		}
	})
	t.Run("2026-01 on versioned files", func(t *testing.T) {
		dir := testtree.Copy(t, "../../internal/corpus/testdata/base")
		r := pipeline.New(pipeline.Options{BaseDir: dir, PayloadDir: pipeline.DefaultPayloadDir, Era: payload.Era202601})
		if _, err := r.Generate(); err == nil {
			t.Fatal("no error")
		}
		if msg := r.Problems.Err().Error(); !strings.Contains(msg, "featureGate-Hypershift-Default.yaml is missing") {
			t.Errorf("error %q does not name the missing file", msg)
		}
	})
}

// TestConfiguredEra: referenceEra of .gatedcrd.yaml picks the era when
// the options do not; the options win over it.
func TestConfiguredEra(t *testing.T) {
	dir := testtree.Copy(t, "../../internal/corpus/testdata/base")
	testtree.Add(t, dir, map[string]string{".gatedcrd.yaml": "referenceEra: \"2026-02\"\n"})
	r := pipeline.New(pipeline.Options{BaseDir: dir, PayloadDir: pipeline.DefaultPayloadDir})
	if _, err := r.Generate(); err != nil {
		t.Fatalf("%v\n%v", err, r.Problems.Err())
	}
	if d, _ := r.Payload(); d.Era != payload.Era202602 {
		t.Errorf("configured 2026-02: payload read as era %s", d.Era)
	}
	r = pipeline.New(pipeline.Options{BaseDir: dir, PayloadDir: pipeline.DefaultPayloadDir, Era: payload.Era202603})
	if _, err := r.Generate(); err != nil {
		t.Fatalf("%v\n%v", err, r.Problems.Err())
	}
	if d, _ := r.Payload(); d.Era != payload.Era202603 {
		t.Errorf("option 2026-03 over configured 2026-02: payload read as era %s", d.Era)
	}
}
