package gengo

import (
	"k8s.io/code-generator/cmd/deepcopy-gen/args"
	deepcopygen "k8s.io/code-generator/cmd/deepcopy-gen/generators"
	"k8s.io/gengo/v2/generator"

	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// DeepcopyOptions are deepcopy-gen's options the reference exposes.
type DeepcopyOptions struct {
	// HeaderFile is the boilerplate file put before the generated-by
	// line ("" for none); YEAR in it becomes the current year.
	HeaderFile string
	// OutputFile is the base name of each package's file.
	OutputFile string
}

// Deepcopy records the deepcopy functions of the packages at importPaths
// in t, one OutputFile per package that asks for them (+k8s:deepcopy-gen),
// as k8s.io/code-generator's deepcopy-gen writes them.
func (u *Universe) Deepcopy(t *tree.Tree, importPaths []string, opts DeepcopyOptions) ([]string, error) {
	a := &args.Args{GoHeaderFile: opts.HeaderFile, OutputFile: opts.OutputFile}
	return u.Execute(t, Run{
		Inputs:        importPaths,
		NameSystems:   deepcopygen.NameSystems(),
		DefaultSystem: deepcopygen.DefaultNameSystem(),
		Targets: func(c *generator.Context) []generator.Target {
			return deepcopygen.GetTargets(c, a)
		},
	})
}
