package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// The operator repository of the test: its own module, API group and gates.
var operatorFiles = map[string]string{
	"api/widgets/v1/doc.go": `// +groupName=widgets.operator.example.com
// +openshift:featuregated-schema-gen=true

// Package v1 is the operator's API.
package v1
`,
	"api/widgets/v1/register.go": `package v1

import "k8s.io/apimachinery/pkg/runtime/schema"

// GroupVersion identifies the API.
var GroupVersion = schema.GroupVersion{Group: "widgets.operator.example.com", Version: "v1"}
`,
	"api/widgets/v1/types.go": `package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Widget is a widget.
// +kubebuilder:object:root=true
// +kubebuilder:resource:path=widgets,scope=Namespaced
// +openshift:file-pattern=operatorOrdering=00
type Widget struct {
	metav1.TypeMeta ` + "`json:\",inline\"`" + `
	metav1.ObjectMeta ` + "`json:\"metadata,omitempty\"`" + `

	// spec is the desired state.
	Spec WidgetSpec ` + "`json:\"spec\"`" + `
}

// WidgetSpec is the desired state of a Widget.
type WidgetSpec struct {
	// size is the widget's size.
	// +required
	Size string ` + "`json:\"size\"`" + `

	// colour only exists with the WidgetColours gate.
	// +openshift:enable:FeatureGate=WidgetColours
	// +optional
	Colour string ` + "`json:\"colour,omitempty\"`" + `
}
`,
	// The operator renders its own payload FeatureGate manifests with the
	// featuregate and payload libraries.
	"hack/featuregates/main.go": `package main

import (
	"log"

	"github.com/gatedcrd/gatedcrd/features/featuregate"
	"github.com/gatedcrd/gatedcrd/features/payload"
)

func main() {
	reg := featuregate.NewRegistry()
	if _, err := reg.NewFeatureGate("WidgetColours").
		OwningComponent("widget-operator").ContactPerson("widget-team").ProductScope(featuregate.ProductScopeOCP).
		EnhancementPR("https://github.com/openshift/enhancements/pull/4242").
		Enable(featuregate.InTechPreviewNoUpgrade(), featuregate.InDevPreviewNoUpgrade()).
		Register(); err != nil {
		log.Fatal(err)
	}
	files, err := payload.Render(reg.AllFeatureSets(), "")
	if err != nil {
		log.Fatal(err)
	}
	if err := payload.WriteDir("payload-manifests/featuregates", files); err != nil {
		log.Fatal(err)
	}
}
`,
}

const zeroVersion = "v0.0.0-00010101000000-000000000000"

// privateModules keeps the go command from asking the module proxy or the
// checksum database about this project's unpublished module paths, which
// the operator module replaces by this checkout.
const privateModules = "GOPRIVATE=github.com/gatedcrd"

func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "tools", "go.mod")); err != nil {
		t.Fatalf("repository root not found at %s: %v", root, err)
	}
	return root
}

// goflags keeps -modcacherw of the caller's GOFLAGS (CI removes its fresh
// module cache afterwards) and adds extra.
func goflags(extra ...string) string {
	var flags []string
	for _, f := range strings.Fields(os.Getenv("GOFLAGS")) {
		if f == "-modcacherw" {
			flags = append(flags, f)
		}
	}
	return strings.Join(append(flags, extra...), " ")
}

func goCmd(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS="+goflags("-mod=mod"), "GOWORK=off", privateModules)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s (in %s): %v\n%s", strings.Join(args, " "), dir, err, out)
	}
	return string(out)
}

func run(t *testing.T, dir, bin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", bin, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// newOperatorRepo writes the operator module and points it at this checkout.
func newOperatorRepo(t *testing.T) string {
	t.Helper()
	root := repoRoot(t)
	dir := t.TempDir()
	for rel, content := range operatorFiles {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gomod := "module example.com/widget-operator\n\ngo 1.26.0\n\n" +
		"require (\n\tgithub.com/gatedcrd/gatedcrd " + zeroVersion + "\n\tgithub.com/gatedcrd/gatedcrd/tools " + zeroVersion + "\n)\n\n" +
		"replace (\n\tgithub.com/gatedcrd/gatedcrd => " + root + "\n\tgithub.com/gatedcrd/gatedcrd/tools => " + filepath.Join(root, "tools") + "\n)\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
	// Copy go.sum lines of the tools module so no checksum must be fetched.
	sum, err := os.ReadFile(filepath.Join(root, "tools", "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func outputs(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(dir, "api/widgets/v1/zz_generated.crd-manifests"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}

func checkOperatorOutput(t *testing.T, dir string) {
	t.Helper()
	want := []string{
		"00_widgets-CustomNoUpgrade.crd.yaml",
		"00_widgets-Default.crd.yaml",
		"00_widgets-DevPreviewNoUpgrade.crd.yaml",
		"00_widgets-OKD.crd.yaml",
		"00_widgets-TechPreviewNoUpgrade.crd.yaml",
		"doc.go",
	}
	if got := outputs(t, dir); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("outputs = %v, want %v", got, want)
	}
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join(dir, "api/widgets/v1/zz_generated.crd-manifests", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	if strings.Contains(read("00_widgets-Default.crd.yaml"), "colour:") {
		t.Error("Default manifest carries the gated field")
	}
	if !strings.Contains(read("00_widgets-TechPreviewNoUpgrade.crd.yaml"), "colour:") {
		t.Error("TechPreviewNoUpgrade manifest lacks the gated field")
	}
	if got := read("doc.go"); got != "package widgets_v1_crdmanifests\n" {
		t.Errorf("doc.go = %q", got)
	}
}

// addTool adds codegen with `go get -tool`. The modules are replaced by
// this checkout at the explicit version go.mod requires, so the go command
// needs no version query for them (and privateModules keeps it from asking
// the proxy about the unpublished paths anyway). Every other
// module comes from the proxy, as on a fresh machine: nothing here relies
// on what earlier builds left in the module cache.
func addTool(t *testing.T, dir string) {
	t.Helper()
	goCmd(t, dir, "get", "-tool", "github.com/gatedcrd/gatedcrd/tools/cmd/codegen@"+zeroVersion)
	data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "\ntool github.com/gatedcrd/gatedcrd/tools/cmd/codegen\n") {
		t.Fatalf("go.mod has no tool directive:\n%s", data)
	}
}

// TestOperatorRepositoryWithToolDirective adds codegen with `go get -tool`
// and runs `go tool codegen crd-manifests`, then proves --verify passes.
func TestOperatorRepositoryWithToolDirective(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the tool in a fresh module")
	}
	dir := newOperatorRepo(t)
	addTool(t, dir)
	goCmd(t, dir, "mod", "tidy")
	goCmd(t, dir, "run", "./hack/featuregates")
	goCmd(t, dir, "tool", "codegen", "crd-manifests", "--base-dir", ".")
	checkOperatorOutput(t, dir)
	goCmd(t, dir, "tool", "codegen", "crd-manifests", "--base-dir", ".", "--verify")
}

// TestOperatorRepositoryVendored vendors the modules and builds codegen from
// the vendored copy, as a Makefile target would.
func TestOperatorRepositoryVendored(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the tool in a fresh module")
	}
	dir := newOperatorRepo(t)
	addTool(t, dir)
	goCmd(t, dir, "mod", "tidy")
	goCmd(t, dir, "mod", "vendor")
	if _, err := os.Stat(filepath.Join(dir, "vendor/github.com/gatedcrd/gatedcrd/tools/cmd/codegen/main.go")); err != nil {
		t.Fatalf("codegen not vendored: %v", err)
	}
	bin := filepath.Join(dir, "bin", "codegen")
	cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "build", "-mod=vendor", "-o", bin, "github.com/gatedcrd/gatedcrd/tools/cmd/codegen")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS="+goflags(), privateModules)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building vendored codegen: %v\n%s", err, out)
	}
	goCmd(t, dir, "run", "./hack/featuregates")
	run(t, dir, bin, "crd-manifests", "--base-dir", ".")
	checkOperatorOutput(t, dir)
	run(t, dir, bin, "crd-manifests", "--base-dir", ".", "--verify")
}
