package schemapatch

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
)

const mergedOutput = mergedHead + `    api-approved.openshift.io: https://example.com/pull/1
    api.openshift.io/merged-by-featuregates: "true"
  name: widgets.example.com
spec:
  group: example.com
  names:
    kind: Widget
  versions:
  - name: v1
`

func TestLooksMerged(t *testing.T) {
	versionDir := filepath.FromSlash("/base/widgets/v1")
	out := filepath.Join(versionDir, manifest.MergedManifestsDirName, "a.crd.yaml")
	dirs := map[string]bool{versionDir: true}
	for _, c := range []struct {
		name, path, data string
		want             bool
	}{
		{"stage 3 output", out, mergedOutput, true},
		{"not in an output directory", filepath.Join(versionDir, "a.crd.yaml"), mergedOutput, false},
		{"output directory of no version", filepath.Join("/base/other", manifest.MergedManifestsDirName, "a.crd.yaml"), mergedOutput, false},
		{"annotation false", out, strings.Replace(mergedOutput, `: "true"`, `: "false"`, 1), false},
		{"annotation not under annotations", out, mergedHead + "    a: b\n  name: x\n    api.openshift.io/merged-by-featuregates: \"true\"\n", false},
		{"other head", out, "kind: CustomResourceDefinition\n" + mergedOutput, false},
		{"two documents", out, mergedOutput + "---\nkind: Other\n", false},
	} {
		if got := looksMerged(c.path, []byte(c.data), dirs); got != c.want {
			t.Errorf("%s: looksMerged = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestSettle: a presumed file stage 3 rewrote with the same bytes is
// settled without a word; any other one gets what Run reports about it,
// and one that is really a manifest to patch is an error unless stage 3
// replaced it.
func TestSettle(t *testing.T) {
	path := filepath.FromSlash("/base/widgets/v1/" + manifest.MergedManifestsDirName + "/a.crd.yaml")
	// A later metadata key drops the merged annotation (YAML keeps the
	// last of duplicate keys).
	overridden := mergedOutput + "metadata:\n  name: widgets.example.com\n"
	broken := mergedOutput + "status: [\n"
	for _, c := range []struct {
		name, data string
		stage3     func(string) ([]byte, bool)
		want       string
	}{
		{"rewritten alike", mergedOutput, func(string) ([]byte, bool) { return []byte(mergedOutput), true }, ""},
		{"valid, no stage 3", mergedOutput, nil, ""},
		{"broken, rewritten", broken, func(string) ([]byte, bool) { return []byte(mergedOutput), true }, "warning: widgets/v1/zz_generated.crd-manifests/a.crd.yaml: not a YAML object, so not a CRD manifest; skipped"},
		{"overridden, untouched", overridden, func(string) ([]byte, bool) { return nil, false }, "error: widgets/v1/zz_generated.crd-manifests/a.crd.yaml: begins as a merged manifest of stage 3"},
		{"overridden, removed", overridden, func(string) ([]byte, bool) { return nil, true }, ""},
	} {
		r := &Result{Presumed: []*manifest.File{{Path: path, Data: []byte(c.data)}}}
		var list diag.List
		r.Settle(filepath.FromSlash("/base"), &list, c.stage3)
		var got []string
		for _, d := range list.Items() {
			got = append(got, d.Severity.String()+": "+d.String())
		}
		if r.Presumed != nil {
			t.Errorf("%s: Presumed not dropped", c.name)
		}
		switch {
		case c.want == "" && len(got) > 0:
			t.Errorf("%s: got %q, want no problem", c.name, got)
		case c.want != "" && (len(got) != 1 || !strings.HasPrefix(got[0], c.want)):
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}
