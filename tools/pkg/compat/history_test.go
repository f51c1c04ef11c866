package compat

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

// A history is a temporary git repository whose commits are synthetic API
// trees: payload FeatureGate manifests, generated CRD files and the names
// of the per-gate partial manifests.

const (
	payloadDir = "payload-manifests/featuregates"
	widgets    = "widgets.example.io"
	outDir     = "widgets/v1/zz_generated.crd-manifests/"
	gatedDir   = "widgets/v1/zz_generated.featuregated-crd-manifests/" + widgets + "/"
)

// snapshot is the content of one commit: path -> content.
type snapshot map[string]string

type history struct {
	t   *testing.T
	dir string
}

func newHistory(t *testing.T) *history {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	h := &history{t: t, dir: t.TempDir()}
	h.git("init", "-q")
	h.git("config", "user.email", "test@example.io")
	h.git("config", "user.name", "test")
	h.git("config", "commit.gpgsign", "false")
	return h
}

func (h *history) git(args ...string) string {
	h.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = h.dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		h.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// commit replaces the work tree with fs and commits it.
func (h *history) commit(fs snapshot) string {
	h.t.Helper()
	entries, err := os.ReadDir(h.dir)
	if err != nil {
		h.t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != ".git" {
			if err := os.RemoveAll(filepath.Join(h.dir, e.Name())); err != nil {
				h.t.Fatal(err)
			}
		}
	}
	for p, content := range fs {
		full := filepath.Join(h.dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			h.t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			h.t.Fatal(err)
		}
	}
	h.git("add", "-A")
	h.git("commit", "-q", "--allow-empty", "-m", "tree")
	return h.git("rev-parse", "HEAD")
}

// compare runs compat between the first commit and the work tree.
func (h *history) compare(base string) *Report {
	h.t.Helper()
	rep, err := Run(Options{
		Old:        GitSource{Dir: h.dir, Rev: base},
		New:        DirSource{Root: h.dir},
		PayloadDir: payloadDir,
		Accepted:   CodegenYAMLAcceptances(h.dir),
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return rep
}

// payload renders payload FeatureGate manifests where each gate is enabled
// in the given feature sets (every profile, every version).
func payload(t *testing.T, gates map[string][]featuregate.FeatureSetName) snapshot {
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
	out := snapshot{}
	for _, f := range rendered {
		out[payloadDir+"/"+f.Name] = string(f.Data)
	}
	return out
}

var (
	preview = []featuregate.FeatureSetName{featuregate.TechPreviewNoUpgrade, featuregate.DevPreviewNoUpgrade}
	devOnly = []featuregate.FeatureSetName{featuregate.DevPreviewNoUpgrade}
	stable  = []featuregate.FeatureSetName{featuregate.Default, featuregate.OKD, featuregate.TechPreviewNoUpgrade, featuregate.DevPreviewNoUpgrade}
)

// Schema helpers.
func str() apiextensionsv1.JSONSchemaProps { return apiextensionsv1.JSONSchemaProps{Type: "string"} }

func enum(values ...string) apiextensionsv1.JSONSchemaProps {
	s := str()
	for _, v := range values {
		s.Enum = append(s.Enum, apiextensionsv1.JSON{Raw: []byte(`"` + v + `"`)})
	}
	return s
}

func object(props map[string]apiextensionsv1.JSONSchemaProps, required ...string) apiextensionsv1.JSONSchemaProps {
	return apiextensionsv1.JSONSchemaProps{Type: "object", Properties: props, Required: required}
}

func withRule(s apiextensionsv1.JSONSchemaProps, rule string) apiextensionsv1.JSONSchemaProps {
	s.XValidations = append(s.XValidations, apiextensionsv1.ValidationRule{Rule: rule, Message: "m"})
	return s
}

// crdFile renders a generated CRD file of the widgets CRD, in both
// profiles, restricted to the given feature sets ("" = all).
func crdFile(t *testing.T, featureSets string, spec apiextensionsv1.JSONSchemaProps) string {
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
		ObjectMeta: metav1.ObjectMeta{Name: widgets, Annotations: ann},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: "example.io",
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: "widgets", Singular: "widget", Kind: "Widget", ListKind: "WidgetList"},
			Scope: apiextensionsv1.ClusterScoped,
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
				Name: "v1", Served: true, Storage: true,
				Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
					Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{"spec": spec},
				}},
			}},
		},
	}
	data, err := yaml.Marshal(crd)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// gated names the partial manifests of the widgets CRD: the ungated one
// and one per gate.
func gated(gates ...string) snapshot {
	out := snapshot{gatedDir + "AAA_ungated.yaml": "# partial manifest\n"}
	for _, g := range gates {
		out[gatedDir+g+".yaml"] = "# partial manifest\n"
	}
	return out
}

func merge(trees ...snapshot) snapshot {
	out := snapshot{}
	for _, t := range trees {
		for k, v := range t {
			out[k] = v
		}
	}
	return out
}
