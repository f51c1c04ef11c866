package cli

import (
	goflag "flag"
	"io"
	"os"

	"github.com/spf13/cobra"
	"k8s.io/klog/v2"

	"github.com/gatedcrd/gatedcrd/internal/clicontract"
	"github.com/gatedcrd/gatedcrd/tools/pkg/pipeline"
)

// options are the flags shared by every sub-command.
type options struct {
	baseDir       string
	groupVersions []string
	verify        bool
	// Output is -v and -q.
	clicontract.Output
	payloadDir  string
	requiredFS  []string
	strict      bool
	statsFile   string
	kubeVersion string
	celCosts    int
	stderr      io.Writer
	// commandPath is the command that runs, such as "codegen
	// crd-manifests", for the hints of --verify.
	commandPath string
	// strictSet and payloadSet record that the flags were given: an
	// absent --strict-markers leaves strictness to the repository, and
	// only a given payload path is relative to the working directory.
	strictSet, payloadSet bool
	// writeBaseline is set by strict-baseline: strict findings are
	// collected into the baseline file instead of failing the run.
	writeBaseline bool
	// afterBaseline, when set, is given the run and the number of strict
	// findings once the baseline is written (codegen init).
	afterBaseline func(r *pipeline.Run, strictFindings int) error
	// generators are the generators of Go and proto files, with their
	// flags; a bare run runs them around the CRD stages.
	generators registry
	// bare is set for a bare codegen: every generator runs.
	bare bool
}

// payloadFlag names the payload FeatureGate directory, as the reference's
// flag does.
const payloadFlag = clicontract.PayloadFlag

// strictMarkersAlias is the earlier name of --strict in codegen, the one
// its documentation used before the commands shared one contract.
const strictMarkersAlias = "strict-markers"

// NewRootCommand builds the codegen command tree; progress, diagnostics
// and reports go to stderr.
func NewRootCommand(version string, stderr io.Writer) *cobra.Command {
	opts := &options{stderr: stderr}
	root := &cobra.Command{
		Use:   "codegen",
		Short: "Generate FeatureGate-aware CustomResourceDefinition manifests from Go API types",
		Long: `codegen turns annotated Go API types into CustomResourceDefinition manifests,
one per ClusterProfile and FeatureSet combination that differs.

Run without a sub-command it runs every generator in the reference's
order: compatibility, deepcopy, go-to-protobuf, modelname, swaggerdocs,
the three CRD stages, then openapi; with --verify it writes nothing and
names every stale file of any of them.

Besides kubebuilder's markers it understands +openshift:enable:FeatureGate,
the FeatureGateAware{Enum,XValidation,MaxItems} markers, and, when
.gatedcrd.yaml sets enumFromConstants: true, +enum on a string type (its
enum is the values of its typed constants in every loaded package, sorted;
without the switch +enum is ignored, as by the reference generator).`,
		Version:       version,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.bare = true
			return run(opts, pipeline.AllStages)
		},
	}
	root.SetVersionTemplate("codegen {{.Version}}\n")
	klogFlags := goflag.NewFlagSet("klog", goflag.ContinueOnError)
	klog.InitFlags(klogFlags)
	root.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error {
		opts.strictSet = cmd.Flags().Changed(clicontract.StrictFlag)
		opts.payloadSet = cmd.Flags().Changed(payloadFlag)
		opts.commandPath = cmd.CommandPath()
		return klogFlags.Set("v", opts.Verbosity.String())
	}
	pf := root.PersistentFlags()
	root.SetGlobalNormalizationFunc(clicontract.Aliases(map[string]string{strictMarkersAlias: clicontract.StrictFlag}))
	pf.StringVar(&opts.baseDir, "base-dir", ".", "directory to search for API group-versions; relative paths in other flags are resolved against it, except a given --manifest-merge:payload-manifest-path (the working directory, as with the reference)")
	pf.StringSliceVar(&opts.groupVersions, groupVersionsFlag, nil, "only process these <group>/<version> entries (comma-separated or repeated)")
	pf.BoolVar(&opts.verify, "verify", false, "compute everything, write nothing, and fail if any file would change")
	pf.StringVar(&opts.statsFile, "stats", "", "write a JSON account of the run (stage timings, counts) to this file")
	pf.BoolVar(&opts.strict, clicontract.StrictFlag, false, "treat unknown or misspelled +openshift:/+kubebuilder: markers and unknown FeatureGate names as errors (false: warnings); when not given, strictMarkers of .gatedcrd.yaml decides, else a strict baseline file makes it true, else they are warnings; --strict-markers is another name for it")
	pf.StringVar(&opts.kubeVersion, clicontract.KubeVersionFlag, "", "Kubernetes release (<major>.<minor>) whose API server validates the generated CRDs; its findings are errors (default: kubeVersion of .gatedcrd.yaml, also errors; else inferred from the go.mod governing --base-dir, else the release this build links, whose findings are warnings)")
	pf.IntVar(&opts.celCosts, "cel-costs", 0, "list the N most expensive CEL rules of each CRD with their share of the API server's cost budgets (--cel-costs alone: 5)")
	pf.Lookup("cel-costs").NoOptDefVal = "5"
	pf.StringVar(&opts.payloadDir, payloadFlag, pipeline.DefaultPayloadDir, "directory of payload FeatureGate manifests read by the merge stage; a given path is relative to the working directory, as with the reference, the default one to --base-dir (--payload-dir is another name for it)")
	clicontract.AddOutputFlags(pf, &opts.Output, "1 adds per-stage counts and every file written (klog)")
	opts.generators.addFlags(pf)

	root.AddCommand(
		stageCommand(opts, "empty-partial-schemas", "Write one partial CRD manifest per CRD and FeatureGate (stage 1)", pipeline.PartialSchemas),
		schemapatchCommand(opts),
		stageCommand(opts, "crd-manifest-merge", "Merge partial manifests into one CRD per ClusterProfile and FeatureSet (stage 3)", pipeline.ManifestMerge),
		stageCommand(opts, "crd-manifests", "Run all three CRD stages in one process, loading Go packages once; also checks the required annotations and, when .gatedcrd.yaml enables them, maintains the compatibility level lines and writes one lifecycle page per FeatureGate (featureGateDocs)", pipeline.AllStages),
		featuresetMarkdownCommand(opts),
		testSuitesCommand(opts),
		payloadCRDsCommand(opts),
		strictBaselineCommand(opts),
		initCommand(opts),
		openAPIV3Command(opts),
		compatCommand(opts),
		watchCommand(opts),
		featureGateTestAnalyzerCommand(),
	)
	root.AddCommand(opts.generators.commands(opts)...)
	addProfiling(root, stderr)
	return root
}

func stageCommand(opts *options, use, short string, stages pipeline.Stages) *cobra.Command {
	return &cobra.Command{
		Use:   use,
		Short: short,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return run(opts, stages)
		},
	}
}

func schemapatchCommand(opts *options) *cobra.Command {
	cmd := stageCommand(opts, "schemapatch", "Fill each partial manifest's schema from the Go types for its FeatureGates (stage 2)", pipeline.SchemaPatch)
	cmd.Flags().StringSliceVar(&opts.requiredFS, "required-feature-sets", nil, "legacy FeatureSet mode; not supported (accepted so old scripts get a clear error)")
	return cmd
}

// Main runs the command with the process's arguments and returns its exit
// status.
func Main(version string, args []string) int {
	return Run(version, args, os.Stdout, os.Stderr)
}

// Run runs the command with args and returns its exit status; tests call
// it in-process.
func Run(version string, args []string, stdout, stderr io.Writer) int {
	return clicontract.Execute(NewRootCommand(version, stderr), args, stdout, stderr)
}
