package gengo

import (
	"fmt"

	gengov2 "k8s.io/gengo/v2"
	"k8s.io/gengo/v2/generator"
	"k8s.io/kube-openapi/cmd/openapi-gen/args"
	openapigen "k8s.io/kube-openapi/pkg/generators"

	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// ModelNames records, for each package at importPaths whose doc.go has
// +k8s:openapi-model-package, the file of OpenAPI model name methods
// (outputFile) that kube-openapi's generator writes; packages without the
// tag get none.
func (u *Universe) ModelNames(t *tree.Tree, importPaths []string, headerFile, outputFile string) ([]string, error) {
	a := args.New()
	a.OutputModelNameFile, a.GoHeaderFile = outputFile, headerFile
	boilerplate, err := gengov2.GoBoilerplate(headerFile, gengov2.StdBuildTag, gengov2.StdGeneratedBy)
	if err != nil {
		return nil, fmt.Errorf("reading the header file: %w", err)
	}
	return u.Execute(t, Run{
		Inputs:        importPaths,
		NameSystems:   openapigen.NameSystems(),
		DefaultSystem: openapigen.DefaultNameSystem(),
		Targets: func(c *generator.Context) []generator.Target {
			return openapigen.GetModelNameTargets(c, a, boilerplate)
		},
	})
}
