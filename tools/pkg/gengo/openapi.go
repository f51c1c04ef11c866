package gengo

import (
	"fmt"
	"path/filepath"

	gengov2 "k8s.io/gengo/v2"
	"k8s.io/gengo/v2/generator"
	"k8s.io/kube-openapi/cmd/openapi-gen/args"
	openapigen "k8s.io/kube-openapi/pkg/generators"

	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// OpenAPIKubernetesPackages are the Kubernetes packages whose types the
// reference puts in the OpenAPI definitions besides the API packages: the
// types API packages embed or refer to. A pattern ending in /... matches
// nothing without error when no package matches.
var OpenAPIKubernetesPackages = []string{
	"k8s.io/apimachinery/pkg/apis/meta/v1",
	"k8s.io/apimachinery/pkg/runtime",
	"k8s.io/apimachinery/pkg/util/intstr",
	"k8s.io/apimachinery/pkg/api/resource",
	"k8s.io/apimachinery/pkg/version/...",
	"k8s.io/api/core/v1",
	"k8s.io/api/rbac/v1",
	"k8s.io/api/authorization/v1",
	"k8s.io/api/admissionregistration/v1",
}

// OpenAPIOptions are openapi-gen's options the reference exposes.
type OpenAPIOptions struct {
	HeaderFile string
	// OutputDir is the directory of the generated package; the package's
	// name is its last element, and its import path is OutputDir as
	// given (the reference passes the directory as both).
	OutputDir string
	// OutputFile is the file's base name.
	OutputFile string
	// ModelNameFile, when set, makes the definitions use the model name
	// functions of packages that have them (+k8s:openapi-model-package).
	ModelNameFile string
	// ExistingDir, when set, is an existing directory gengo is pointed at
	// instead of OutputDir, which it would create: under --verify nothing
	// may be created. The file is still recorded under OutputDir.
	ExistingDir string
}

// OpenAPI records the OpenAPI definitions of every type of the packages
// at importPaths (which must be in the universe, Kubernetes packages
// included) in one file, as kube-openapi's openapi-gen writes it. API
// rule violations are printed to standard output, as openapi-gen does.
func (u *Universe) OpenAPI(t *tree.Tree, importPaths []string, opts OpenAPIOptions) (string, error) {
	a := args.New()
	a.OutputDir, a.OutputPkg, a.OutputFile, a.GoHeaderFile = opts.OutputDir, opts.OutputDir, opts.OutputFile, opts.HeaderFile
	var place func(string) string
	if opts.ExistingDir != "" {
		a.OutputDir = opts.ExistingDir
		place = func(p string) string { return filepath.Join(opts.OutputDir, filepath.Base(p)) }
	}
	a.OutputModelNameFile = opts.ModelNameFile
	if err := a.Validate(); err != nil {
		return "", err
	}
	boilerplate, err := gengov2.GoBoilerplate(a.GoHeaderFile, gengov2.StdBuildTag, gengov2.StdGeneratedBy)
	if err != nil {
		return "", fmt.Errorf("reading the header file: %w", err)
	}
	paths, err := u.Execute(t, Run{
		Inputs:        importPaths,
		NameSystems:   openapigen.NameSystems(),
		DefaultSystem: openapigen.DefaultNameSystem(),
		Targets: func(c *generator.Context) []generator.Target {
			return openapigen.GetOpenAPITargets(c, a, boilerplate)
		},
		Place: place,
	})
	if err != nil {
		return "", err
	}
	want := filepath.Join(opts.OutputDir, opts.OutputFile)
	for _, p := range paths {
		if p == want {
			return p, nil
		}
	}
	return "", fmt.Errorf("openapi-gen generated no %s", want)
}
