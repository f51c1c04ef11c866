package manifestmerge

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
	"github.com/gatedcrd/gatedcrd/tools/pkg/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// fixedFeatureSets are the feature sets payload files are rendered for.
var fixedFeatureSets = []string{"Default", "DevPreviewNoUpgrade", "OKD", "TechPreviewNoUpgrade"}

// defaultVersions is the default major-version dimension.
var defaultVersions = []int{4, 5, 6, 7, 8, 9, 10}

const profileAnnotationValue = "false-except-for-the-config-operator"

// gateRule enables a gate in a test payload: in the listed feature sets,
// for the listed profiles (all when nil) and versions (all when nil).
type gateRule struct {
	gate        string
	featureSets []string
	profiles    []int
	versions    []int
}

func contains[T comparable](list []T, v T) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// testPayload renders payload files in memory: one per profile, fixed
// feature set and version.
func testPayload(versions []int, gates []string, rules ...gateRule) []FeatureGateFile {
	var out []FeatureGateFile
	for _, v := range versions {
		for p, prof := range ClusterProfiles {
			for _, fs := range fixedFeatureSets {
				f := FeatureGateFile{
					Path:              fmt.Sprintf("payload/featureGate-%d-%s-%s.yaml", v, prof.ShortName, fs),
					ProfileAnnotation: prof.Annotation,
					FeatureSet:        fs,
					Versions:          []int{v},
				}
				for _, g := range gates {
					on := false
					for _, r := range rules {
						if r.gate == g && contains(r.featureSets, fs) &&
							(r.profiles == nil || contains(r.profiles, p)) &&
							(r.versions == nil || contains(r.versions, v)) {
							on = true
						}
					}
					if on {
						f.Enabled = append(f.Enabled, g)
					} else {
						f.Disabled = append(f.Disabled, g)
					}
				}
				out = append(out, f)
			}
		}
	}
	return out
}

// examplePayload is the payload of SPEC §7: Example on in
// TechPreviewNoUpgrade and DevPreviewNoUpgrade, Example2 only in
// DevPreviewNoUpgrade, both profiles, versions 4..10.
func examplePayload() []FeatureGateFile {
	return testPayload(defaultVersions, []string{"Example", "Example2"},
		gateRule{gate: "Example", featureSets: []string{"TechPreviewNoUpgrade", "DevPreviewNoUpgrade"}},
		gateRule{gate: "Example2", featureSets: []string{"DevPreviewNoUpgrade"}})
}

// renderPayloadFiles renders FeatureGate files the way the payload
// renderer does (SPEC §2.5), grouping all versions of a profile and
// feature set into one file. The files map receives relative path →
// content below dir.
func renderPayloadFiles(files map[string]string, dir string, in []FeatureGateFile) {
	type slot struct{ profile, fs string }
	merged := map[slot]*FeatureGateFile{}
	var order []slot
	for i := range in {
		s := slot{in[i].ProfileAnnotation, in[i].FeatureSet}
		if m := merged[s]; m != nil {
			m.Versions = append(m.Versions, in[i].Versions...)
			continue
		}
		c := in[i]
		c.Versions = append([]int(nil), c.Versions...)
		merged[s] = &c
		order = append(order, s)
	}
	for _, s := range order {
		f := merged[s]
		short := ClusterProfiles[profileIndex(f.ProfileAnnotation)].ShortName
		var vs []string
		for _, v := range f.Versions {
			vs = append(vs, strconv.Itoa(v))
		}
		spec := map[string]any{}
		if f.FeatureSet != "Default" {
			spec["featureSet"] = f.FeatureSet
		}
		names := func(gs []string) []any {
			out := []any{}
			for _, g := range gs {
				out = append(out, map[string]any{"name": g})
			}
			return out
		}
		obj := map[string]any{
			"apiVersion": "config.openshift.io/v1",
			"kind":       "FeatureGate",
			"metadata": map[string]any{
				"annotations": map[string]any{
					f.ProfileAnnotation:             profileAnnotationValue,
					manifest.FeatureSetAnnotation:   f.FeatureSet,
					manifest.MajorVersionAnnotation: strings.Join(vs, ","),
				},
				"name": "cluster",
			},
			"spec": spec,
			"status": map[string]any{"featureGates": []any{map[string]any{
				"enabled": names(f.Enabled), "disabled": names(f.Disabled), "version": "",
			}}},
		}
		data, err := json.MarshalIndent(obj, "", "    ")
		if err != nil {
			panic(err)
		}
		name := fmt.Sprintf("featureGate-%s-%s-%s.yaml", versionRange(f.Versions), short, f.FeatureSet)
		files[dir+"/"+name] = string(data) + "\n"
	}
}

// loadPayloadDir is a test-only reader of a payload FeatureGate directory
// (the real one belongs to the caller of the stage).
func loadPayloadDir(t testing.TB, dir string) []FeatureGateFile {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []FeatureGateFile
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".yaml") {
			continue
		}
		p := filepath.Join(dir, e.Name())
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		obj, err := manifest.Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		f := FeatureGateFile{Path: p}
		ann := annotationsOf(obj)
		for k, v := range ann {
			if v == profileAnnotationValue {
				f.ProfileAnnotation = k
			}
		}
		if raw, ok := ann[manifest.MajorVersionAnnotation].(string); ok {
			for _, s := range strings.Split(raw, ",") {
				v, err := strconv.Atoi(s)
				if err != nil {
					t.Fatalf("%s: %v", p, err)
				}
				f.Versions = append(f.Versions, v)
			}
		}
		spec, _ := obj["spec"].(map[string]any)
		f.FeatureSet, _ = spec["featureSet"].(string)
		status, _ := obj["status"].(map[string]any)
		gates, _ := status["featureGates"].([]any)
		if len(gates) > 0 {
			entry, _ := gates[0].(map[string]any)
			for _, field := range []string{"enabled", "disabled"} {
				list, _ := entry[field].([]any)
				for _, item := range list {
					name, _ := item.(map[string]any)["name"].(string)
					if field == "enabled" {
						f.Enabled = append(f.Enabled, name)
					} else {
						f.Disabled = append(f.Disabled, name)
					}
				}
			}
		}
		out = append(out, f)
	}
	return out
}

// discoveryFor describes a fixture tree: groupDir → API group name and
// version directory names. Group directories are below base.
func discoveryFor(base string, groups ...fixtureGroup) *discovery.Result {
	res := &discovery.Result{BaseDir: base, ModulePath: "example.test/api", ModuleDir: base}
	for _, g := range groups {
		dg := &discovery.Group{Name: g.name, Dir: filepath.Join(base, g.dir)}
		dg.Config.ManifestMerge.Disabled = g.disabled
		for _, v := range g.versions {
			dg.Versions = append(dg.Versions, &discovery.Version{
				Group: g.name, Version: v, Dir: filepath.Join(dg.Dir, v),
				ImportPath: "example.test/api/" + g.dir + "/" + v, PackageName: v,
			})
		}
		res.Groups = append(res.Groups, dg)
	}
	sort.Slice(res.Groups, func(i, j int) bool { return res.Groups[i].Name < res.Groups[j].Name })
	return res
}

type fixtureGroup struct {
	dir, name string
	versions  []string
	disabled  bool
}

// exampleGroup is the group of most fixtures: directory "example", API
// group example.openshift.io, version v1.
var exampleGroup = fixtureGroup{dir: "example", name: "example.openshift.io", versions: []string{"v1"}}

// stageRun is the outcome of running the stage on a fixture.
type stageRun struct {
	base     string
	result   *Result
	err      error
	problems *diag.List
	tree     *tree.Tree
}

// runStage runs the stage on base and commits the tree unless the run
// failed or reported errors.
func runStage(t testing.TB, base string, disc *discovery.Result, payload []FeatureGateFile) stageRun {
	t.Helper()
	tr := tree.New()
	problems := &diag.List{}
	res, err := Run(Input{Discovery: disc, Tree: tr, Problems: problems, FeatureGates: payload, FeatureGateDir: "payload"})
	run := stageRun{base: base, result: res, err: err, problems: problems, tree: tr}
	if err == nil && !problems.HasErrors() {
		if _, cerr := tr.Commit(); cerr != nil {
			t.Fatal(cerr)
		}
	}
	return run
}

// mustRun runs the stage and fails the test on any error.
func mustRun(t testing.TB, base string, disc *discovery.Result, payload []FeatureGateFile) stageRun {
	t.Helper()
	run := runStage(t, base, disc, payload)
	if run.err != nil {
		t.Fatalf("Run: %v", run.err)
	}
	if run.problems.HasErrors() {
		t.Fatalf("Run reported errors:\n%s", run.problems.Err())
	}
	return run
}

// diagnostics renders the diagnostics of a run, one per line, with the
// fixture's base directory stripped.
func (r stageRun) diagnostics() string {
	var lines []string
	for _, d := range r.problems.Items() {
		lines = append(lines, d.Severity.String()+": "+strings.ReplaceAll(d.String(), r.base+string(filepath.Separator), ""))
	}
	return strings.Join(lines, "\n")
}

// crdSource builds the YAML of a partial manifest for the CRD
// widgets.example.openshift.io with a v1 schema holding the given string
// fields under spec. edit, when set, changes the object before it is
// serialised.
func crdSource(annotations map[string]string, fields []string, edit func(obj map[string]any)) string {
	props := map[string]any{}
	for _, f := range fields {
		props[f] = map[string]any{"type": "string", "description": f + " is a field."}
	}
	ann := map[string]any{}
	for k, v := range annotations {
		ann[k] = v
	}
	obj := map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1",
		"kind":       "CustomResourceDefinition",
		"metadata":   map[string]any{"name": "widgets.example.openshift.io", "annotations": ann},
		"spec": map[string]any{
			"group": "example.openshift.io",
			"names": map[string]any{"kind": "Widget", "listKind": "WidgetList", "plural": "widgets", "singular": "widget"},
			"scope": "Cluster",
			"versions": []any{map[string]any{
				"name": "v1", "served": true, "storage": true,
				"schema": map[string]any{"openAPIV3Schema": map[string]any{
					"type": "object",
					"properties": map[string]any{
						"spec": map[string]any{"type": "object", "properties": props},
					},
				}},
				"subresources": map[string]any{"status": map[string]any{}},
			}},
		},
	}
	if len(ann) == 0 {
		delete(obj["metadata"].(map[string]any), "annotations")
	}
	if edit != nil {
		edit(obj)
	}
	data, err := manifest.Marshal(obj)
	if err != nil {
		panic(err)
	}
	return string(data)
}

// gated returns the annotations of a stage 1 manifest for the given gates
// ("" for ungated) plus extra key/value pairs.
func gated(gates []string, extra ...string) map[string]string {
	ann := map[string]string{"api-approved.openshift.io": "https://example.test/pull/1"}
	for _, g := range gates {
		ann[manifest.FeatureGateAnnotationPrefix+g] = "true"
	}
	for i := 0; i+1 < len(extra); i += 2 {
		ann[extra[i]] = extra[i+1]
	}
	return ann
}

const (
	widgetsGated     = "example/v1/" + FeatureGatedDirName + "/widgets.example.openshift.io/"
	widgetsOverrides = "example/v1/" + OverridesDirName + "/widgets.example.openshift.io/"
	widgetsOutputs   = "example/v1/" + OutputDirName
)

// goldenCase runs the stage on files and compares the output directory of
// example/v1 with testdata/golden/<name>.
func goldenCase(t *testing.T, name string, files map[string]string, payload []FeatureGateFile) stageRun {
	t.Helper()
	base := testtree.Write(t, files)
	run := mustRun(t, base, discoveryFor(base, exampleGroup), payload)
	testtree.GoldenDir(t, filepath.Join("testdata", "golden", name), filepath.Join(base, widgetsOutputs))
	return run
}
