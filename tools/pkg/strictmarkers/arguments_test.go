package strictmarkers

import (
	"strings"
	"testing"

	crdmarkers "sigs.k8s.io/controller-tools/pkg/crd/markers"
	"sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/gatedcrd/gatedcrd/tools/pkg/markerdefs"
)

func TestArgumentProblems(t *testing.T) {
	reg := &markers.Registry{}
	if err := crdmarkers.Register(reg); err != nil {
		t.Fatal(err)
	}
	if err := markerdefs.Register(reg); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ text, want string }{
		{`+openshift:validation:FeatureGateAwareEnum:featureGate=A,featureGate=B,enum=x`, "argument featureGate is given twice"},
		{`+openshift:validation:FeatureGateAwareXValidation:featureGate=A,rule="",message="m"`, "rule is empty"},
		{`+openshift:validation:FeatureGateAwareEnum:featureGate=A,enum={}`, "enum is empty"},
		{`+openshift:validation:FeatureGateAwareXValidation:featureGate=A,rule="self.a == 'x,y'",message="featureGate=B,featureGate=C"`, ""},
		{`+openshift:validation:FeatureGateAwareEnum:featureGate={A,B},enum=x;y`, ""},
		{`+kubebuilder:printcolumn:name=Age,type=date,JSONPath=.metadata.creationTimestamp`, ""},
		{`+openshift:file-pattern=cvoRunLevel=1,operatorName=o`, ""},
		{`+openshift:file-pattern=cvoRunLevel=1,operatorName=o,operatorComponent=c`,
			`unknown argument "operatorComponent" of +openshift:file-pattern (arguments: cvoRunLevel, operatorName, operatorOrdering); did you mean operatorName?; the CRD stages ignore it`},
	}
	for _, c := range cases {
		def := reg.Lookup(c.text, markers.DescribesField)
		if def == nil {
			def = reg.Lookup(c.text, markers.DescribesType)
		}
		if def == nil {
			t.Fatalf("no definition for %s", c.text)
		}
		value, err := def.Parse(c.text)
		if err != nil {
			t.Fatalf("%s: %v", c.text, err)
		}
		got := strings.Join(argumentProblems(def, c.text, value), "; ")
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%s: problems %q, want %q", c.text, got, c.want)
		}
	}
}
