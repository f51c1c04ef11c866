package manifestmerge

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/merge"
	"sigs.k8s.io/structured-merge-diff/v6/typed"

	"github.com/gatedcrd/gatedcrd/internal/realtrees"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
)

// specSchemaManifest returns a partial manifest whose v1 schema has the
// given YAML (indented as the content of properties.spec) and the given
// version-level YAML (indented as the content of the version entry).
func specSchemaManifest(specSchema, versionExtra string) string {
	var b strings.Builder
	b.WriteString(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.openshift.io
spec:
  group: example.openshift.io
  names:
    kind: Widget
    plural: widgets
  scope: Cluster
  versions:
  - name: v1
`)
	if versionExtra != "" {
		b.WriteString(indent(versionExtra, "    "))
	}
	if specSchema != "" {
		b.WriteString("    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          spec:\n")
		b.WriteString(indent(specSchema, "            "))
	}
	return b.String()
}

func indent(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i := range lines {
		lines[i] = prefix + lines[i]
	}
	return strings.Join(lines, "\n") + "\n"
}

func parsePartial(t *testing.T, name, src string) *partialManifest {
	t.Helper()
	obj, err := manifest.Parse([]byte(src))
	if err != nil {
		t.Fatalf("%s: %v\n%s", name, err, src)
	}
	ct, err := pipelineCRDType()
	if err != nil {
		t.Fatal(err)
	}
	v, err := ct.FromUnstructured(obj)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return &partialManifest{path: name, file: name, name: name, value: v}
}

// mergeAll merges the sources in order and returns the merged object.
func mergeAll(t *testing.T, sources ...string) map[string]any {
	t.Helper()
	ct, err := pipelineCRDType()
	if err != nil {
		t.Fatal(err)
	}
	m, err := newMerger(ct)
	if err != nil {
		t.Fatal(err)
	}
	var ms []*partialManifest
	var seq []int
	for i, src := range sources {
		ms = append(ms, parsePartial(t, "m"+string(rune('0'+i))+".yaml", src))
		seq = append(seq, i)
	}
	v, err := m.merge(ms, seq)
	if err != nil {
		t.Fatal(err)
	}
	obj, _ := deepCopy(v.AsValue().Unstructured()).(map[string]any)
	return obj
}

func lookupPath(obj any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := obj.(map[string]any)
			obj = m[k]
		case int:
			l, _ := obj.([]any)
			if k >= len(l) {
				return nil
			}
			obj = l[k]
		}
	}
	return obj
}

func yamlOf(t *testing.T, v any) string {
	t.Helper()
	if v == nil {
		return "null\n"
	}
	m, ok := v.(map[string]any)
	if !ok {
		m = map[string]any{"value": v}
	}
	data, err := manifest.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestMergeSemantics pins the server-side-apply behaviour users rely on
// (docs/reference-rules.md, "The merge and its list types"): union, later scalars win, atomic lists are replaced whole,
// nothing is ever removed, versions merge by name.
func TestMergeSemantics(t *testing.T) {
	for _, c := range mergeCases() {
		t.Run(c.name, func(t *testing.T) {
			got := yamlOf(t, lookupPath(mergeAll(t, c.sources...), c.path...))
			if got != c.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, c.want)
			}
		})
	}
}

type mergeCase struct {
	name    string
	sources []string
	path    []any
	want    string
}

func mergeCases() []mergeCase {
	specPath := []any{"spec", "versions", 0, "schema", "openAPIV3Schema", "properties", "spec"}
	return []mergeCase{
		{
			name: "a later manifest overwrites scalars",
			sources: []string{
				specSchemaManifest("type: object\nproperties:\n  items:\n    type: array\n    maxItems: 1\n    items:\n      type: string\n", ""),
				specSchemaManifest("type: object\nproperties:\n  items:\n    type: array\n    maxItems: 3\n    items:\n      type: string\n", ""),
			},
			path: append(specPath, "properties", "items", "maxItems"),
			want: "value: 3\n",
		},
		{
			name: "a field set only by an earlier manifest is never removed",
			sources: []string{
				specSchemaManifest("type: object\nproperties:\n  items:\n    type: array\n    maxItems: 1\n", ""),
				specSchemaManifest("type: object\nproperties:\n  items:\n    type: array\n  other:\n    type: string\n", ""),
			},
			path: specPath,
			want: "properties:\n  items:\n    maxItems: 1\n    type: array\n  other:\n    type: string\ntype: object\n",
		},
		{
			name: "x-kubernetes-validations is replaced as a whole",
			sources: []string{
				specSchemaManifest("type: object\nx-kubernetes-validations:\n- rule: self.a == 1\n- rule: self.b == 2\n", ""),
				specSchemaManifest("type: object\nx-kubernetes-validations:\n- rule: self.c == 3\n  message: c\n", ""),
			},
			path: append(specPath, "x-kubernetes-validations"),
			want: "value:\n- message: c\n  rule: self.c == 3\n",
		},
		{
			name: "x-kubernetes-validations not set later is kept",
			sources: []string{
				specSchemaManifest("type: object\nx-kubernetes-validations:\n- rule: self.a == 1\n", ""),
				specSchemaManifest("type: object\ndescription: later\n", ""),
			},
			path: specPath,
			want: "description: later\ntype: object\nx-kubernetes-validations:\n- rule: self.a == 1\n",
		},
		{
			name: "enum and required are atomic",
			sources: []string{
				specSchemaManifest("type: object\nrequired: [a]\nproperties:\n  e:\n    type: string\n    enum: [A, B]\n", ""),
				specSchemaManifest("type: object\nrequired: [b]\nproperties:\n  e:\n    type: string\n    enum: [A, B, C]\n", ""),
			},
			path: specPath,
			want: "properties:\n  e:\n    enum:\n    - A\n    - B\n    - C\n    type: string\nrequired:\n- b\ntype: object\n",
		},
		{
			name: "untyped values merge maps key by key and replace lists",
			sources: []string{
				specSchemaManifest("type: object\ndefault:\n  a: 1\n  list: [1, 2]\n", ""),
				specSchemaManifest("type: object\ndefault:\n  b: 2\n  list: [3]\n", ""),
			},
			path: append(specPath, "default"),
			want: "a: 1\nb: 2\nlist:\n- 3\n",
		},
		{
			name: "versions merge by name",
			sources: []string{
				specSchemaManifest("type: object\n", "served: true\nstorage: true\n"),
				specSchemaManifest("", "subresources:\n  scale:\n    specReplicasPath: .spec.replicas\n    statusReplicasPath: .status.replicas\n"),
			},
			path: []any{"spec", "versions"},
			want: "value:\n- name: v1\n  schema:\n    openAPIV3Schema:\n      properties:\n        spec:\n          type: object\n      type: object\n" +
				"  served: true\n  storage: true\n  subresources:\n    scale:\n      specReplicasPath: .spec.replicas\n      statusReplicasPath: .status.replicas\n",
		},
		{
			name: "versions with other names are added",
			sources: []string{
				specSchemaManifest("type: object\n", "served: true\n"),
				strings.Replace(specSchemaManifest("type: object\n", "served: false\n"), "- name: v1", "- name: v2", 1),
			},
			path: []any{"spec", "versions"},
			want: "value:\n- name: v1\n  schema:\n    openAPIV3Schema:\n      properties:\n        spec:\n          type: object\n      type: object\n  served: true\n" +
				"- name: v2\n  schema:\n    openAPIV3Schema:\n      properties:\n        spec:\n          type: object\n      type: object\n  served: false\n",
		},
		{
			name: "shortNames are atomic",
			sources: []string{
				strings.Replace(specSchemaManifest("", ""), "    plural: widgets\n", "    plural: widgets\n    shortNames: [w, wd]\n", 1),
				strings.Replace(specSchemaManifest("", ""), "    plural: widgets\n", "    plural: widgets\n    shortNames: [wg]\n", 1),
			},
			path: []any{"spec", "names", "shortNames"},
			want: "value:\n- wg\n",
		},
		{
			name: "annotations are a union and a later value wins",
			sources: []string{
				strings.Replace(specSchemaManifest("", ""), "metadata:\n", "metadata:\n  annotations:\n    a: one\n    b: one\n", 1),
				strings.Replace(specSchemaManifest("", ""), "metadata:\n", "metadata:\n  annotations:\n    b: two\n", 1),
			},
			path: []any{"metadata", "annotations"},
			want: "a: one\napi.openshift.io/merged-by-featuregates: \"true\"\nb: two\n",
		},
	}
}

// sameVersion is the merge.Converter of an apply where every manager uses
// the same API version.
type sameVersion struct{}

func (sameVersion) Convert(v *typed.TypedValue, version fieldpath.APIVersion) (*typed.TypedValue, error) {
	if version != crdAPIVersion {
		return nil, fmt.Errorf("no conversion to %s", version)
	}
	return v, nil
}

func (sameVersion) IsMissingVersionError(error) bool { return false }

// applyWithUpdater is server-side apply in full: merge.Updater.Apply with
// one field manager per source, force on, managed fields carried along.
func applyWithUpdater(t *testing.T, force bool, sources ...string) (map[string]any, error) {
	t.Helper()
	ct, err := pipelineCRDType()
	if err != nil {
		t.Fatal(err)
	}
	updater := (&merge.UpdaterBuilder{Converter: sameVersion{}, ReturnInputOnNoop: true}).BuildUpdater()
	live, err := ct.FromUnstructured(startObject())
	if err != nil {
		t.Fatal(err)
	}
	managers := fieldpath.ManagedFields{}
	for i, src := range sources {
		name := fmt.Sprintf("m%d.yaml", i)
		live, managers, err = updater.Apply(live, parsePartial(t, name, src).value, crdAPIVersion, managers, name, force)
		if err != nil {
			return nil, err
		}
	}
	if len(sources) > 0 && len(managers) == 0 {
		t.Fatal("no field managers recorded")
	}
	obj, _ := deepCopy(live.AsValue().Unstructured()).(map[string]any)
	return obj, nil
}

// TestMergeMatchesServerSideApply checks the claim merger's documentation
// makes: the stage's applies give exactly the objects the full
// server-side-apply machinery gives, one manager per manifest, force on.
// Without force the same sequences conflict, so the managers are real.
func TestMergeMatchesServerSideApply(t *testing.T) {
	sequences := map[string][]string{}
	for _, c := range mergeCases() {
		sequences[c.name] = c.sources
	}
	if refDir, ok := realtrees.ReferenceDataDir(); ok {
		dir := filepath.Join(refDir, "example-v1", FeatureGatedDirName, "stableconfigtypes.example.openshift.io")
		var example []string
		for _, name := range []string{"AAA_ungated.yaml", "Example.yaml", "Example+Example2.yaml"} {
			data, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			example = append(example, string(data))
			sequences["reference example up to "+name] = append([]string(nil), example...)
		}
	}
	conflicts := 0
	for _, name := range sortedKeys(sequences) {
		want, err := applyWithUpdater(t, true, sequences[name]...)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got := mergeAll(t, sequences[name]...)
		if yamlOf(t, got) != yamlOf(t, want) {
			t.Errorf("%s: merge differs from server-side apply:\n%s\nwant:\n%s", name, yamlOf(t, got), yamlOf(t, want))
		}
		if _, err := applyWithUpdater(t, false, sequences[name]...); err != nil {
			conflicts++
		}
	}
	if conflicts == 0 {
		t.Error("no sequence conflicts without force: the field managers are not exercised")
	}
}

// TestMergeRoundTrip applies a merged result again, alone and after its
// inputs: server-side apply of an object onto itself changes nothing.
func TestMergeRoundTrip(t *testing.T) {
	a := specSchemaManifest("type: object\nmaxProperties: 2\nx-kubernetes-validations:\n- rule: self.a == 1\n", "served: true\n")
	b := specSchemaManifest("type: object\nproperties:\n  x:\n    type: string\n", "subresources:\n  status: {}\n")
	merged := mergeAll(t, a, b)
	data, err := manifest.Marshal(merged)
	if err != nil {
		t.Fatal(err)
	}
	for name, sources := range map[string][]string{
		"alone":              {string(data)},
		"after its inputs":   {a, b, string(data)},
		"applied repeatedly": {string(data), string(data)},
	} {
		again, err := manifest.Marshal(mergeAll(t, sources...))
		if err != nil {
			t.Fatal(err)
		}
		if string(again) != string(data) {
			t.Errorf("%s: re-applying the merged object changed it:\n%s\nwant:\n%s", name, again, data)
		}
	}
}

// TestMergeSharesPrefixes checks that sets are merged once and that sets
// sharing a prefix reuse its merges.
func TestMergeSharesPrefixes(t *testing.T) {
	ct, err := pipelineCRDType()
	if err != nil {
		t.Fatal(err)
	}
	m, err := newMerger(ct)
	if err != nil {
		t.Fatal(err)
	}
	ms := []*partialManifest{
		parsePartial(t, "a", specSchemaManifest("type: object\n", "")),
		parsePartial(t, "b", specSchemaManifest("type: object\ndescription: b\n", "")),
		parsePartial(t, "c", specSchemaManifest("type: object\ndescription: c\n", "")),
	}
	steps := []struct {
		seq     []int
		applies int
	}{
		{[]int{0}, 1},
		{[]int{0, 1}, 2},    // reuses [0]
		{[]int{0, 1, 2}, 3}, // reuses [0 1]
		{[]int{0, 1}, 3},    // seen before
		{[]int{0, 2}, 4},    // reuses [0]
		{[]int{1}, 5},
	}
	for _, s := range steps {
		if _, err := m.merge(ms, s.seq); err != nil {
			t.Fatal(err)
		}
		if m.applies != s.applies {
			t.Errorf("after %v: %d applies, want %d", s.seq, m.applies, s.applies)
		}
	}
}
