package schemapatch

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// The benchmarks report, besides ns/op for a whole run of the stage:
//
//	load-ms       the one package load (goload.Load), done once per process
//	first-run-ms  the first run, which also parses markers and type-checks
//	ms/gateset    steady-state generation time per distinct gate set
//	gatesets, manifests  per run
//
// Run them with: go test ./pkg/schemapatch -run '^$' -bench . -benchtime 5x

func BenchmarkGatesFixture(b *testing.B) {
	benchmarkTree(b, prepare(b, "gates"))
}

func BenchmarkGeneratedTree(b *testing.B) {
	benchmarkTree(b, write(b, generatedTree(generatedShape{groups: 10, kinds: 6, fields: 24, gates: 6})))
}

func benchmarkTree(b *testing.B, base string) {
	start := time.Now()
	l := load(b, base)
	loadTime := time.Since(start)
	start = time.Now()
	first, _ := l.mustRun(b)
	firstRun := time.Since(start)

	b.ResetTimer()
	var generate time.Duration
	var sets int
	for i := 0; i < b.N; i++ {
		res, _ := l.mustRun(b)
		generate += res.Timing.Generate
		sets += res.GateSets
	}
	b.StopTimer()
	b.ReportMetric(float64(loadTime.Microseconds())/1000, "load-ms")
	b.ReportMetric(float64(firstRun.Microseconds())/1000, "first-run-ms")
	if sets > 0 {
		b.ReportMetric(float64(generate.Microseconds())/1000/float64(sets), "ms/gateset")
	}
	b.ReportMetric(float64(first.GateSets), "gatesets")
	b.ReportMetric(float64(first.Manifests), "manifests")
}

// TestGeneratedTree keeps the benchmark's generator honest: the generated
// tree loads and every manifest gets a schema.
func TestGeneratedTree(t *testing.T) {
	shape := generatedShape{groups: 2, kinds: 2, fields: 8, gates: 3}
	l := load(t, write(t, generatedTree(shape)))
	res, _ := l.mustRun(t)
	wantManifests := shape.groups * shape.kinds * (shape.gates + 2)
	if res.Manifests != wantManifests || res.Updated != wantManifests || res.Unmatched != 0 {
		t.Errorf("result = %+v, want %d manifests all updated", res, wantManifests)
	}
	if want := shape.gates + 2; res.GateSets != want {
		t.Errorf("gate sets = %d, want %d", res.GateSets, want)
	}
}

// generatedShape sizes a generated API tree.
type generatedShape struct {
	groups, kinds, fields, gates int
}

// generatedTree writes an API tree of shape.groups groups (one version
// each) of shape.kinds kinds, all using a shared non-API package. Each kind
// carries gated fields, gate-aware enums, maxItems and rules, and has the
// partial manifests stage 1 would write for it: ungated, one per gate and
// one requiredFeatureGate combination.
func generatedTree(shape generatedShape) map[string]string {
	gate := func(i int) string { return fmt.Sprintf("Gate%d", i%shape.gates) }
	files := map[string]string{}

	var common strings.Builder
	common.WriteString("// Package common is shared by every generated group.\npackage common\n\n")
	common.WriteString("// Level is a shared enum.\n")
	common.WriteString("// +openshift:validation:FeatureGateAwareEnum:featureGate=\"\",enum=Low;High\n")
	fmt.Fprintf(&common, "// +openshift:validation:FeatureGateAwareEnum:featureGate=%s,enum=Low;High;Extreme\n", gate(0))
	common.WriteString("type Level string\n\n")
	common.WriteString("// Shared is embedded in every spec.\ntype Shared struct {\n")
	for i := 0; i < shape.gates; i++ {
		fmt.Fprintf(&common, "\t// knob%d tunes something.\n\t// +openshift:enable:FeatureGate=%s\n\t// +optional\n\tKnob%d string `json:\"knob%d,omitempty\"`\n\n", i, gate(i), i, i)
	}
	common.WriteString("\t// level is how much.\n\t// +optional\n\tLevel *Level `json:\"level,omitempty\"`\n}\n")
	files["common/types.go"] = common.String()

	for g := 0; g < shape.groups; g++ {
		group := fmt.Sprintf("group%d.example.io", g)
		dir := fmt.Sprintf("group%d/v1/", g)
		files[dir+"doc.go"] = "// Package v1 is a generated API.\n//\n// +groupName=" + group + "\npackage v1\n"
		files[dir+"register.go"] = "package v1\n\nimport \"k8s.io/apimachinery/pkg/runtime/schema\"\n\n" +
			"var GroupVersion = schema.GroupVersion{Group: \"" + group + "\", Version: \"v1\"}\n"
		var src strings.Builder
		src.WriteString("package v1\n\nimport (\n\tmetav1 \"k8s.io/apimachinery/pkg/apis/meta/v1\"\n\n\t\"@ROOT@/common\"\n)\n")
		for k := 0; k < shape.kinds; k++ {
			kind := fmt.Sprintf("Kind%d", k)
			fmt.Fprintf(&src, `
// %[1]s is generated kind number %[2]d.
// +kubebuilder:object:root=true
type %[1]s struct {
	metav1.TypeMeta   `+"`json:\",inline\"`"+`
	metav1.ObjectMeta `+"`json:\"metadata,omitempty\"`"+`

	// spec is the wanted state.
	Spec %[1]sSpec `+"`json:\"spec\"`"+`

	// status is the observed state.
	// +optional
	Status %[1]sStatus `+"`json:\"status,omitempty\"`"+`
}

// %[1]sStatus is the observed state.
type %[1]sStatus struct {
	// conditions describe the state.
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `+"`json:\"conditions,omitempty\"`"+`
}

// %[1]sMode is a gate-aware enum.
// +openshift:validation:FeatureGateAwareEnum:featureGate="",enum=A;B
// +openshift:validation:FeatureGateAwareEnum:featureGate=%[3]s,enum=A;B;C
type %[1]sMode string

// %[1]sItem is a list item.
type %[1]sItem struct {
	// name names the item.
	Name string `+"`json:\"name\"`"+`
	// extra is gated.
	// +openshift:enable:FeatureGate=%[4]s
	// +optional
	Extra string `+"`json:\"extra,omitempty\"`"+`
}

// %[1]sSpec is the wanted state.
// +openshift:validation:FeatureGateAwareXValidation:featureGate=%[3]s,rule="has(self.field0)",message="field0 is required"
// +openshift:validation:FeatureGateAwareXValidation:requiredFeatureGate=%[3]s;%[4]s,rule="has(self.mode)",message="mode is required"
// +kubebuilder:validation:XValidation:rule="self.field1 != 'x'",message="field1 must not be x"
type %[1]sSpec struct {
	common.Shared `+"`json:\",inline\"`"+`

	// mode picks a mode.
	// +optional
	Mode %[1]sMode `+"`json:\"mode,omitempty\"`"+`

	// items are keyed by name.
	// +listType=map
	// +listMapKey=name
	// +openshift:validation:FeatureGateAwareMaxItems:featureGate="",maxItems=4
	// +openshift:validation:FeatureGateAwareMaxItems:featureGate=%[3]s,maxItems=8
	// +optional
	Items []%[1]sItem `+"`json:\"items,omitempty\"`"+`
`, kind, k, gate(k), gate(k+1))
			for f := 0; f < shape.fields; f++ {
				marker := ""
				if f%3 == 0 {
					marker = "\t// +openshift:enable:FeatureGate=" + gate(f) + "\n"
				}
				fmt.Fprintf(&src, "\n\t// field%d is field number %d of the spec.\n%s\t// +kubebuilder:validation:MaxLength=64\n\t// +optional\n\tField%d string `json:\"field%d,omitempty\"`\n", f, f, marker, f, f)
			}
			src.WriteString("}\n")

			plural := strings.ToLower(kind) + "s"
			crdDir := dir + "zz_generated.featuregated-crd-manifests/" + plural + "." + group + "/"
			files[crdDir+"AAA_ungated.yaml"] = partialManifest(group, plural, kind, "v1", "")
			for i := 0; i < shape.gates; i++ {
				files[crdDir+gate(i)+".yaml"] = partialManifest(group, plural, kind, "v1", gate(i))
			}
			files[crdDir+gate(0)+"+"+gate(1)+".yaml"] = partialManifest(group, plural, kind, "v1", gate(0), gate(1))
		}
		files[dir+"types.go"] = src.String()
	}
	return files
}
