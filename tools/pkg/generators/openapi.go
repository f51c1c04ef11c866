package generators

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/pflag"

	"github.com/gatedcrd/gatedcrd/internal/workers"
	"github.com/gatedcrd/gatedcrd/tools/pkg/generator"
	"github.com/gatedcrd/gatedcrd/tools/pkg/gengo"
	"github.com/gatedcrd/gatedcrd/tools/pkg/openapiera"
	"github.com/gatedcrd/gatedcrd/tools/pkg/openapijson"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// OpenAPI defaults.
const (
	OpenAPIFile = "zz_generated.openapi.go"
	// OpenAPIPackagePath is the default --openapi:output-package-path of
	// the trees that build openapi.json themselves (see OpenAPI), and
	// OpenAPIParentPath that of the others.
	OpenAPIPackagePath = "openapi/generated_openapi"
	OpenAPIParentPath  = "openapi"
	// openAPIPackage is the generated package below OpenAPIParentPath,
	// and openAPIJSON the document beside it.
	openAPIPackage = "generated_openapi"
	openAPIJSON    = "openapi.json"
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
// references write <path>/generated_openapi and <path>/openapi.json
// themselves, and the tree no longer holds models-schema. The tree says
// which it is: with models-schema, the path names the generated package.
// openapi.json is the swagger document of the definitions, compiled
// against the tree (package openapijson).
type OpenAPI struct {
	HeaderFile, OutputFile, OutputPath string
	// plan is the plan of the last context (Start computes it, Generate
	// uses it).
	plan *openAPIPlan
}

// Name implements generator.Generator.
func (g *OpenAPI) Name() string { return "openapi" }

// AddFlags registers the --openapi: flags.
func (g *OpenAPI) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&g.HeaderFile, "openapi:header-file-path", "", "file whose text heads the definitions file; none when empty")
	fs.StringVar(&g.OutputFile, "openapi:output-file-name", OpenAPIFile, "name of the definitions file")
	fs.StringVar(&g.OutputPath, "openapi:output-package-path", "", "relative to the working directory: in a tree with openapi/cmd/models-schema the generated definitions package (default openapi/generated_openapi), else the directory of openapi.json and of the package generated_openapi below it (default openapi)")
}

// Generate implements generator.Generator.
func (g *OpenAPI) Generate(ctx *generator.Context) error {
	p, err := g.planFor(ctx)
	if err != nil {
		return err
	}
	return ctx.Cached(g.Name(), p.options, []string{g.HeaderFile}, func(t *tree.Tree) error {
		if p.external() {
			if p.program == nil {
				g.startProgram(ctx, p)
			}
			if err := g.record(ctx, t, p); err != nil {
				return err
			}
			return g.writeJSON(ctx, t, p)
		}
		kube, err := ctx.KubernetesPackages()
		if err != nil {
			return err
		}
		u, err := ctx.Gengo()
		if err != nil {
			return err
		}
		opts := gengo.OpenAPIOptions{HeaderFile: g.HeaderFile, OutputDir: p.defsDir, OutputFile: g.OutputFile}
		if ctx.Verify && !isDir(opts.OutputDir) {
			opts.ExistingDir = ctx.Discovery.BaseDir
		}
		path, err := u.OpenAPI(t, append(append([]string{}, kube...), p.api...), opts)
		if err != nil {
			return err
		}
		ctx.Logf("openapi: %s", path)
		return g.writeJSON(ctx, t, p)
	})
}

// writeJSON records openapi.json, in trees where codegen writes it, from
// the definitions just recorded in t.
func (g *OpenAPI) writeJSON(ctx *generator.Context, t *tree.Tree, p *openAPIPlan) error {
	if p.jsonFile == "" {
		return nil
	}
	defs, err := t.ReadFile(filepath.Join(p.defsDir, g.OutputFile))
	if err != nil {
		return err
	}
	dir, err := filepath.Abs(p.defsDir)
	if err != nil {
		return err
	}
	doc, err := openapijson.Build(context.Background(), "go", ctx.Discovery.ModuleDir, dir, defs)
	if err != nil {
		return fmt.Errorf("building %s: %w", p.jsonFile, err)
	}
	t.Put(p.jsonFile, doc)
	ctx.Logf("openapi: %s", p.jsonFile)
	return nil
}

// Start implements generator.Starter: when the tree pins a kube-openapi
// release other than the linked one and the cache does not hold the
// file, the program for that release starts at once, so that it runs
// while the generators before openapi do.
func (g *OpenAPI) Start(ctx *generator.Context) {
	p, err := g.planFor(ctx)
	if err != nil || !p.external() || p.program != nil {
		return
	}
	if _, ok := ctx.Recall(ctx.CacheKey(g.Name(), p.options, []string{g.HeaderFile})); ok {
		return
	}
	g.startProgram(ctx, p)
}

// startProgram runs the program of the tree's kube-openapi release in the
// background; p.program delivers its result.
func (g *OpenAPI) startProgram(ctx *generator.Context, p *openAPIPlan) {
	p.program = workers.Start(func() (r programResult) {
		kube, err := ctx.KubernetesPackages()
		if err == nil {
			r.content, r.violations, err = openapiera.Generate(context.Background(), p.pinned, openapiera.Request{
				ModuleDir: ctx.Discovery.ModuleDir, Inputs: append(append([]string{}, kube...), p.api...),
				OutputDir: filepath.ToSlash(p.defsDir), OutputFile: g.OutputFile, HeaderFile: g.HeaderFile,
			}, ctx.Log)
		}
		r.err = err
		return r
	})
	ctx.Logf("openapi: the tree pins k8s.io/kube-openapi %s; a program built for it generates the definitions meanwhile", p.pinned)
}

// openAPIPlan is what one run of openapi generates from.
type openAPIPlan struct {
	ctx *generator.Context
	// api are the API packages documented; pinned is the kube-openapi
	// release of the tree ("" for none); options is the cache key's.
	api             []string
	pinned, options string
	// defsDir is the generated package's directory as the command line
	// names it; jsonFile, when set, is openapi.json, which codegen writes
	// too in trees without models-schema.
	defsDir, jsonFile string
	// program, when set, delivers the result of the program Start ran.
	program *workers.Future[programResult]
}

// external says the tree pins a kube-openapi release other than the
// linked one: a program built for it generates the file.
func (p *openAPIPlan) external() bool {
	return p.pinned != "" && p.pinned != gengo.LinkedKubeOpenAPI()
}

type programResult struct {
	content    []byte
	violations string
	err        error
}

// planFor computes the run's plan once per context.
func (g *OpenAPI) planFor(ctx *generator.Context) (*openAPIPlan, error) {
	if g.plan != nil && g.plan.ctx == ctx {
		return g.plan, nil
	}
	// The file covers every group, also in a run restricted to some
	// group-versions (where the reference would write one with those
	// alone).
	whole, err := ctx.Whole()
	if err != nil {
		return nil, err
	}
	p := &openAPIPlan{ctx: ctx, defsDir: g.OutputPath}
	if isDir(filepath.Join(ctx.Discovery.BaseDir, modelsSchemaCommand)) {
		if p.defsDir == "" {
			p.defsDir = OpenAPIPackagePath
		}
	} else {
		parent := orDefault(g.OutputPath, OpenAPIParentPath)
		p.defsDir, p.jsonFile = filepath.Join(parent, openAPIPackage), filepath.Join(parent, openAPIJSON)
	}
	p.defsDir = filepath.Clean(p.defsDir)
	for _, grp := range whole.Groups {
		if !grp.Config.OpenAPI.Disabled {
			p.api = append(p.api, importPaths(grp)...)
		}
	}
	if p.pinned, err = openapiera.Version(whole.ModuleDir); err != nil {
		return nil, err
	}
	// The output path is relative to the working directory: the key
	// names it relative to the module, as the run resolves it.
	out, err := filepath.Abs(filepath.Join(p.defsDir, g.OutputFile))
	if err != nil {
		return nil, err
	}
	if rel, err := filepath.Rel(ctx.Discovery.ModuleDir, out); err == nil {
		out = rel
	}
	p.options = fmt.Sprintf("kube-openapi %s\n%s\n%s %q json %q", p.pinned, out, p.defsDir, p.api, p.jsonFile)
	g.plan = p
	return p, nil
}

// record waits for the program Start ran and records its file; its API
// rule violations go to standard output, as openapi-gen prints them.
func (g *OpenAPI) record(ctx *generator.Context, t *tree.Tree, p *openAPIPlan) error {
	r := p.program.Wait()
	if r.err != nil {
		return r.err
	}
	fmt.Fprint(os.Stdout, r.violations)
	path := filepath.Join(p.defsDir, g.OutputFile)
	t.Put(path, r.content)
	ctx.Logf("openapi: %s", path)
	return nil
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
