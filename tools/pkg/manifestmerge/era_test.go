package manifestmerge

import (
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/structured-merge-diff/v6/schema"

	"github.com/gatedcrd/gatedcrd/features/featuregate"
	fgpayload "github.com/gatedcrd/gatedcrd/features/payload"
	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// preVersionPayload renders the payload of rules in the format of the
// reference before February 2026 (JSON, featureGate-<Profile>-<FeatureSet>.yaml,
// no major-version annotation) and reads it back with the real reader.
func preVersionPayload(t testing.TB, gates []string, rules ...gateRule) *fgpayload.Directory {
	t.Helper()
	var files []fgpayload.File
	for _, tg := range payloadTuples([]int{0}, gates, rules...) {
		obj := map[string]any{
			"apiVersion": "config.openshift.io/v1",
			"kind":       "FeatureGate",
			"metadata": map[string]any{"name": "cluster", "annotations": map[string]any{
				tg.ClusterProfile.AnnotationKey(): fgpayload.ProfileAnnotationValue}},
			"spec":   map[string]any{"featureSet": tg.FeatureSet.SpecValue()},
			"status": map[string]any{"featureGates": []any{map[string]any{"enabled": names(tg.Enabled), "disabled": names(tg.Disabled), "version": ""}}},
		}
		data, err := fgpayload.MarshalIndentedJSON(obj)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, fgpayload.File{Name: fgpayload.UnversionedFileName(tg.ClusterProfile, tg.FeatureSet), Data: data})
	}
	d, err := fgpayload.ReadFiles(files)
	if err != nil {
		t.Fatal(err)
	}
	if d.Era != fgpayload.Era202601 {
		t.Fatalf("pre-version payload read as era %q", d.Era)
	}
	d.Path = "payload"
	return d
}

func names(gates []featuregate.FeatureGateName) []any {
	out := []any{}
	for _, g := range gates {
		out = append(out, map[string]any{"name": string(g)})
	}
	return out
}

// withRuleMessages returns an edit for crdSource that sets the
// x-kubernetes-validations of spec to the given rule/message pairs.
func withRuleMessages(pairs ...string) func(map[string]any) {
	return func(obj map[string]any) {
		var rules []any
		for i := 0; i+1 < len(pairs); i += 2 {
			rules = append(rules, map[string]any{"rule": pairs[i], "message": pairs[i+1]})
		}
		spec := lookupPath(obj, "spec", "versions", 0, "schema", "openAPIV3Schema", "properties", "spec").(map[string]any)
		spec["x-kubernetes-validations"] = rules
	}
}

// mergeWith merges the sources in order with the CRD type of an era.
func mergeWith(t *testing.T, era fgpayload.Era, sources ...string) map[string]any {
	t.Helper()
	rules, err := rulesFor(era, nil)
	if era != fgpayload.Era202602 && era != fgpayload.Era202603 {
		rules, err = rulesFor(era, &fgpayload.Directory{Era: fgpayload.Era202601})
	}
	if err != nil {
		t.Fatal(err)
	}
	ct, err := rules.crdType()
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
		obj, err := manifest.Parse([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		v, err := ct.FromUnstructured(obj)
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, &partialManifest{name: fmt.Sprint(i), file: fmt.Sprint(i), value: v})
		seq = append(seq, i)
	}
	v, err := m.merge(ms, seq)
	if err != nil {
		t.Fatal(err)
	}
	return v.AsValue().Unstructured().(map[string]any)
}

// TestValidationsMergeByEra: before 2026-03 a later manifest's rules join
// the earlier ones (keyed by rule; the same rule takes the later message),
// since then they replace them.
func TestValidationsMergeByEra(t *testing.T) {
	ungated := crdSource(gated([]string{""}), []string{"a"}, withRuleMessages("has(self.a)", "a is required", "self.a != 'x'", "no x"))
	gate := crdSource(gated([]string{"G"}), []string{"a", "b"}, withRuleMessages("has(self.b)", "b is required", "self.a != 'x'", "no x, really"))
	// The order is structured-merge-diff's, which the reference used too.
	byRule := `[{"message":"a is required","rule":"has(self.a)"},{"message":"b is required","rule":"has(self.b)"},{"message":"no x, really","rule":"self.a != 'x'"}]`
	atomic := `[{"message":"b is required","rule":"has(self.b)"},{"message":"no x, really","rule":"self.a != 'x'"}]`
	for _, tc := range []struct {
		era  fgpayload.Era
		want string
	}{
		{fgpayload.Era202509, byRule},
		{fgpayload.Era202601, byRule},
		{fgpayload.Era202602, byRule},
		{fgpayload.Era202603, atomic},
	} {
		t.Run(string(tc.era), func(t *testing.T) {
			obj := mergeWith(t, tc.era, ungated, gate)
			got, _ := json.Marshal(lookupPath(obj, "spec", "versions", 0, "schema", "openAPIV3Schema", "properties", "spec", "x-kubernetes-validations"))
			if string(got) != tc.want {
				t.Errorf("x-kubernetes-validations\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// TestCombinationOrder: the pre-version eras apply files in name order,
// moving a combination after the files whose names it contains, with the
// reference's non-strict less-function; the sort algorithm of the era
// decides where that lands. The first list is the real directory of
// infrastructures.config.openshift.io in openshift/api of January 2026,
// where the two algorithms disagree (with sort.Slice the enum of
// HighlyAvailableArbiter.yaml replaces the combination's, losing
// DualReplica).
func TestCombinationOrder(t *testing.T) {
	cases := []struct {
		name      string
		dir       []string
		stable    string
		sortSlice string // "" when only the difference to stable is checked
	}{
		{
			name: "infrastructures",
			dir: []string{"AAA_ungated", "AWSClusterHostedDNSInstall", "AWSDualStackInstall", "AzureClusterHostedDNSInstall", "AzureDualStackInstall",
				"DualReplica", "DyanmicServiceEndpointIBMCloud", "GCPClusterHostedDNSInstall", "HighlyAvailableArbiter+DualReplica",
				"HighlyAvailableArbiter", "NutanixMultiSubnets", "OnPremDNSRecords", "VSphereHostVMGroupZonal", "VSphereMultiNetworks"},
			stable: "AAA_ungated AWSClusterHostedDNSInstall AWSDualStackInstall AzureClusterHostedDNSInstall AzureDualStackInstall DualReplica " +
				"DyanmicServiceEndpointIBMCloud GCPClusterHostedDNSInstall HighlyAvailableArbiter HighlyAvailableArbiter+DualReplica " +
				"NutanixMultiSubnets OnPremDNSRecords VSphereHostVMGroupZonal VSphereMultiNetworks",
			sortSlice: "",
		},
		{
			name:      "combination sorting before its parts",
			dir:       []string{"AAA_ungated", "ManagedBootImages+ManagedBootImagesCPMS", "ManagedBootImages", "ManagedBootImagesCPMS", "Zeta"},
			stable:    "AAA_ungated ManagedBootImages ManagedBootImagesCPMS ManagedBootImages+ManagedBootImagesCPMS Zeta",
			sortSlice: "AAA_ungated ManagedBootImages ManagedBootImagesCPMS ManagedBootImages+ManagedBootImagesCPMS Zeta",
		},
		{
			name:      "no combination keeps name order",
			dir:       []string{"AAA_ungated", "B", "Hypershift", "a"},
			stable:    "AAA_ungated B Hypershift a",
			sortSlice: "AAA_ungated B Hypershift a",
		},
	}
	order := func(sortFn func([]*partialManifest), dir []string) string {
		var ms []*partialManifest
		for _, n := range dir {
			ms = append(ms, &partialManifest{name: n})
		}
		sortFn(ms)
		var got []string
		for _, m := range ms {
			got = append(got, m.name)
		}
		return strings.Join(got, " ")
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if !slices.IsSortedFunc(tc.dir, func(a, b string) int { return strings.Compare(a+".yaml", b+".yaml") }) {
				t.Fatalf("fixture not in directory order: %v", tc.dir)
			}
			if got := order(stableCombinationsLast, tc.dir); got != tc.stable {
				t.Errorf("2026-01 order\n%s\nwant\n%s", got, tc.stable)
			}
			got := order(sortSliceCombinationsLast, tc.dir)
			if tc.sortSlice == "" {
				if got == tc.stable {
					t.Errorf("2025-09 order is the 2026-01 one; the case no longer tells the eras apart")
				}
				if strings.Index(got, "HighlyAvailableArbiter+DualReplica") > strings.Index(got, "HighlyAvailableArbiter ") {
					t.Errorf("2025-09 order %s: expected the combination before HighlyAvailableArbiter, as the reference's output shows", got)
				}
			} else if got != tc.sortSlice {
				t.Errorf("2025-09 order\n%s\nwant\n%s", got, tc.sortSlice)
			}
		})
	}
}

// preVersionCase runs the stage with a pre-version payload and returns, per
// output file, its profile and feature-set annotations.
func preVersionCase(t *testing.T, files map[string]string, payload *fgpayload.Directory) map[string]string {
	t.Helper()
	base := testtree.Write(t, files)
	mustRun(t, base, discoveryFor(base, exampleGroup), payload)
	out := map[string]string{}
	for name, content := range testtree.Snapshot(t, filepath.Join(base, widgetsOutputs)) {
		if name == DocFileName {
			continue
		}
		obj, err := manifest.Parse([]byte(content))
		if err != nil {
			t.Fatal(err)
		}
		var parts []string
		ann := annotationsOf(obj)
		for _, p := range clusterProfiles {
			if ann[p.AnnotationKey()] == "true" {
				parts = append(parts, string(p))
			}
		}
		if fs, ok := ann[manifest.FeatureSetAnnotation]; ok {
			parts = append(parts, "fs="+fs.(string))
		}
		if _, ok := ann[manifest.MajorVersionAnnotation]; ok {
			parts = append(parts, "versions!")
		}
		if g, ok := ann[manifest.FeatureGatePassThrough]; ok {
			parts = append(parts, "gate="+g.(string))
		}
		out[name] = strings.Join(parts, " ")
	}
	return out
}

// TestPreVersionFileChoice covers the three pre-version rules
// (docs/reference-rules.md, "Pre-version trees") for
// choosing the files of a CRD, and their annotations.
func TestPreVersionFileChoice(t *testing.T) {
	const hypershift, selfManaged = 0, 1
	gates := []string{"TP", "HS"}
	payload := preVersionPayload(t, gates,
		gateRule{gate: "TP", featureSets: []string{"TechPreviewNoUpgrade", "DevPreviewNoUpgrade"}},
		gateRule{gate: "HS", featureSets: fixedFeatureSets, profiles: []int{hypershift}})
	includeHypershift := manifest.IncludeAnnotationPrefix + "ibm-cloud-managed"
	includeSelfManaged := manifest.IncludeAnnotationPrefix + "self-managed-high-availability"
	cases := []struct {
		name  string
		files map[string]string
		want  map[string]string
	}{
		{
			name:  "rule 1: the same everywhere",
			files: map[string]string{widgetsGated + "AAA_ungated.yaml": ungatedWidget},
			want:  map[string]string{"widgets.crd.yaml": "Hypershift SelfManagedHA"},
		},
		{
			name:  "rule 1: one profile only",
			files: map[string]string{widgetsGated + "AAA_ungated.yaml": crdSource(gated([]string{""}, includeHypershift, "true"), []string{"name"}, nil)},
			want:  map[string]string{"widgets.crd.yaml": "Hypershift"},
		},
		{
			name: "rule 2: only in some feature sets, one file and one feature set each",
			files: map[string]string{widgetsGated + "TP.yaml": crdSource(
				gated([]string{"TP"}, manifest.FeatureGatePassThrough, "TP"), []string{"name"}, nil)},
			want: map[string]string{
				"widgets-CustomNoUpgrade.crd.yaml":      "Hypershift SelfManagedHA fs=CustomNoUpgrade gate=TP",
				"widgets-DevPreviewNoUpgrade.crd.yaml":  "Hypershift SelfManagedHA fs=DevPreviewNoUpgrade gate=TP",
				"widgets-TechPreviewNoUpgrade.crd.yaml": "Hypershift SelfManagedHA fs=TechPreviewNoUpgrade gate=TP",
			},
		},
		{
			name: "rule 2: feature sets differ, every one gets a file",
			files: map[string]string{
				widgetsGated + "AAA_ungated.yaml": ungatedWidget,
				widgetsGated + "TP.yaml":          crdSource(gated([]string{"TP"}), []string{"name", "preview"}, nil),
			},
			want: map[string]string{
				"widgets-CustomNoUpgrade.crd.yaml":      "Hypershift SelfManagedHA fs=CustomNoUpgrade",
				"widgets-Default.crd.yaml":              "Hypershift SelfManagedHA fs=Default",
				"widgets-DevPreviewNoUpgrade.crd.yaml":  "Hypershift SelfManagedHA fs=DevPreviewNoUpgrade",
				"widgets-OKD.crd.yaml":                  "Hypershift SelfManagedHA fs=OKD",
				"widgets-TechPreviewNoUpgrade.crd.yaml": "Hypershift SelfManagedHA fs=TechPreviewNoUpgrade",
			},
		},
		{
			name: "rule 3: profiles differ",
			files: map[string]string{
				widgetsGated + "AAA_ungated.yaml": ungatedWidget,
				widgetsGated + "HS.yaml":          crdSource(gated([]string{"HS"}), []string{"name", "hosted"}, nil),
			},
			want: map[string]string{
				"widgets-Hypershift.crd.yaml":                         "Hypershift",
				"widgets-SelfManagedHA-CustomNoUpgrade.crd.yaml":      "SelfManagedHA fs=CustomNoUpgrade",
				"widgets-SelfManagedHA-Default.crd.yaml":              "SelfManagedHA fs=Default",
				"widgets-SelfManagedHA-DevPreviewNoUpgrade.crd.yaml":  "SelfManagedHA fs=DevPreviewNoUpgrade",
				"widgets-SelfManagedHA-OKD.crd.yaml":                  "SelfManagedHA fs=OKD",
				"widgets-SelfManagedHA-TechPreviewNoUpgrade.crd.yaml": "SelfManagedHA fs=TechPreviewNoUpgrade",
			},
		},
		{
			name: "rule 3: a profile's file has no feature-set annotation even where the CRD misses feature sets",
			files: map[string]string{
				widgetsGated + "AAA_ungated.yaml": crdSource(gated([]string{""}, includeSelfManaged, "true"), []string{"name"}, nil),
				widgetsGated + "TP.yaml":          crdSource(gated([]string{"TP"}, includeHypershift, "true"), []string{"name", "preview"}, nil),
			},
			want: map[string]string{
				"widgets-Hypershift.crd.yaml":    "Hypershift",
				"widgets-SelfManagedHA.crd.yaml": "SelfManagedHA",
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := preVersionCase(t, tc.files, payload)
			for _, name := range testtree.Paths(got) {
				if want, ok := tc.want[name]; !ok || got[name] != want {
					t.Errorf("%s: %q, want %q", name, got[name], want)
				}
			}
			for name := range tc.want {
				if _, ok := got[name]; !ok {
					t.Errorf("%s not written", name)
				}
			}
		})
	}
}

// TestEraMismatch: an era must read the payload format the directory was
// read in.
func TestEraMismatch(t *testing.T) {
	pre := preVersionPayload(t, nil)
	for _, tc := range []struct {
		era     fgpayload.Era
		payload *fgpayload.Directory
		want    string
	}{
		{fgpayload.Era202603, pre, "era 2026-03-20 of the reference reads payload files with major versions, but the payload FeatureGate directory was read as era 2025-11-05"},
		{fgpayload.Era202601, examplePayload(), "era 2025-11-05 of the reference reads payload files without major versions"},
		{"2030-01", examplePayload(), `unknown era "2030-01"`},
	} {
		base := t.TempDir()
		_, err := Run(Input{Discovery: discoveryFor(base, exampleGroup), Tree: tree.New(), Payload: tc.payload, Era: tc.era})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.era, err, tc.want)
		}
	}
}

// TestRuleKeyedSchema: the type of the eras before 2026-03-18 keys
// x-kubernetes-validations by rule and spec.versions by name.
func TestRuleKeyedSchema(t *testing.T) {
	ct, err := ruleKeyedCRDType()
	if err != nil {
		t.Fatal(err)
	}
	versions := fieldList(t, ct.Schema, crdSpecTypeName, "versions")
	if versions.ElementRelationship != schema.Associative || strings.Join(versions.Keys, ",") != "name" {
		t.Errorf("spec.versions is %s, want a map keyed by name", describeList(versions))
	}
	rules := fieldList(t, ct.Schema, schemaPropsName, "x-kubernetes-validations")
	if rules.ElementRelationship != schema.Associative || strings.Join(rules.Keys, ",") != "rule" {
		t.Errorf("x-kubernetes-validations is %s, want a map keyed by rule", describeList(rules))
	}
	current, err := pipelineCRDType()
	if err != nil {
		t.Fatal(err)
	}
	if l := fieldList(t, current.Schema, schemaPropsName, "x-kubernetes-validations"); l.ElementRelationship != schema.Atomic {
		t.Errorf("building the rule-keyed type changed the current one: x-kubernetes-validations is %s", describeList(l))
	}
}

// TestGatedCRDInOneFile: from 2026-02-18 a pre-version tree writes a CRD
// gated as a whole (release.openshift.io/feature-gate) as one file for
// every feature set, annotated with the gate, where the era before wrote
// one file per feature set the gate is on in.
func TestGatedCRDInOneFile(t *testing.T) {
	gates := []string{"TP"}
	files := map[string]string{widgetsGated + "TP.yaml": crdSource(
		gated([]string{"TP"}, manifest.FeatureGatePassThrough, "TP"), []string{"name"}, nil)}
	for _, tc := range []struct {
		era  fgpayload.Era
		want map[string]string
	}{
		{fgpayload.Era202601, map[string]string{
			"widgets-CustomNoUpgrade.crd.yaml":      "Hypershift SelfManagedHA fs=CustomNoUpgrade gate=TP",
			"widgets-DevPreviewNoUpgrade.crd.yaml":  "Hypershift SelfManagedHA fs=DevPreviewNoUpgrade gate=TP",
			"widgets-TechPreviewNoUpgrade.crd.yaml": "Hypershift SelfManagedHA fs=TechPreviewNoUpgrade gate=TP",
		}},
		{fgpayload.Era(fgpayload.GatedCRDsInOneFile.Date), map[string]string{
			"widgets.crd.yaml": "Hypershift SelfManagedHA gate=TP",
		}},
	} {
		t.Run(string(tc.era), func(t *testing.T) {
			payload := preVersionPayload(t, gates,
				gateRule{gate: "TP", featureSets: []string{"TechPreviewNoUpgrade", "DevPreviewNoUpgrade"}})
			payload.Era = tc.era
			got := preVersionCase(t, files, payload)
			if !maps.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}
