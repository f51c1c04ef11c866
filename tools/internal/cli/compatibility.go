package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/gatedcrd/gatedcrd/internal/repoconfig"
	"github.com/gatedcrd/gatedcrd/tools/pkg/compatlevel"
	"github.com/gatedcrd/gatedcrd/tools/pkg/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// compatibilityCommand maintains the compatibility level line of the doc
// comment of every type embedding TypeMeta (SPEC 6.5).
func compatibilityCommand(opts *options) *cobra.Command {
	return &cobra.Command{
		Use:   "compatibility",
		Short: "Write the \"Compatibility level N\" line into the doc comment of every type embedding TypeMeta (with --verify: fail naming the stale files)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			disc, cfg, err := discoverConfigured(opts, opts.groupVersions)
			if err != nil {
				return err
			}
			t := tree.New()
			res, problems := compatlevel.Run(compatlevel.Input{Discovery: disc, Tree: t, Config: cfg.Compatibility,
				ConfigFile: cfg.File, Partial: len(opts.groupVersions) > 0, EnforceLevels: cfg.Compatibility.Configured()})
			found := relativeTo(disc.BaseDir, problems, nil)
			if res == nil {
				return inputError(opts, found, nil)
			}
			if !opts.Quiet {
				for _, d := range found.Items() {
					fmt.Fprintf(opts.stderr, "%s: %s\n", d.Severity, d)
				}
			}
			if !opts.Quiet && !opts.verify {
				fmt.Fprintf(opts.stderr, "codegen compatibility: %d type(s) embedding TypeMeta\n", res.Types)
			}
			return commitOrVerify(opts, t, disc.BaseDir, len(res.Sources), nil)
		},
	}
}

// discoverConfigured runs discovery (keeping filter) and reads the
// repository configuration, the start of every housekeeping command; its
// error is the command's exit error.
func discoverConfigured(opts *options, filter []string) (*discovery.Result, repoconfig.Config, error) {
	disc, probs, err := discover(opts, filter)
	if err != nil {
		return nil, repoconfig.Config{}, discoveryError(opts, disc, probs, err)
	}
	cfg, err := repoconfig.Load(disc.BaseDir)
	if err != nil {
		return nil, repoconfig.Config{}, inputError(opts, relativeTo(disc.BaseDir, nil, err), nil)
	}
	return disc, cfg, nil
}

// discoveryError reports a failed discovery with paths relative to the
// base directory.
func discoveryError(opts *options, disc *discovery.Result, probs *diag.List, err error) error {
	base := opts.baseDir
	if disc != nil {
		base = disc.BaseDir
	}
	var items []diag.Diagnostic
	if probs != nil {
		items = probs.Items()
	}
	return inputError(opts, relativeTo(base, items, err), nil)
}
