package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/gatedcrd/gatedcrd/internal/clicontract"
	"github.com/gatedcrd/gatedcrd/internal/suitefile"
	"github.com/gatedcrd/gatedcrd/tools/pkg/generator"
	"github.com/gatedcrd/gatedcrd/tools/pkg/pipeline"
	"github.com/gatedcrd/gatedcrd/tools/pkg/watch"
)

// watchCommand is codegen watch: crd-manifests, then again after every
// change to its inputs, in one warm process, until SIGINT or SIGTERM.
func watchCommand(opts *options) *cobra.Command {
	var flags watchFlags
	cmd := &cobra.Command{
		Use:   "watch",
		Short: "Run crd-manifests, then again after every saved change to its inputs (Go types, overrides, payload FeatureGates, .gatedcrd.yaml, .codegen.yaml), until interrupted",
		Long: `watch runs crd-manifests with the same flags, then watches its inputs and
after every save regenerates and writes the files that changed, printing one
line per cycle (what changed, files written, findings, time taken) and every
warning and error with file and line as a one-shot run does. A cycle with
errors writes nothing: the files of the last good cycle stay. A save also
regenerates the saved package's swagger docs in its cycle and, when it
changed more than comments, its deepcopy and model name files (and those
of the packages holding a changed type) in the background after it, each
group's .codegen.yaml and the generators' flags applying as in a bare run.

It holds the tree's write lock during each cycle, so a one-shot codegen run
that writes (make update-codegen-crds) waits for it instead of interleaving.
SIGINT or SIGTERM stop it after the cycle in progress.

With --suites it also keeps an API server running (apitest --serve, a
child process, on the Kubernetes release apitest would choose) and after
every cycle runs the API test suites of the CRD files the cycle wrote and
the suite files (<dir>/tests/<crd name>/*.yaml) saved since the last
cycle, printing one line of results after the cycle's line and every
failure as apitest prints it. It runs only the tests that changed since
the server last ran them against the same CRD file, reporting the others
with that outcome; --suites-rerun-all runs every test. --skip passes
apitest's skip list on. A
server that does not start turns the suites off, not the watch: it says
so once, goes on generating and exits 0 when stopped.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return runWatch(ctx, opts, flags)
		},
	}
	cmd.Flags().BoolVar(&flags.suites, "suites", false, "keep an API server running and, after every cycle, run the API test suites of the CRD files written and of the suite files saved")
	cmd.Flags().StringVar(&flags.apitest, "apitest", "", "the apitest program --suites runs (default: the one next to codegen, else on $PATH, else built with go build from the gatedcrd sources codegen was built from)")
	cmd.Flags().StringVar(&flags.skip, skipFlag, "", "with --suites, passed on to apitest: "+clicontract.SkipUsage)
	cmd.Flags().BoolVar(&flags.rerunAll, rerunAllFlag, false, "with --suites, run every test of the suites a cycle concerns (default: only the tests that changed since the server last ran them against the same CRD file; the others report that outcome)")
	cmd.Flags().BoolVar(&flags.full, "full", false, "regenerate every group-version on every change (default: only those reading a changed Go package or override, where that gives the same files)")
	return cmd
}

// watchFlags are the flags of watch besides those of crd-manifests.
type watchFlags struct {
	full, suites, rerunAll bool
	apitest, skip          string
}

// rerunAllFlag makes watch --suites run every test, changed or not.
const rerunAllFlag = "suites-rerun-all"

// skipFlag is apitest's skip list, which watch --suites passes on.
const skipFlag = clicontract.SkipFlag

// runWatch is the watch command on a context that ends it.
func runWatch(ctx context.Context, opts *options, flags watchFlags) (err error) {
	if opts.verify {
		return &clicontract.Error{Code: ExitUsage, Msg: "error: watch writes files; --verify makes no sense with it"}
	}
	if flags.skip != "" && !flags.suites {
		return &clicontract.Error{Code: ExitUsage, Msg: "error: --" + skipFlag + " is the skip list of the API test suites; it needs --suites"}
	}
	if flags.rerunAll && !flags.suites {
		return &clicontract.Error{Code: ExitUsage, Msg: "error: --" + rerunAllFlag + " says which tests of the API test suites run; it needs --suites"}
	}
	payloadDir, err := opts.payloadPath()
	if err != nil {
		return &clicontract.Error{Code: ExitIO, Msg: fmt.Sprintf("error: --%s: %v", payloadFlag, err)}
	}
	var bl *strictBaseline
	newRun := func() *pipeline.Run {
		bl = &strictBaseline{opts: opts}
		return pipeline.New(pipeline.Options{
			BaseDir:       opts.baseDir,
			GroupVersions: opts.groupVersions,
			PayloadDir:    payloadDir,
			StrictMarkers: opts.strictMarkers(),
			AcceptStrict:  bl.accept,
			OnDiscovered:  bl.read,
			Stages:        pipeline.AllStages,
			KubeVersion:   opts.kubeVersion,
			OptionNames:   optionNames,
			CELCosts:      opts.celCosts,
			Progress:      opts.stderr,
		})
	}
	wopts := watch.Options{
		NewRun: newRun,
		BeforeReport: func(r *pipeline.Run) {
			bl.report(r.Problems, pipeline.AllStages)
		},
		Out:   opts.stderr,
		Quiet: opts.Quiet,
		Full:  flags.full,
		// The per-package Go files of the saved packages, with the
		// generators' flags and .codegen.yaml sections as a bare run.
		Outputs:      []generator.Generator{&opts.generators.swaggerDocs},
		GengoOutputs: []generator.Generator{&opts.generators.deepcopy, &opts.generators.modelName},
	}
	if flags.suites {
		runner, err := startSuiteRunner(ctx, opts, flags)
		if err != nil {
			return err
		}
		defer func() {
			if serr := runner.stop(); serr != nil && err == nil {
				err = &clicontract.Error{Code: ExitIO, Msg: "error: " + serr.Error()}
			}
		}()
		wopts.Observe, wopts.OnCycle = suitefile.IsSuite, runner.afterCycle
	}
	watch.TuneGC(os.Getenv)
	w, err := watch.New(opts.baseDir, wopts)
	if err != nil {
		return &clicontract.Error{Code: ExitIO, Msg: "error: " + err.Error()}
	}
	defer w.Close()
	progress(opts, "codegen watch: watching %d director(y/ies) under %s; stop with Ctrl-C", len(w.Watched()), opts.baseDir)
	if err := w.Run(ctx); err != nil {
		return &clicontract.Error{Code: ExitIO, Msg: "error: " + err.Error()}
	}
	progress(opts, "codegen watch: stopped")
	return nil
}

// startSuiteRunner finds the apitest program and starts it for --suites.
func startSuiteRunner(ctx context.Context, opts *options, flags watchFlags) (*suiteRunner, error) {
	program, err := apitestProgram(ctx, flags.apitest, opts.stderr)
	if err != nil {
		return nil, &clicontract.Error{Code: ExitIO, Msg: "error: --suites: " + err.Error()}
	}
	runner, err := startSuites(ctx, opts, program, flags)
	if err != nil {
		return nil, &clicontract.Error{Code: ExitIO, Msg: "error: --suites: " + err.Error()}
	}
	return runner, nil
}
