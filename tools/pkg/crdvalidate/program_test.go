package crdvalidate

import (
	"context"
	"errors"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/internal/kubeprogram"
	"github.com/gatedcrd/gatedcrd/tools/pkg/crdvalidate/admission"
)

func TestProgramFiles(t *testing.T) {
	v, _ := kubeprogram.Lookup("1.32")
	files, err := programFiles(v)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(files["go.mod"]), "module "+programModulePath+"\n") || !strings.Contains(string(files["go.mod"]), "k8s.io/apiextensions-apiserver v0.32.1") {
		t.Errorf("go.mod:\n%s", files["go.mod"])
	}
	fset := token.NewFileSet()
	for name, data := range files {
		if !strings.HasSuffix(name, ".go") {
			continue
		}
		if strings.HasSuffix(name, "_test.go") || strings.Contains(string(data), "go:build ignore") {
			t.Errorf("%s is a test or carries the ignore constraint", name)
		}
		f, err := parser.ParseFile(fset, name, data, parser.ImportsOnly)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want := "admission"
		if name == "main.go" {
			want = "main"
		} else if !strings.HasPrefix(name, "admission/") {
			t.Errorf("unexpected file %s", name)
		}
		if f.Name.Name != want {
			t.Errorf("%s is package %s, want %s", name, f.Name.Name, want)
		}
		for _, imp := range f.Imports {
			if strings.Contains(imp.Path.Value, "github.com/gatedcrd/") {
				t.Errorf("%s imports %s, which the program module cannot resolve", name, imp.Path.Value)
			}
		}
	}
}

// urlPathRule is a string rule whose estimated cost the estimator of
// Kubernetes 1.37 puts over the per-rule budget, and 1.32's does not (as
// on a real tree).
var urlPathRule = crd("            type: string\n            maxLength: 300\n            x-kubernetes-validations:\n            - rule: \"matches((url(self).getEscapedPath()), '^/(api/)?v[0-9]+/{0,1}$')\"\n")

// TestProgramValidates builds and runs the validation program of every
// version in GATEDCRD_TEST_KUBE_VERSIONS other than the linked one (make
// test: 1.32, whose program shares the go build cache with the API server
// program of the apitest module; make test TEST_KUBE_VERSIONS="1.32 1.33
// 1.34 1.35 1.36" checks every supported one). The first build of a
// version takes minutes.
func TestProgramValidates(t *testing.T) {
	minors := strings.Fields(os.Getenv("GATEDCRD_TEST_KUBE_VERSIONS"))
	if len(minors) == 0 {
		t.Skip("set GATEDCRD_TEST_KUBE_VERSIONS to the Kubernetes versions to build and run")
	}
	for _, minor := range minors {
		v, err := kubeprogram.Lookup(minor)
		if err != nil {
			t.Fatal(err)
		}
		if v.Minor == LinkedKubeVersion {
			continue
		}
		t.Run(v.Minor, func(t *testing.T) {
			p, err := StartProgram(context.Background(), v, kubeprogram.BuildOptions{Progress: os.Stderr})
			if err != nil {
				t.Fatal(err)
			}
			defer func() {
				if err := p.Close(); err != nil {
					t.Error(err)
				}
			}()
			// A syntax error, as in process.
			broken := crd("            type: object\n            x-kubernetes-validations:\n            - rule: 'self.x =='\n")
			out, err := p.Validate(admission.Request{Data: broken, Costs: true})
			if err != nil {
				t.Fatal(err)
			}
			if out.Verdict == nil || find(out.Verdict, "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule", "Syntax error") == nil {
				t.Fatalf("outcome %+v", out)
			}
			// Undecodable input is an outcome, and the program goes on.
			if out, err := p.Validate(admission.Request{Data: []byte("kind: ConfigMap\napiVersion: v1\n")}); err != nil || !strings.Contains(out.Error, "cannot decode") {
				t.Fatalf("outcome %+v, %v", out, err)
			}
			// That release's estimator, not the linked one's.
			linked, err := admission.Check(urlPathRule, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(linked.Findings) == 0 {
				t.Fatalf("the linked release accepts the rule; the test needs another")
			}
			out, err = p.Validate(admission.Request{Data: urlPathRule, Costs: true})
			if err != nil {
				t.Fatal(err)
			}
			if v.Minor == "1.32" && (len(out.Verdict.Findings) != 0 || len(out.Costs) != 1 || out.Costs[0].Cost > RuleBudget) {
				t.Errorf("Kubernetes 1.32 outcome %+v, want no findings and a cost within budget", out)
			}
			// That release's CEL libraries.
			checkCELSince(t, v.Minor, func(data []byte) (*Verdict, error) {
				out, err := p.Validate(admission.Request{Data: data})
				if err == nil && out.Error != "" {
					err = errors.New(out.Error)
				}
				return out.Verdict, err
			})
		})
	}
}
