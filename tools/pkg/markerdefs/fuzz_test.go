package markerdefs

import (
	"testing"

	crdmarkers "sigs.k8s.io/controller-tools/pkg/crd/markers"
	"sigs.k8s.io/controller-tools/pkg/markers"
)

// FuzzParseMarker feeds arbitrary marker lines to every definition the
// pipeline registers (upstream's and ours): lookup and parsing must return
// a value or an error, never panic.
func FuzzParseMarker(f *testing.F) {
	for _, seed := range []string{
		"+openshift:enable:FeatureGate=Example",
		`+openshift:validation:FeatureGateAwareEnum:featureGate="",enum="";StableValue`,
		`+openshift:validation:FeatureGateAwareXValidation:requiredFeatureGate=A;B,rule="self.x == oldSelf.x",optionalOldSelf=true`,
		`+openshift:validation:FeatureGateAwareMaxItems:featureGate=Example,maxItems=3`,
		"+openshift:file-pattern=cvoRunLevel=0000_50,operatorName=my-operator,operatorOrdering=01",
		"+openshift:api-approved.openshift.io=https://github.com/openshift/api/pull/1",
		"+kubebuilder:resource:path=widgets,scope=Cluster,shortName=w;wd",
		`+kubebuilder:printcolumn:name=Age,type=date,JSONPath=.metadata.creationTimestamp,priority=1`,
		`+kubebuilder:metadata:annotations="a=b"`,
		"+openshift:validation:FeatureGateAwareEnum:featureGate={A,B",
		"+openshift:file-pattern=",
		"+",
	} {
		f.Add(seed)
	}
	reg := &markers.Registry{}
	if err := crdmarkers.Register(reg); err != nil {
		f.Fatal(err)
	}
	if err := Register(reg); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		if len(raw) == 0 || raw[0] != '+' {
			raw = "+" + raw
		}
		for _, target := range []markers.TargetType{markers.DescribesField, markers.DescribesType, markers.DescribesPackage} {
			if def := reg.Lookup(raw, target); def != nil {
				_, _ = def.Parse(raw)
			}
		}
	})
}
