package manifestmerge

import (
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/features/featuregate"
	fgpayload "github.com/gatedcrd/gatedcrd/features/payload"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// fixedFeatureSets are the feature sets payload files are rendered for.
var fixedFeatureSets = []string{"Default", "DevPreviewNoUpgrade", "OKD", "TechPreviewNoUpgrade"}

// defaultVersions is the default major-version dimension.
var defaultVersions = []int{4, 5, 6, 7, 8, 9, 10}

// gateRule enables a gate in a test payload: in the listed feature sets,
// for the listed profiles (indices into clusterProfiles; all when nil) and
// versions (all when nil).
type gateRule struct {
	gate        string
	featureSets []string
	profiles    []int
	versions    []int
}

// payloadTuples answers, for every version, rendered profile and fixed
// feature set, which of gates the rules enable: what a FeatureGate
// registry answers, as the payload renderer takes it.
func payloadTuples(versions []int, gates []string, rules ...gateRule) []featuregate.TupleGates {
	var out []featuregate.TupleGates
	for _, v := range versions {
		for p, prof := range clusterProfiles {
			for _, fs := range fixedFeatureSets {
				tg := featuregate.TupleGates{Tuple: featuregate.Tuple{Version: v, ClusterProfile: prof, FeatureSet: featuregate.FeatureSetName(fs)},
					GateLists: featuregate.GateLists{Enabled: []featuregate.FeatureGateName{}, Disabled: []featuregate.FeatureGateName{}}}
				for _, g := range gates {
					on := slices.ContainsFunc(rules, func(r gateRule) bool {
						return r.gate == g && slices.Contains(r.featureSets, fs) &&
							(r.profiles == nil || slices.Contains(r.profiles, p)) &&
							(r.versions == nil || slices.Contains(r.versions, v))
					})
					if on {
						tg.Enabled = append(tg.Enabled, featuregate.FeatureGateName(g))
					} else {
						tg.Disabled = append(tg.Disabled, featuregate.FeatureGateName(g))
					}
				}
				out = append(out, tg)
			}
		}
	}
	return out
}

// testPayload renders payload files with the real renderer, one file per
// profile, fixed feature set and version, and reads them back with the
// real reader, as the directory "payload".
func testPayload(versions []int, gates []string, rules ...gateRule) *fgpayload.Directory {
	var files []fgpayload.File
	for _, v := range versions {
		rendered, err := fgpayload.Render(payloadTuples([]int{v}, gates, rules...), "")
		if err != nil {
			panic(err)
		}
		files = append(files, rendered...)
	}
	d, err := fgpayload.ReadFiles(files)
	if err != nil {
		panic(err)
	}
	d.Path = "payload"
	return d
}

// exampleGates are the gates of the reference's example: Example on in
// TechPreviewNoUpgrade and DevPreviewNoUpgrade, Example2 only in
// DevPreviewNoUpgrade, both profiles, versions 4..10.
var exampleGates, exampleRules = []string{"Example", "Example2"}, []gateRule{
	{gate: "Example", featureSets: []string{"TechPreviewNoUpgrade", "DevPreviewNoUpgrade"}},
	{gate: "Example2", featureSets: []string{"DevPreviewNoUpgrade"}},
}

// examplePayload is the payload of the reference's example.
func examplePayload() *fgpayload.Directory {
	return testPayload(defaultVersions, exampleGates, exampleRules...)
}

// renderPayloadFiles renders the payload of the example as the payload
// renderer writes a directory (all versions of a profile and feature set
// in one file). The files map receives relative path → content below dir.
func renderPayloadFiles(files map[string]string, dir string) {
	rendered, err := fgpayload.Render(payloadTuples(defaultVersions, exampleGates, exampleRules...), "")
	if err != nil {
		panic(err)
	}
	for _, f := range rendered {
		files[dir+"/"+f.Name] = string(f.Data)
	}
}

// loadPayloadDir reads a payload FeatureGate directory with the real
// reader (the caller of the stage reads it the same way).
func loadPayloadDir(t testing.TB, dir string) *fgpayload.Directory {
	t.Helper()
	d, err := fgpayload.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return d
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
func runStage(t testing.TB, base string, disc *discovery.Result, payload *fgpayload.Directory) stageRun {
	t.Helper()
	tr := tree.New()
	problems := &diag.List{}
	res, err := Run(Input{Discovery: disc, Tree: tr, Problems: problems, Payload: payload})
	run := stageRun{base: base, result: res, err: err, problems: problems, tree: tr}
	if err == nil && !problems.HasErrors() {
		if _, cerr := tr.Commit(); cerr != nil {
			t.Fatal(cerr)
		}
	}
	return run
}

// mustRun runs the stage and fails the test on any error.
func mustRun(t testing.TB, base string, disc *discovery.Result, payload *fgpayload.Directory) stageRun {
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
func goldenCase(t *testing.T, name string, files map[string]string, payload *fgpayload.Directory) stageRun {
	t.Helper()
	base := testtree.Write(t, files)
	run := mustRun(t, base, discoveryFor(base, exampleGroup), payload)
	testtree.GoldenDir(t, filepath.Join("testdata", "golden", name), filepath.Join(base, widgetsOutputs))
	return run
}
