package manifestmerge

import (
	"fmt"
	"strings"
	"testing"

	fgpayload "github.com/gatedcrd/gatedcrd/features/payload"
	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// benchmarkTree generates crds CRDs in example/v1, each with an ungated
// manifest, one manifest per gate and every pair of gates, with fields
// properties per manifest, and a payload where the gates differ by feature
// set, profile and major version.
func benchmarkTree(b *testing.B, crds, gates, fields int) (string, *fgpayload.Directory) {
	b.Helper()
	var gateNames []string
	var rules []gateRule
	for g := 0; g < gates; g++ {
		name := fmt.Sprintf("Gate%02d", g)
		gateNames = append(gateNames, name)
		rule := gateRule{gate: name, featureSets: []string{"DevPreviewNoUpgrade"}}
		switch g % 4 {
		case 1:
			rule.featureSets = append(rule.featureSets, "TechPreviewNoUpgrade")
		case 2:
			rule.featureSets = allFixed
			rule.profiles = []int{0}
		case 3:
			rule.featureSets = append(rule.featureSets, "TechPreviewNoUpgrade")
			rule.versions = []int{8, 9, 10}
		}
		rules = append(rules, rule)
	}
	files := map[string]string{}
	for c := 0; c < crds; c++ {
		plural := fmt.Sprintf("widget%03ds", c)
		crdName := plural + ".example.openshift.io"
		dir := "example/v1/" + FeatureGatedDirName + "/" + crdName + "/"
		manifest := func(gateSet []string, extra string) string {
			var names []string
			for f := 0; f < fields; f++ {
				names = append(names, fmt.Sprintf("field%03d", f))
			}
			if extra != "" {
				names = append(names, extra)
			}
			src := crdSource(gated(gateSet, fileNameAnnotations...), names, nil)
			src = strings.ReplaceAll(src, "widgets.example.openshift.io", crdName)
			return strings.ReplaceAll(src, "plural: widgets", "plural: "+plural)
		}
		files[dir+"AAA_ungated.yaml"] = manifest([]string{""}, "")
		for i, g := range gateNames {
			files[dir+g+".yaml"] = manifest([]string{g}, "gated"+g)
			for _, h := range gateNames[i+1:] {
				files[dir+g+"+"+h+".yaml"] = manifest([]string{g, h}, "gated"+g+h)
			}
		}
	}
	return testtree.Write(b, files), testPayload(defaultVersions, gateNames, rules...)
}

// BenchmarkRun measures the whole stage on a generated tree: reading and
// type-checking the manifests, the merges, the decision and serialisation.
func BenchmarkRun(b *testing.B) {
	for _, size := range []struct{ crds, gates, fields int }{{10, 4, 50}, {40, 6, 100}} {
		b.Run(fmt.Sprintf("crds=%d,gates=%d,fields=%d", size.crds, size.gates, size.fields), func(b *testing.B) {
			base, payload := benchmarkTree(b, size.crds, size.gates, size.fields)
			disc := discoveryFor(base, exampleGroup)
			var totals Totals
			b.ResetTimer()
			for b.Loop() {
				problems := &diag.List{}
				res, err := Run(Input{Discovery: disc, Tree: tree.New(), Problems: problems, Payload: payload})
				if err != nil || problems.HasErrors() {
					b.Fatalf("Run: %v %v", err, problems.Err())
				}
				totals = res.Totals()
			}
			b.ReportMetric(float64(totals.TuplesWithData), "tuples")
			b.ReportMetric(float64(totals.InputSets), "inputsets")
			b.ReportMetric(float64(totals.Applies), "applies")
			b.ReportMetric(float64(totals.Files), "files")
		})
	}
}
