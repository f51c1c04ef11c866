package generators

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/pflag"

	"github.com/gatedcrd/gatedcrd/tools/pkg/generator"
	"github.com/gatedcrd/gatedcrd/tools/pkg/gengo"
	"github.com/gatedcrd/gatedcrd/tools/pkg/openapiera"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// OpenAPI defaults.
const (
	OpenAPIFile = "zz_generated.openapi.go"
	// OpenAPIPackagePath is the default --openapi:output-package-path of
	// the trees that build openapi.json themselves (see OpenAPI).
	OpenAPIPackagePath = "openapi/generated_openapi"
)

// modelsSchemaCommand is the program of the trees that build
// openapi/openapi.json themselves from the generated definitions.
const modelsSchemaCommand = "openapi/cmd/models-schema"

// OpenAPI writes the OpenAPI definitions of every type of every API group
// (but those whose .codegen.yaml disables openapi) and of the Kubernetes
// packages they use, in one file, with kube-openapi's openapi-gen.
//
// Until July 2026 the reference wrote the definitions into the directory
// --openapi:output-package-path names, and the tree's own
// openapi/cmd/models-schema turned them into openapi/openapi.json. Later
// references write <path>/generated_openapi and openapi.json themselves,
// and the tree no longer holds models-schema. The tree says which it is:
// with models-schema, the path names the generated package.
type OpenAPI struct {
	HeaderFile, OutputFile, OutputPath string
}

// Name implements generator.Generator.
func (g *OpenAPI) Name() string { return "openapi" }

// AddFlags registers the --openapi: flags.
func (g *OpenAPI) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&g.HeaderFile, "openapi:header-file-path", "", "file whose text heads the definitions file; none when empty")
	fs.StringVar(&g.OutputFile, "openapi:output-file-name", OpenAPIFile, "name of the definitions file")
	fs.StringVar(&g.OutputPath, "openapi:output-package-path", OpenAPIPackagePath, "directory of the generated definitions package, relative to the working directory")
}

// Generate implements generator.Generator.
func (g *OpenAPI) Generate(ctx *generator.Context) error {
	if !isDir(filepath.Join(ctx.Discovery.BaseDir, modelsSchemaCommand)) {
		return fmt.Errorf("this tree has no %s: it follows the reference of July 2026 or later, whose openapi generator also writes openapi.json; gatedcrd does not generate that form yet", modelsSchemaCommand)
	}
	var api []string
	for _, grp := range ctx.Discovery.Groups {
		if !grp.Config.OpenAPI.Disabled {
			api = append(api, importPaths(grp)...)
		}
	}
	pinned, err := openapiera.Version(ctx.Discovery.ModuleDir)
	if err != nil {
		return err
	}
	// The output path is relative to the working directory: the key
	// names it relative to the module, as the run resolves it.
	out, err := filepath.Abs(filepath.Join(g.OutputPath, g.OutputFile))
	if err != nil {
		return err
	}
	if rel, err := filepath.Rel(ctx.Discovery.ModuleDir, out); err == nil {
		out = rel
	}
	options := fmt.Sprintf("kube-openapi %s\n%s\n%s %q", pinned, out, filepath.Clean(g.OutputPath), api)
	return ctx.Cached(g.Name(), options, []string{g.HeaderFile}, func(t *tree.Tree) error {
		kube, err := ctx.KubernetesPackages()
		if err != nil {
			return err
		}
		inputs := append(append([]string{}, kube...), api...)
		if linked := gengo.LinkedKubeOpenAPI(); pinned != "" && pinned != linked {
			return g.generateWith(ctx, t, pinned, inputs)
		}
		u, err := ctx.Gengo()
		if err != nil {
			return err
		}
		opts := gengo.OpenAPIOptions{HeaderFile: g.HeaderFile, OutputDir: filepath.Clean(g.OutputPath), OutputFile: g.OutputFile}
		if ctx.Verify && !isDir(opts.OutputDir) {
			opts.ExistingDir = ctx.Discovery.BaseDir
		}
		path, err := u.OpenAPI(t, inputs, opts)
		if err != nil {
			return err
		}
		ctx.Logf("openapi: %s", path)
		return nil
	})
}

// generateWith generates the definitions with the kube-openapi release the
// tree pins, which is not the one linked here, through a program built for
// it (package openapiera); its API rule violations go to standard output,
// as openapi-gen prints them.
func (g *OpenAPI) generateWith(ctx *generator.Context, t *tree.Tree, version string, inputs []string) error {
	ctx.Logf("openapi: the tree pins k8s.io/kube-openapi %s; generating with a program built for it", version)
	content, violations, err := openapiera.Generate(context.Background(), version, openapiera.Request{
		ModuleDir: ctx.Discovery.ModuleDir, Inputs: inputs, OutputDir: filepath.ToSlash(filepath.Clean(g.OutputPath)),
		OutputFile: g.OutputFile, HeaderFile: g.HeaderFile,
	}, ctx.Log)
	if err != nil {
		return err
	}
	fmt.Fprint(os.Stdout, violations)
	path := filepath.Join(g.OutputPath, g.OutputFile)
	t.Put(path, content)
	ctx.Logf("openapi: %s", path)
	return nil
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
