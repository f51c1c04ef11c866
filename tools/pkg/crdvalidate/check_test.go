package crdvalidate

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/pkg/crdvalidate/admission"
)

// crd returns a one-version CRD manifest whose spec schema is specSchema
// (YAML, indented for its place).
func crd(specSchema string) []byte {
	return []byte(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: things.example.openshift.io
spec:
  group: example.openshift.io
  names:
    kind: Thing
    listKind: ThingList
    plural: things
    singular: thing
  scope: Cluster
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
` + specSchema)
}

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name, schema string
		// want is "" for a valid CRD, else a substring of a finding at path.
		want, path string
	}{
		{"valid", "            type: object\n            properties:\n              a:\n                type: string\n            x-kubernetes-validations:\n            - rule: \"!has(self.a) || self.a != ''\"\n", "", ""},
		{"syntax error", "            type: object\n            x-kubernetes-validations:\n            - rule: 'self.x =='\n",
			"Syntax error", "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule"},
		{"not boolean", "            type: string\n            x-kubernetes-validations:\n            - rule: self\n",
			"must evaluate to a bool", "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule"},
		{"over the per-rule budget", "            type: array\n            items:\n              type: string\n            x-kubernetes-validations:\n            - rule: self.all(x, self.all(y, x != y || x == y))\n",
			"estimated rule cost exceeds budget", "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule"},
		{"default fails its schema", "            type: string\n            maxLength: 2\n            default: abcd\n",
			"may not be more than 2 bytes", "spec.validation.openAPIV3Schema.properties[spec].default"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := admission.Check(crd(tc.schema), nil)
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == "" {
				if len(v.Findings) != 0 {
					t.Fatalf("findings: %+v", v.Findings)
				}
				return
			}
			if f := find(v, tc.path, tc.want); f == nil || !f.OnCreate {
				t.Fatalf("findings: %+v; want one at %s containing %q", v.Findings, tc.path, tc.want)
			}
		})
	}
}

// TestUpgradeLiftsPerRuleCost: the server exempts an unchanged schema from
// the per-rule cost limit on update, so an existing expensive rule is
// accepted as an upgrade and rejected on a fresh install.
func TestUpgradeLiftsPerRuleCost(t *testing.T) {
	expensive := crd("            type: array\n            items:\n              type: string\n            x-kubernetes-validations:\n            - rule: self.all(x, self.all(y, x != y || x == y))\n")
	v, err := admission.Check(expensive, expensive)
	if err != nil {
		t.Fatal(err)
	}
	f := find(v, "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule", "estimated rule cost exceeds budget")
	if !v.Upgrade || f == nil || !f.OnCreate || f.OnUpdate {
		t.Fatalf("findings: %+v", v.Findings)
	}
}

// TestUpgradeChecksNewRulesLikeCreate: a new broken rule fails both ways.
func TestUpgradeChecksNewRulesLikeCreate(t *testing.T) {
	old := crd("            type: object\n")
	broken := crd("            type: object\n            x-kubernetes-validations:\n            - rule: self.nope()\n")
	v, err := admission.Check(broken, old)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Findings) != 1 || !v.Findings[0].OnCreate || !v.Findings[0].OnUpdate {
		t.Fatalf("findings: %+v", v.Findings)
	}
}

func find(v *Verdict, path, text string) *Finding {
	for i, f := range v.Findings {
		if f.Path == path && strings.Contains(f.Message, text) {
			return &v.Findings[i]
		}
	}
	return nil
}

func TestCheckUndecodable(t *testing.T) {
	if _, err := admission.Check([]byte("apiVersion: v1\nkind: ConfigMap\n"), nil); err == nil {
		t.Fatal("no error for a ConfigMap")
	}
}

func TestCosts(t *testing.T) {
	costs, total, err := admission.Costs(crd("            type: array\n            maxItems: 10\n            items:\n              type: string\n              maxLength: 5\n            x-kubernetes-validations:\n            - rule: self.all(x, x != 'a')\n            - rule: size(self) < 5\n              messageExpression: \"'too many'\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(costs) != 3 {
		t.Fatalf("costs: %+v", costs)
	}
	var sum uint64
	for i, c := range costs {
		sum += c.Cost
		if i > 0 && c.Cost > costs[i-1].Cost {
			t.Errorf("not sorted: %+v", costs)
		}
	}
	if sum != total || total == 0 {
		t.Errorf("total %d, sum of costs %d", total, sum)
	}
	if costs[0].Rule != "self.all(x, x != 'a')" || costs[0].Version != "v1" {
		t.Errorf("most expensive: %+v", costs[0])
	}
}

func TestParseSchemaPath(t *testing.T) {
	sp := parseSchemaPath("spec.versions[1].schema.openAPIV3Schema.properties[spec].properties[tags].items.additionalProperties.x-kubernetes-validations[2].messageExpression")
	if sp.version != 1 || sp.shared || sp.rule != 2 || sp.dataPath() != ".spec.tags[*]{*}" || sp.keyword != "x-kubernetes-validations[2].messageExpression" {
		t.Errorf("%+v", sp)
	}
	sp = parseSchemaPath("spec.validation.openAPIV3Schema.properties[spec].default")
	if sp.version != 0 || !sp.shared || sp.rule != -1 || sp.keyword != "default" || sp.dataPath() != ".spec" {
		t.Errorf("%+v", sp)
	}
	if sp := parseSchemaPath("metadata.name"); sp.version != -1 {
		t.Errorf("%+v", sp)
	}
}

// TestLinkedKubeVersion keeps LinkedKubeVersion in step with go.mod.
func TestLinkedKubeVersion(t *testing.T) {
	data, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`k8s\.io/apiextensions-apiserver v0\.(\d+)\.`).FindSubmatch(data)
	if m == nil || "1."+string(m[1]) != LinkedKubeVersion {
		t.Fatalf("go.mod links apiextensions-apiserver %q, LinkedKubeVersion is %s", m, LinkedKubeVersion)
	}
}
