package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gatedcrd/gatedcrd/internal/clicontract"
	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/pipeline"
	"github.com/gatedcrd/gatedcrd/tools/pkg/testsuites"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// testSuitesCommand checks that every partial manifest has an API test
// suite, writing stubs for missing ones.
func testSuitesCommand(opts *options) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "test-suites",
		Short: "Write a stub API test suite for every partial manifest that has none (with --verify: fail naming them)",
		Long: `test-suites checks that every partial manifest
<version>/zz_generated.featuregated-crd-manifests/<crd>/<X>.yaml has an API test
suite named after it: <version>/tests/<crd>/<X>.yaml (openshift/api's name) or
<X>.testsuite.yaml (operator repositories' name). It writes a stub suite for each
missing one, named as most of the nearest suites are (those of the same CRD, else
of the same version, else of the whole tree; <X>.yaml where there are none).
With --verify it writes nothing and fails naming the missing suites.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			disc, probs, err := discover(opts, opts.groupVersions)
			if disc != nil {
				probs.SettleStrict(pipeline.ResolveStrict(opts.strictMarkers(), disc.BaseDir), nil)
				err = probs.Err()
			}
			if err != nil {
				return inputError(opts, probs, err)
			}
			t := tree.New()
			problems := &diag.List{}
			res, err := testsuites.Run(testsuites.Input{Discovery: disc, Tree: t, Problems: problems})
			if err != nil || problems.HasErrors() {
				return inputError(opts, problems, err)
			}
			if opts.verify {
				if len(res.Missing) > 0 {
					var names []string
					for _, m := range res.Missing {
						names = append(names, tree.Rel(disc.BaseDir, m))
					}
					return &clicontract.Error{Code: ExitStale, Msg: fmt.Sprintf("%s --verify: %d partial manifest(s) have no API test suite; run %s without --verify to write stubs for them:\n  %s",
						opts.commandPath, len(names), opts.commandPath, strings.Join(names, "\n  "))}
				}
				return nil
			}
			if _, err := t.Commit(); err != nil {
				return &clicontract.Error{Code: ExitIO, Msg: fmt.Sprintf("error: %v", err)}
			}
			for _, m := range res.Missing {
				fmt.Fprintf(opts.stderr, "wrote stub %s\n", tree.Rel(disc.BaseDir, m))
			}
			return nil
		},
	}
	return cmd
}

// inputError prints diagnostics and returns the bad-input exit status.
func inputError(opts *options, problems *diag.List, err error) error {
	if problems == nil {
		problems = &diag.List{}
	}
	if err != nil {
		problems.AddError(err)
	}
	for _, d := range problems.Items() {
		fmt.Fprintf(opts.stderr, "%s: %s\n", d.Severity, d)
	}
	return &clicontract.Error{Code: ExitInput, Msg: "codegen: errors found; nothing was written"}
}
