package generators

import (
	"github.com/spf13/pflag"

	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
	"github.com/gatedcrd/gatedcrd/tools/pkg/generator"
	"github.com/gatedcrd/gatedcrd/tools/pkg/gengo"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// ModelNameFile is modelname's default output file.
const ModelNameFile = "zz_generated.model_name.go"

// ModelName writes, for each package whose doc.go has
// +k8s:openapi-model-package, its OpenAPI model name methods with
// kube-openapi's generator.
type ModelName struct {
	HeaderFile, OutputFile string
}

// Name implements generator.Generator.
func (g *ModelName) Name() string { return "modelname" }

// AddFlags registers the --modelname: flags.
func (g *ModelName) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&g.HeaderFile, "modelname:header-file-path", "", "file whose text heads each model name file; none when empty")
	fs.StringVar(&g.OutputFile, "modelname:output-file-name", ModelNameFile, "name of each package's model name file")
}

// Generate implements generator.Generator.
func (g *ModelName) Generate(ctx *generator.Context) error {
	return forEachOptions(ctx, g.Name(), func(grp *discovery.Group) (string, bool) {
		c := grp.Config.ModelName
		if !c.Present {
			return g.OutputFile, true
		}
		return orDefault(c.OutputFile, ModelNameFile), !c.Disabled
	}, func(string) string { return g.HeaderFile }, func(u *gengo.Universe, t *tree.Tree, pkgs []string, out string) ([]string, error) {
		return u.ModelNames(t, pkgs, g.HeaderFile, out)
	})
}
