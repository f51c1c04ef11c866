package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/gatedcrd/gatedcrd/tools/pkg/pipeline"
	"github.com/gatedcrd/gatedcrd/tools/pkg/watch"
)

// watchCommand is codegen watch: crd-manifests, then again after every
// change to its inputs, in one warm process, until SIGINT or SIGTERM.
func watchCommand(opts *options) *cobra.Command {
	full := false
	cmd := &cobra.Command{
		Use:   "watch",
		Short: "Run crd-manifests, then again after every saved change to its inputs (Go types, overrides, payload FeatureGates, .gatedcrd.yaml, .codegen.yaml), until interrupted",
		Long: `watch runs crd-manifests with the same flags, then watches its inputs and
after every save regenerates and writes the files that changed, printing one
line per cycle (what changed, files written, findings, time taken) and every
warning and error with file and line as a one-shot run does. A cycle with
errors writes nothing: the files of the last good cycle stay.

It holds the tree's write lock during each cycle, so a one-shot codegen run
that writes (make update-codegen-crds) waits for it instead of interleaving.
SIGINT or SIGTERM stop it after the cycle in progress.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return runWatch(ctx, opts, full)
		},
	}
	cmd.Flags().BoolVar(&full, "full", false, "regenerate every group-version on every change (default: only those reading a changed Go package or override, where that gives the same files)")
	return cmd
}

// runWatch is the watch command on a context that ends it.
func runWatch(ctx context.Context, opts *options, full bool) error {
	if opts.verify {
		return &exitError{code: ExitUsage, msg: "error: watch writes files; --verify makes no sense with it"}
	}
	payloadDir, err := opts.payloadPath()
	if err != nil {
		return &exitError{code: ExitIO, msg: fmt.Sprintf("error: --%s: %v", payloadFlag, err)}
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
			CELCosts:      opts.celCosts,
			Progress:      opts.stderr,
		})
	}
	w, err := watch.New(opts.baseDir, watch.Options{
		NewRun: newRun,
		BeforeReport: func(r *pipeline.Run) {
			bl.report(r.Problems, pipeline.AllStages)
		},
		Out:   opts.stderr,
		Quiet: opts.quiet,
		Full:  full,
	})
	if err != nil {
		return &exitError{code: ExitIO, msg: "error: " + err.Error()}
	}
	defer w.Close()
	progress(opts, "codegen watch: watching %d director(y/ies) under %s; stop with Ctrl-C", len(w.Watched()), opts.baseDir)
	if err := w.Run(ctx); err != nil {
		return &exitError{code: ExitIO, msg: "error: " + err.Error()}
	}
	progress(opts, "codegen watch: stopped")
	return nil
}
