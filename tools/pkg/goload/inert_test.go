package goload

import (
	"path/filepath"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
)

// TestLoadLeavesOutInertProtobufCode: generated files that no stage needs
// are not part of any package's compiled files, in the roots and in their
// dependencies (metav1's generated.pb.go and swagger documentation), so
// nothing parses them; one that declares a type stays.
func TestLoadLeavesOutInertProtobufCode(t *testing.T) {
	dir := testtree.Write(t, map[string]string{
		"v1/types.go":        "package v1\n\nimport metav1 \"k8s.io/apimachinery/pkg/apis/meta/v1\"\n\ntype Widget struct {\n\tmetav1.TypeMeta\n\tSpec Spec\n}\n",
		"v1/generated.pb.go": "package v1\n\nfunc (m *Widget) Size() int { return 0 }\n",
		"v2/types.go":        "package v2\n\ntype Widget struct{ Spec Spec }\n",
		"v2/generated.pb.go": "package v2\n\ntype Spec struct{ Size int }\n",
		"v1/spec.go":         "package v1\n\ntype Spec struct{ Size int }\n",
	})
	prefix := "github.com/gatedcrd/gatedcrd/tools/pkg/goload/testdata/" + filepath.Base(dir)
	u, err := Load(dir, []string{prefix + "/v1", prefix + "/v2"})
	if err != nil {
		t.Fatal(err)
	}
	names := func(importPath string) []string {
		var out []string
		for _, f := range u.Package(importPath).CompiledGoFiles {
			out = append(out, filepath.Base(f))
		}
		return out
	}
	for _, c := range []struct {
		pkg  string
		want bool
	}{
		{prefix + "/v1", false},
		{prefix + "/v2", true},
		{"k8s.io/apimachinery/pkg/apis/meta/v1", false},
	} {
		got := false
		for _, n := range names(c.pkg) {
			got = got || n == "generated.pb.go" || n == "types_swagger_doc_generated.go"
		}
		if got != c.want {
			t.Errorf("%s: generated files compiled = %v, want %v (files %v)", c.pkg, got, c.want, names(c.pkg))
		}
	}
	for _, p := range []string{prefix + "/v1", prefix + "/v2"} {
		root := u.Root(p)
		u.Checker.Check(root)
		if errs := ReportableErrors(root); len(errs) > 0 || root.Types.Scope().Lookup("Widget") == nil {
			t.Errorf("%s: errors %v", p, errs)
		}
	}
}
