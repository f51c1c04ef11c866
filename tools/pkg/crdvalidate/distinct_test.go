package crdvalidate

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/crdvalidate/admission"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// equallyExpensive is a spec schema with n lists whose rules all cost the
// same and together exceed the per-CRD budget.
func equallyExpensive(n int) string {
	var b strings.Builder
	b.WriteString("            type: object\n            properties:\n")
	for i := range n {
		fmt.Fprintf(&b, "              l%d:\n                type: array\n                maxItems: 5000\n                items:\n                  type: string\n                  maxLength: 1000\n                  x-kubernetes-validations:\n                  - rule: self.matches('^a.*b$')\n", i)
	}
	return b.String()
}

// TestStableContributors: the server names 4 contributors to a total over
// budget, chosen among equal costs at random; Check names all of them,
// the same every time.
func TestStableContributors(t *testing.T) {
	data := crd(equallyExpensive(30))
	var first []Finding
	for i := range 10 {
		v, err := admission.Check(data, nil)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = v.Findings
			continue
		}
		if !reflect.DeepEqual(v.Findings, first) {
			t.Fatalf("run %d differs:\n%+v\nfirst:\n%+v", i, v.Findings, first)
		}
	}
	var contributors int
	for _, f := range first {
		if strings.HasPrefix(f.Message, "Forbidden: contributed to estimated rule cost total") {
			contributors++
		}
	}
	if contributors != 30 || find(&Verdict{Findings: first}, "spec.validation.openAPIV3Schema", "exceeds budget") == nil {
		t.Fatalf("want 30 contributors and the total: %+v", first)
	}
}

// TestRunSharesVerdicts: files that differ in annotation values only are
// validated once and reported together.
func TestRunSharesVerdicts(t *testing.T) {
	broken := "            type: object\n            x-kubernetes-validations:\n            - rule: self.nope()\n"
	dir := t.TempDir()
	tr := tree.New()
	var files []string
	for _, set := range []string{"Default", "TechPreviewNoUpgrade"} {
		data := strings.Replace(string(crd(broken)), "metadata:\n", "metadata:\n  annotations:\n    release.openshift.io/feature-set: "+set+"\n", 1)
		path := filepath.Join(dir, "things-"+set+".crd.yaml")
		tr.WriteFile(path, []byte(data))
		files = append(files, path)
	}
	problems := &diag.List{}
	res, err := Run(Input{Tree: tr, BaseDir: dir, Files: files, Problems: problems})
	if err != nil {
		t.Fatal(err)
	}
	if res.Files != 2 || res.Distinct != 1 || res.Findings != 1 {
		t.Fatalf("result %+v, problems: %v", res, problems.Items())
	}
	got := fmt.Sprint(problems.Items())
	if !strings.Contains(got, "things-Default.crd.yaml, things-TechPreviewNoUpgrade.crd.yaml") || !strings.Contains(got, "Default,TechPreviewNoUpgrade") {
		t.Errorf("problems:\n%s", got)
	}
}

// TestGroupKeyIgnoresAnnotationValuesOnly: checkDistinct's key leaves
// out the values of annotations other than api-approved.kubernetes.io, and
// the verdict cache's keeps them.
func verdictKey(f *fingerprint) string {
	_, key := requestKeys(f, nil, true, false)
	return key
}

func TestGroupKeyIgnoresAnnotationValuesOnly(t *testing.T) {
	obj := func(ann map[string]any) map[string]any {
		return map[string]any{"metadata": map[string]any{"name": "a", "annotations": ann}, "spec": map[string]any{"group": "g"}}
	}
	identityKey := func(obj map[string]any) [32]byte {
		f := fingerprintOf(obj)
		group, _ := requestKeys(&f, nil, true, false)
		return group
	}
	same := identityKey(obj(map[string]any{"x": "1"})) == identityKey(obj(map[string]any{"x": "2"}))
	otherKey := identityKey(obj(map[string]any{"x": "1"})) == identityKey(obj(map[string]any{"y": "1"}))
	approval := identityKey(obj(map[string]any{"api-approved.kubernetes.io": "a"})) == identityKey(obj(map[string]any{"api-approved.kubernetes.io": "b"}))
	if !same || otherKey || approval {
		t.Errorf("same values %v, other key %v, other approval %v", same, otherKey, approval)
	}
	a, b := fingerprintOf(obj(map[string]any{"x": "1"})), fingerprintOf(obj(map[string]any{"x": "2"}))
	if _, ka := requestKeys(&a, nil, true, false); ka == verdictKey(&b) {
		t.Error("the verdict cache's key ignores annotation values")
	}
}
