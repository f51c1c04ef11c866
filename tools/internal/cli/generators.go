package cli

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gatedcrd/gatedcrd/internal/clicontract"
	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/internal/kubeprogram"
	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
	"github.com/gatedcrd/gatedcrd/tools/pkg/gencache"
	"github.com/gatedcrd/gatedcrd/tools/pkg/generator"
	"github.com/gatedcrd/gatedcrd/tools/pkg/generators"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// registry holds codegen's generators of Go and proto files, in the order
// a bare run runs them around the CRD stages (reference order:
// compatibility, deepcopy, go-to-protobuf, modelname, swaggerdocs, the
// three CRD stages, then openapi once for every group).
type registry struct {
	compatibility generators.Compatibility
	deepcopy      generators.Deepcopy
	protobuf      generators.Protobuf
	modelName     generators.ModelName
	swaggerDocs   generators.SwaggerDocs
	openAPI       generators.OpenAPI
	// crdify and schemaCheck compare with a git base and write nothing;
	// like the reference, a bare run does not run them (they are
	// separate CI jobs whose failures a reviewer may override).
	crdify      generators.Crdify
	schemaCheck generators.SchemaCheck
}

// flagged is a generator with flags of its own.
type flagged interface {
	generator.Generator
	AddFlags(*pflag.FlagSet)
}

// bare is the list a bare codegen runs, in the reference's order, with
// crd standing for the three CRD stages.
func (r *registry) bare(crd generator.Generator) []generator.Generator {
	return []generator.Generator{&r.compatibility, &r.deepcopy, &r.protobuf, &r.modelName, &r.swaggerDocs, crd, &r.openAPI}
}

// flaggedGenerators are the generators with flags.
func (r *registry) flaggedGenerators() []generator.Generator {
	return []generator.Generator{&r.deepcopy, &r.protobuf, &r.modelName, &r.swaggerDocs, &r.openAPI, &r.crdify, &r.schemaCheck}
}

// addFlags registers every generator's flags on fs: the reference accepts
// each on every command, bare or not.
func (r *registry) addFlags(fs *pflag.FlagSet) {
	for _, g := range r.flaggedGenerators() {
		if f, ok := g.(flagged); ok {
			f.AddFlags(fs)
		}
	}
}

// commands are the sub-commands of the generators.
func (r *registry) commands(opts *options) []*cobra.Command {
	return []*cobra.Command{
		generatorCommand(opts, &r.compatibility, "Write the \"Compatibility level N\" line into the doc comment of every type embedding TypeMeta (with --verify: fail naming the stale files)"),
		generatorCommand(opts, &r.deepcopy, "Write each package's zz_generated.deepcopy.go (k8s.io/code-generator's deepcopy-gen)"),
		generatorCommand(opts, &r.protobuf, "Write generated.proto and generated.pb.go for the groups whose .codegen.yaml enables protobuf (k8s.io/code-generator's go-to-protobuf)"),
		generatorCommand(opts, &r.modelName, "Write zz_generated.model_name.go for packages tagged +k8s:openapi-model-package (k8s.io/kube-openapi)"),
		generatorCommand(opts, &r.swaggerDocs, "Write each package's zz_generated.swagger_doc_generated.go from the doc comments of its types*.go files"),
		generatorCommand(opts, &r.openAPI, "Write the OpenAPI definitions of every API group in one file (k8s.io/kube-openapi's openapi-gen)"),
		baseCheckCommand(opts, &r.crdify, &r.crdify.Out, &r.crdify.PayloadDir, "Report incompatible CRD schema changes against --crdify:comparison-base with sigs.k8s.io/crdify, variant by variant (major version, ClusterProfile, FeatureSet)"),
		baseCheckCommand(opts, &r.schemaCheck, &r.schemaCheck.Out, &r.schemaCheck.PayloadDir, "Report CRD schema changes against --schemacheck:comparison-base that crd-schema-checker's comparators reject, variant by variant (major version, ClusterProfile, FeatureSet)"),
	}
}

func generatorCommand(opts *options, g generator.Generator, short string) *cobra.Command {
	return &cobra.Command{
		Use:   g.Name(),
		Short: short,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runGenerators(opts, g)
		},
	}
}

// runGenerators runs gens against one context and commits or verifies
// what they recorded.
func runGenerators(opts *options, gens ...generator.Generator) error {
	lock, err := lockForRun(opts)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	disc, probs, err := discover(opts, opts.groupVersions)
	if err != nil {
		return discoveryError(opts, disc, probs, err)
	}
	ctx := newGeneratorContext(opts, disc, tree.New(), probs)
	runErr := generator.Run(ctx, gens...)
	found := relativeTo(disc.BaseDir, ctx.Problems.Items(), nil)
	if runErr != nil || found.HasErrors() {
		return generatorFailure(opts, found, runErr)
	}
	printFound(opts, found)
	return commitOrVerify(opts, ctx.Tree, disc.BaseDir, 0, nil)
}

// newGeneratorContext is the context of a run's generators.
func newGeneratorContext(opts *options, disc *discovery.Result, t *tree.Tree, problems *diag.List) *generator.Context {
	if problems == nil {
		problems = &diag.List{}
	}
	var log io.Writer
	if opts.Verbosity >= 1 && !opts.Quiet {
		log = opts.stderr
	}
	ctx := &generator.Context{Discovery: disc, Tree: t, Verify: opts.verify, Partial: len(opts.groupVersions) > 0, Problems: problems, Log: log}
	if dir, err := kubeprogram.CacheDir(); err == nil {
		ctx.Cache = gencache.Open(filepath.Join(dir, generatedCacheDir))
	}
	return ctx
}

// generatedCacheDir is the directory of the generated Go files' cache
// below gatedcrd's cache directory.
const generatedCacheDir = "generated"

// generatorFailure reports a failed generator run: every problem, then
// the error without a position; nothing was written.
func generatorFailure(opts *options, found *diag.List, err error) error {
	printFound(opts, found)
	if err != nil {
		fmt.Fprintf(opts.stderr, "error: %v\n", err)
	}
	code := ExitInput
	if err != nil && !found.HasErrors() {
		code = clicontract.ExitFailed
	}
	return &clicontract.Error{Code: code, Msg: "codegen: errors found; nothing was written"}
}

// printFound prints the problems of a run, warnings only without -q.
func printFound(opts *options, found *diag.List) {
	for _, d := range found.Items() {
		if d.Severity == diag.Warning && opts.Quiet {
			continue
		}
		fmt.Fprintf(opts.stderr, "%s: %s\n", d.Severity, d)
	}
}

// crdStages is the three CRD stages as a step of a bare run: the
// pipeline, discovered already, generates into the context's tree.
type crdStages struct {
	generate func() error
}

// Name implements generator.Generator.
func (crdStages) Name() string { return "crd-manifests" }

// Generate implements generator.Generator.
func (c crdStages) Generate(*generator.Context) error { return c.generate() }

// errNetworkCommand answers the reference's featuregate-test-analyzer.
var errNetworkCommand = errors.New("featuregate-test-analyzer queries OpenShift's CI result service (Sippy) over the network for each FeatureGate's test results; gatedcrd does not run it: use the reference binary in CI for that job")

func featureGateTestAnalyzerCommand() *cobra.Command {
	var current, previous string
	cmd := &cobra.Command{
		Use:   "featuregate-test-analyzer",
		Short: "Not supported: the reference's check of promoted FeatureGates' test results, which needs a network service",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return &clicontract.Error{Code: clicontract.ExitFailed, Msg: "error: " + errNetworkCommand.Error()}
		},
	}
	cmd.Flags().StringVar(&current, "featureset-manifest-path", "", "accepted for the reference's command line; unused")
	cmd.Flags().StringVar(&previous, "previous-featureset-manifest-path", "", "accepted for the reference's command line; unused")
	return cmd
}
