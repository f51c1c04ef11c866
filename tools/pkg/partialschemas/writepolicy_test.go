package partialschemas

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

const (
	stableDir   = "v1/" + ManifestsDirName + "/stableconfigtypes.example.openshift.io"
	stableFile  = stableDir + "/AAA_ungated.yaml"
	summaryFile = "v1/" + SummaryFileName
)

// generated runs stage 1 on the example fixture, commits the result and
// then gives every partial manifest a schema, as stage 2 would.
func generated(t *testing.T) *fixture {
	t.Helper()
	f := loadFixture(t, "example", nil)
	_, tr, probs := f.run(t)
	noErrors(t, probs)
	commit(t, tr)
	paths, err := filepath.Glob(f.path("*/" + ManifestsDirName + "/*/*.yaml"))
	if err != nil || len(paths) != 4 {
		t.Fatalf("generated manifests: %v, %v", paths, err)
	}
	for _, p := range paths {
		rel, _ := filepath.Rel(f.base, p)
		f.write(t, rel, withSchema(t, f.read(t, rel), "stage 2 was here"))
	}
	return f
}

// withSchema adds a small schema to the single version of a manifest.
func withSchema(t *testing.T, content, description string) string {
	t.Helper()
	m, err := manifest.Parse([]byte(content))
	if err != nil {
		t.Fatal(err)
	}
	v := m["spec"].(map[string]any)["versions"].([]any)[0].(map[string]any)
	v["schema"] = map[string]any{"openAPIV3Schema": map[string]any{"type": "object", "description": description}}
	out, err := manifest.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// TestWritePolicy edits the existing AAA_ungated.yaml of the example in one
// way per case and checks whether stage 1 leaves it alone (schema kept) or
// rewrites it without schema.
func TestWritePolicy(t *testing.T) {
	f := generated(t)
	original := f.read(t, stableFile)
	want, err := os.ReadFile(filepath.Join("testdata", "reference", "example-"+stableFile))
	if err != nil {
		t.Fatal(err)
	}

	res, tr, probs := f.run(t)
	noErrors(t, probs)
	if changes := changesOf(t, tr); len(changes) != 0 {
		t.Fatalf("a second run changes files:\n%s", renderChanges(f.base, changes))
	}
	for _, v := range res.Versions {
		for _, c := range v.CRDs {
			for _, m := range c.Manifests {
				if m.Action != Unchanged {
					t.Errorf("%s: %s on an up-to-date tree", m.Path, m.Action)
				}
			}
		}
	}

	cases := []struct {
		name    string
		edit    func(string) string
		rewrite bool
	}{
		{"different schema", func(s string) string { return withSchema(t, s, "edited by hand") }, false},
		{"no schema", func(string) string { return string(want) }, false},
		{"empty maps and lists equal absent ones", func(s string) string {
			s = strings.Replace(s, "  name: stableconfigtypes", "  labels: {}\n  creationTimestamp: null\n  name: stableconfigtypes", 1)
			s = strings.Replace(s, "    plural: stableconfigtypes", "    plural: stableconfigtypes\n    shortNames: []", 1)
			return s + "status: {}\n"
		}, false},
		{"same content as JSON", func(s string) string {
			m, _ := manifest.Parse([]byte(s))
			data, _ := manifest.ToMap(m)
			return mustJSON(t, data)
		}, false},
		{"edited annotation", func(s string) string {
			return strings.Replace(s, "filename-operator: my-operator", "filename-operator: other-operator", 1)
		}, true},
		{"extra annotation", func(s string) string {
			return strings.Replace(s, "  annotations:\n", "  annotations:\n    added: by-hand\n", 1)
		}, true},
		{"missing subresource", func(s string) string {
			return strings.Replace(s, "    subresources:\n      status: {}\n", "", 1)
		}, true},
		{"two versions", func(s string) string {
			return s[:strings.Index(s, "  versions:\n")] + "  versions:\n  - name: v1\n    served: true\n    storage: true\n    subresources:\n      status: {}\n  - name: v2\n    served: true\n    storage: false\n"
		}, true},
		{"field a CRD does not have", func(s string) string {
			return strings.Replace(s, "  scope: Cluster\n", "  scope: Cluster\n  flavour: vanilla\n", 1)
		}, true},
		{"empty file", func(string) string { return "" }, true},
		{"whitespace only", func(string) string { return "\n  \n" }, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f.write(t, stableFile, c.edit(original))
			defer f.write(t, stableFile, original)
			_, tr, probs := f.run(t)
			noErrors(t, probs)
			changes := changesOf(t, tr)
			if !c.rewrite {
				if len(changes) != 0 {
					t.Fatalf("want the file left alone, got:\n%s", renderChanges(f.base, changes))
				}
				return
			}
			if len(changes) != 1 || changes[0].Path != f.path(stableFile) || changes[0].Kind != tree.Update {
				t.Fatalf("want one update of %s, got:\n%s", stableFile, renderChanges(f.base, changes))
			}
			if string(changes[0].New) != string(want) {
				t.Errorf("rewritten content:\n%s", tree.UnifiedDiff(stableFile, want, changes[0].New))
			}
		})
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	data, err := json.MarshalIndent(v, "", "\t")
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestUnparsableManifest: an existing file that is not YAML is an error
// naming the file; nothing is written for the CRD, and the version gets no
// summary, but other versions are processed.
func TestUnparsableManifest(t *testing.T) {
	f := generated(t)
	f.write(t, stableFile, "apiVersion: [unclosed\n")
	f.write(t, summaryFile, "stale\n")
	os.Remove(f.path(stableDir + "/Example.yaml"))
	res, tr, probs := f.run(t)
	got := renderDiags(probs.Items())
	if !strings.Contains(got, "error: "+stableFile+": the existing partial manifest is not valid YAML") {
		t.Errorf("diagnostics:\n%s", got)
	}
	for _, c := range changesOf(t, tr) {
		if strings.HasPrefix(tree.Rel(f.base, c.Path), "v1/") {
			t.Errorf("%s: %s despite the error", tree.Rel(f.base, c.Path), c.Kind)
		}
	}
	if !res.Versions[0].Failed || !res.Versions[0].CRDs[0].Failed || res.Versions[1].Failed {
		t.Errorf("failure flags:\n%s", renderResult(f.base, res))
	}
}

// TestCRDDirectoryCleanup covers stray files in a CRD directory (removed),
// a sub-directory there (error), stale CRD directories (removed when they
// hold only .yaml files, an error otherwise) and loose files in the
// manifests directory (warning, left alone).
func TestCRDDirectoryCleanup(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		// want lists "<kind> <path>" for every change, in order.
		want []string
		diag string
	}{
		{
			name:  "stray files in a CRD directory are removed",
			files: map[string]string{stableDir + "/Old.yaml": "x: 1\n", stableDir + "/notes.txt": "hello\n"},
			want:  []string{"delete " + stableDir + "/Old.yaml", "delete " + stableDir + "/notes.txt"},
		},
		{
			name:  "a sub-directory in a CRD directory is an error",
			files: map[string]string{stableDir + "/nested/AAA_ungated.yaml": "x: 1\n", stableDir + "/Old.yaml": "x: 1\n"},
			diag:  "error: " + stableDir + "/nested: is a directory inside the partial manifests of CRD stableconfigtypes.example.openshift.io, which hold only generated files: remove it",
		},
		{
			name:  "a stale CRD directory is removed",
			files: map[string]string{"v1/" + ManifestsDirName + "/gone.example.openshift.io/AAA_ungated.yaml": "x: 1\n", "v1/" + ManifestsDirName + "/gone.example.openshift.io/A.yaml": "x: 1\n"},
			want:  []string{"delete directory v1/" + ManifestsDirName + "/gone.example.openshift.io"},
		},
		{
			name:  "a stale directory with other content is an error",
			files: map[string]string{"v1/" + ManifestsDirName + "/gone.example.openshift.io/README.md": "keep\n"},
			diag:  "error: v1/" + ManifestsDirName + "/gone.example.openshift.io: belongs to no CRD of package",
		},
		{
			name:  "a loose file in the manifests directory is left alone",
			files: map[string]string{"v1/" + ManifestsDirName + "/README.md": "about\n"},
			diag:  "warning: v1/" + ManifestsDirName + "/README.md: is not a CRD directory; stage 1 leaves it alone",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := generated(t)
			for rel, content := range c.files {
				f.write(t, rel, content)
			}
			_, tr, probs := f.run(t)
			var got []string
			for _, ch := range changesOf(t, tr) {
				got = append(got, ch.Kind.String()+" "+filepath.ToSlash(tree.Rel(f.base, ch.Path)))
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("changes = %q, want %q", got, c.want)
			}
			diags := renderDiags(probs.Items())
			if c.diag == "" && diags != "" {
				t.Errorf("unexpected diagnostics:\n%s", diags)
			}
			if !strings.Contains(diags, c.diag) {
				t.Errorf("diagnostics lack %q:\n%s", c.diag, diags)
			}
		})
	}
}

// TestVerifyReportsStaleness prepares a generated tree with one of each
// kind of staleness, runs stage 1 on it and checks the report that
// tree.Changes and tree.Describe make of it, and that the disk did not
// change.
func TestVerifyReportsStaleness(t *testing.T) {
	f := generated(t)
	os.Remove(f.path(stableFile)) // missing file
	example := stableDir + "/Example.yaml"
	f.write(t, example, strings.Replace(f.read(t, example), "filename-operator: my-operator", "filename-operator: renamed", 1))
	f.write(t, stableDir+"/Stray.yaml", "x: 1\n")
	f.write(t, "v1/"+ManifestsDirName+"/gone.example.openshift.io/AAA_ungated.yaml", "x: 1\n")
	f.write(t, summaryFile, f.read(t, summaryFile)+"extra: line\n")
	// The v1alpha1 manifest has a stale schema, which stage 1 ignores.
	alpha := "v1alpha1/" + ManifestsDirName + "/notstableconfigtypes.example.openshift.io/Example.yaml"
	f.write(t, alpha, withSchema(t, f.read(t, alpha), "outdated"))

	before := testtree.Snapshot(t, f.base)
	_, tr, probs := f.run(t)
	noErrors(t, probs)
	changes := changesOf(t, tr)
	golden(t, "verify-report.txt", tree.Describe(changes, f.base))
	kinds := map[string]tree.ChangeKind{}
	for _, c := range changes {
		kinds[filepath.ToSlash(tree.Rel(f.base, c.Path))] = c.Kind
	}
	want := map[string]tree.ChangeKind{
		stableFile:                tree.Create,
		example:                   tree.Update,
		stableDir + "/Stray.yaml": tree.Delete,
		"v1/" + ManifestsDirName + "/gone.example.openshift.io": tree.DeleteDir,
		summaryFile: tree.Update,
	}
	if !reflect.DeepEqual(kinds, want) {
		t.Errorf("changes = %v, want %v", kinds, want)
	}
	after := testtree.Snapshot(t, f.base)
	if !reflect.DeepEqual(before, after) {
		t.Errorf("computing the changes wrote to disk")
	}
}
