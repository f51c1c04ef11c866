package generators

import (
	"github.com/spf13/pflag"

	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
	"github.com/gatedcrd/gatedcrd/tools/pkg/generator"
	"github.com/gatedcrd/gatedcrd/tools/pkg/gengo"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// DeepcopyFile is deepcopy's default output file.
const DeepcopyFile = "zz_generated.deepcopy.go"

// Deepcopy writes each package's deepcopy functions with
// k8s.io/code-generator's deepcopy-gen.
type Deepcopy struct {
	HeaderFile, OutputFile string
}

// Name implements generator.Generator.
func (g *Deepcopy) Name() string { return "deepcopy" }

// AddFlags registers the --deepcopy: flags.
func (g *Deepcopy) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&g.HeaderFile, "deepcopy:header-file-path", "", "file whose text heads each deepcopy file (YEAR becomes the year); none when empty")
	fs.StringVar(&g.OutputFile, "deepcopy:output-file-base-name", DeepcopyFile, "name of each package's deepcopy file")
}

// Generate implements generator.Generator: one execution of deepcopy-gen
// per distinct set of options, over the run's one universe.
func (g *Deepcopy) Generate(ctx *generator.Context) error {
	return forEachOptions(ctx, g.Name(), func(grp *discovery.Group) (gengo.DeepcopyOptions, bool) {
		c := grp.Config.Deepcopy
		if !c.Present {
			return gengo.DeepcopyOptions{HeaderFile: g.HeaderFile, OutputFile: g.OutputFile}, true
		}
		return gengo.DeepcopyOptions{HeaderFile: c.HeaderFilePath, OutputFile: orDefault(c.OutputFile, DeepcopyFile)}, !c.Disabled
	}, func(o gengo.DeepcopyOptions) string { return o.HeaderFile }, func(u *gengo.Universe, t *tree.Tree, pkgs []string, o gengo.DeepcopyOptions) ([]string, error) {
		return u.Deepcopy(t, pkgs, o)
	})
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
