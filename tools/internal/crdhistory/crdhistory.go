// Package crdhistory builds, for tests, temporary git repositories whose
// commits are synthetic API trees: payload FeatureGate manifests, generated
// CRD files of one CRD (widgets.example.io) and the names of its per-gate
// partial manifests. The tests of codegen compat, crdify and schemacheck
// compare such commits with each other and with the work tree.
package crdhistory

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/gatedcrd/gatedcrd/features/featuregate"
	fgpayload "github.com/gatedcrd/gatedcrd/features/payload"
)

// Paths of the synthetic tree.
const (
	PayloadDir = "payload-manifests/featuregates"
	Widgets    = "widgets.example.io"
	GroupDir   = "widgets"
	OutDir     = "widgets/v1/zz_generated.crd-manifests/"
	GatedDir   = "widgets/v1/zz_generated.featuregated-crd-manifests/" + Widgets + "/"
)

// Snapshot is the content of one commit: path -> content.
type Snapshot map[string]string

// History is a temporary git repository.
type History struct {
	T   *testing.T
	Dir string
}

// New makes an empty repository; the test is skipped without git.
func New(t *testing.T) *History {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	h := &History{T: t, Dir: t.TempDir()}
	h.Git("init", "-q")
	h.Git("config", "user.email", "test@example.io")
	h.Git("config", "user.name", "test")
	h.Git("config", "commit.gpgsign", "false")
	return h
}

// Git runs git in the repository and returns its trimmed output.
func (h *History) Git(args ...string) string {
	h.T.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = h.Dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		h.T.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// Write replaces the work tree with fs.
func (h *History) Write(fs Snapshot) {
	h.T.Helper()
	entries, err := os.ReadDir(h.Dir)
	if err != nil {
		h.T.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != ".git" {
			if err := os.RemoveAll(filepath.Join(h.Dir, e.Name())); err != nil {
				h.T.Fatal(err)
			}
		}
	}
	for p, content := range fs {
		full := filepath.Join(h.Dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			h.T.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			h.T.Fatal(err)
		}
	}
}

// Commit replaces the work tree with fs, commits it and returns the commit.
func (h *History) Commit(fs Snapshot) string {
	h.T.Helper()
	h.Write(fs)
	h.Git("add", "-A")
	h.Git("commit", "-q", "--allow-empty", "-m", "tree")
	return h.Git("rev-parse", "HEAD")
}

// Payload renders payload FeatureGate manifests where each gate is enabled
// in the given feature sets (every profile, every version).
func Payload(t *testing.T, gates map[string][]featuregate.FeatureSetName) Snapshot {
	t.Helper()
	reg := featuregate.NewRegistry()
	for name, sets := range gates {
		b := reg.NewFeatureGate(featuregate.FeatureGateName(name)).
			OwningComponent("widgets").ContactPerson("widget-team").
			ProductScope(featuregate.ProductScopeOCP).
			EnhancementPR("https://github.com/openshift/enhancements/pull/1")
		if len(sets) > 0 {
			b.EnableIn(sets...)
		}
		if _, err := b.Register(); err != nil {
			t.Fatal(err)
		}
	}
	rendered, err := fgpayload.Render(reg.AllFeatureSets(), "")
	if err != nil {
		t.Fatal(err)
	}
	out := Snapshot{}
	for _, f := range rendered {
		out[PayloadDir+"/"+f.Name] = string(f.Data)
	}
	return out
}

// Feature sets in which a test gate is enabled.
var (
	Preview = []featuregate.FeatureSetName{featuregate.TechPreviewNoUpgrade, featuregate.DevPreviewNoUpgrade}
	DevOnly = []featuregate.FeatureSetName{featuregate.DevPreviewNoUpgrade}
	Stable  = []featuregate.FeatureSetName{featuregate.Default, featuregate.OKD, featuregate.TechPreviewNoUpgrade, featuregate.DevPreviewNoUpgrade}
)

// Str is a string schema.
func Str() apiextensionsv1.JSONSchemaProps { return apiextensionsv1.JSONSchemaProps{Type: "string"} }

// Enum is a string schema with the given values.
func Enum(values ...string) apiextensionsv1.JSONSchemaProps {
	s := Str()
	for _, v := range values {
		s.Enum = append(s.Enum, apiextensionsv1.JSON{Raw: []byte(`"` + v + `"`)})
	}
	return s
}

// Object is an object schema.
func Object(props map[string]apiextensionsv1.JSONSchemaProps, required ...string) apiextensionsv1.JSONSchemaProps {
	return apiextensionsv1.JSONSchemaProps{Type: "object", Properties: props, Required: required}
}

// WithRule adds a CEL rule to s.
func WithRule(s apiextensionsv1.JSONSchemaProps, rule string) apiextensionsv1.JSONSchemaProps {
	s.XValidations = append(s.XValidations, apiextensionsv1.ValidationRule{Rule: rule, Message: "m"})
	return s
}

// Version is one version of the widgets CRD and the schema of its spec.
type Version struct {
	Name    string
	Storage bool
	Spec    apiextensionsv1.JSONSchemaProps
}

// CRDFile renders a generated CRD file of the widgets CRD with one
// version, v1, in both profiles, restricted to the given feature sets (""
// = all).
func CRDFile(t *testing.T, featureSets string, spec apiextensionsv1.JSONSchemaProps) string {
	t.Helper()
	return CRDFileOf(t, featureSets, Version{Name: "v1", Storage: true, Spec: spec})
}

// CRDFileOf is CRDFile with the given served versions.
func CRDFileOf(t *testing.T, featureSets string, versions ...Version) string {
	t.Helper()
	ann := map[string]string{
		"include.release.openshift.io/ibm-cloud-managed":              "true",
		"include.release.openshift.io/self-managed-high-availability": "true",
	}
	if featureSets != "" {
		ann["release.openshift.io/feature-set"] = featureSets
	}
	crd := apiextensionsv1.CustomResourceDefinition{
		TypeMeta:   metav1.TypeMeta{APIVersion: "apiextensions.k8s.io/v1", Kind: "CustomResourceDefinition"},
		ObjectMeta: metav1.ObjectMeta{Name: Widgets, Annotations: ann},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: "example.io",
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: "widgets", Singular: "widget", Kind: "Widget", ListKind: "WidgetList"},
			Scope: apiextensionsv1.ClusterScoped,
		},
	}
	for _, v := range versions {
		crd.Spec.Versions = append(crd.Spec.Versions, apiextensionsv1.CustomResourceDefinitionVersion{
			Name: v.Name, Served: true, Storage: v.Storage,
			Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
				Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{"spec": v.Spec},
			}},
		})
	}
	data, err := yaml.Marshal(crd)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// Gated names the partial manifests of the widgets CRD: the ungated one
// and one per gate.
func Gated(gates ...string) Snapshot {
	out := Snapshot{GatedDir + "AAA_ungated.yaml": "# partial manifest\n"}
	for _, g := range gates {
		out[GatedDir+g+".yaml"] = "# partial manifest\n"
	}
	return out
}

// Merge unites snapshots, later ones winning.
func Merge(trees ...Snapshot) Snapshot {
	out := Snapshot{}
	for _, t := range trees {
		for k, v := range t {
			out[k] = v
		}
	}
	return out
}
