package cli

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/gatedcrd/gatedcrd/features/payload"
	"github.com/gatedcrd/gatedcrd/internal/clicontract"
	"github.com/gatedcrd/gatedcrd/internal/repoconfig"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// featuresetMarkdownCommand renders features.md from the payload directory.
func featuresetMarkdownCommand(opts *options) *cobra.Command {
	var output string
	cmd := &cobra.Command{
		Use:   "featureset-markdown",
		Short: "Render features.md (which gate is on in which ClusterProfile and FeatureSet) from the payload FeatureGate manifests",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			dir := opts.payloadDirIn(opts.baseDir)
			d, err := payload.ReadDir(dir)
			if err != nil {
				return &clicontract.Error{Code: ExitInput, Msg: fmt.Sprintf("error: %s: %v", dir, err)}
			}
			path := resolve(opts.baseDir, output)
			cfg, err := repoconfig.Load(filepath.Dir(path))
			if err != nil {
				return &clicontract.Error{Code: ExitInput, Msg: fmt.Sprintf("error: %v", err)}
			}
			var mdOpts []payload.MarkdownOption
			if dir := cfg.FeatureGateDocs.Directory; dir != "" {
				mdOpts = append(mdOpts, payload.WithGateDocs(dir))
			}
			t := tree.New()
			t.WriteFile(path, payload.RenderFeaturesMarkdown(d, mdOpts...))
			changes, _, err := t.Changes()
			if err != nil {
				return &clicontract.Error{Code: ExitIO, Msg: fmt.Sprintf("error: %v", err)}
			}
			if opts.verify {
				if len(changes) > 0 {
					fmt.Fprint(opts.stderr, tree.Describe(changes, opts.baseDir))
					return &clicontract.Error{Code: ExitStale, Msg: clicontract.StaleHint(opts.commandPath, len(changes))}
				}
				return nil
			}
			if _, err := t.Commit(); err != nil {
				return &clicontract.Error{Code: ExitIO, Msg: fmt.Sprintf("error: %v", err)}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&output, "output", "features.md", "file to write (relative to --base-dir)")
	return cmd
}

func resolve(base, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(base, p)
}
