package cli

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/gatedcrd/gatedcrd/internal/clicontract"
	"github.com/gatedcrd/gatedcrd/tools/pkg/generator"
	"github.com/gatedcrd/gatedcrd/tools/pkg/generators"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// baseCheckCommand is the command of crdify or schemacheck: the check
// runs on the generator contract, writes its report to standard output
// and no file; exit status 1 means breaking findings, 3 a base that
// cannot be read (a revision that does not exist, a tree without payload
// FeatureGate manifests) or a bad .codegen.yaml section.
func baseCheckCommand(opts *options, g generator.Generator, out *io.Writer, payloadDir *string, short string) *cobra.Command {
	return &cobra.Command{
		Use:   g.Name(),
		Short: short,
		Long: short + `.

The tree at --base-dir and the same directory at the git revision are each
expanded into the CRD every (major version, ClusterProfile, FeatureSet)
tuple of its payload FeatureGate manifests installs, and each tuple is
compared with itself, so that files split, merged or renamed by a gate
promotion compare as what a cluster installs. Findings name the CRD, the
version and field, and the tuples. A CRD or version new in a tuple is
reported as new; a breaking change to a CRD or version that, at the base,
only TechPreviewNoUpgrade, DevPreviewNoUpgrade or CustomNoUpgrade
installed is reported as preview; neither fails the run. A bare codegen does not run
this check.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			disc, probs, err := discover(opts, opts.groupVersions)
			if err != nil {
				return discoveryError(opts, disc, probs, err)
			}
			dir, err := filepath.Rel(disc.BaseDir, opts.payloadDirIn(disc.BaseDir))
			if err != nil || !filepath.IsLocal(dir) {
				return clicontract.Usagef("%s reads the payload directory at both revisions: --%s must be below --base-dir", g.Name(), payloadFlag)
			}
			*payloadDir = filepath.ToSlash(dir)
			*out = cmd.OutOrStdout()
			ctx := newGeneratorContext(opts, disc, tree.New(), probs)
			printFound(opts, relativeTo(disc.BaseDir, ctx.Problems.Items(), nil))
			return baseCheckStatus(g.Generate(ctx))
		},
	}
}

// baseCheckStatus maps a check's outcome to the exit status.
func baseCheckStatus(err error) error {
	var be *generators.BaseError
	switch {
	case err == nil:
		return nil
	case errors.Is(err, generators.ErrBreaking):
		return &clicontract.Error{Code: ExitBreaking, Msg: "error: " + err.Error()}
	case errors.As(err, &be):
		return &clicontract.Error{Code: ExitInput, Msg: "error: " + err.Error()}
	}
	return &clicontract.Error{Code: ExitIO, Msg: fmt.Sprintf("error: %v", err)}
}
