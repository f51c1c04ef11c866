package cli

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/gatedcrd/gatedcrd/internal/clicontract"
	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/internal/repoconfig"
	"github.com/gatedcrd/gatedcrd/tools/pkg/payloadcrds"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// payloadCRDsCommand copies the selected generated CRD manifests into the
// payload directory (docs/reference-rules.md, "Payload CRD copy").
func payloadCRDsCommand(opts *options) *cobra.Command {
	return &cobra.Command{
		Use:   "payload-crds",
		Short: "Copy the generated CRD manifests selected in .gatedcrd.yaml into the payload directory (with --verify: fail on a stale, missing or untracked copy)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if len(opts.groupVersions) > 0 {
				return &clicontract.Error{Code: ExitUsage, Msg: "error: payload-crds works on the whole tree (every generated file must be selected or excluded); drop --api-group-versions"}
			}
			disc, cfg, err := discoverConfigured(opts, nil)
			if err != nil {
				return err
			}
			if !cfg.PayloadCRDs.Configured {
				if !opts.Quiet {
					fmt.Fprintf(opts.stderr, "codegen payload-crds: %s has no payloadCRDs section; nothing to copy\n", repoconfig.FileName)
				}
				return nil
			}
			t := tree.New()
			res, problems := payloadcrds.Run(payloadcrds.Input{Discovery: disc, Tree: t, Config: cfg.PayloadCRDs, ConfigFile: cfg.File})
			if len(problems) > 0 {
				return inputError(opts, relativeTo(disc.BaseDir, problems, nil), nil)
			}
			return commitOrVerify(opts, t, disc.BaseDir, len(res.Copied), func(c tree.Change) string {
				if c.Kind == tree.Delete || c.Kind == tree.DeleteDir {
					return payloadcrds.Untracked(tree.Rel(disc.BaseDir, c.Path), repoconfig.FileName) + "\n"
				}
				return ""
			})
		},
	}
}

// relativeTo collects problems and err into a list, with their files
// relative to base.
func relativeTo(base string, problems []diag.Diagnostic, err error) *diag.List {
	all := &diag.List{}
	all.Add(problems...)
	all.AddError(err)
	out := &diag.List{}
	for _, d := range all.Items() {
		if filepath.IsAbs(d.File) {
			d.File = tree.Rel(base, d.File)
		}
		out.Add(d)
	}
	return out
}

// commitOrVerify ends a housekeeping command: with --verify it reports
// every change (describe may give a better text for one) and fails, else
// it commits the tree.
func commitOrVerify(opts *options, t *tree.Tree, base string, files int, describe func(tree.Change) string) error {
	changes, _, err := t.Changes()
	if err != nil {
		return &clicontract.Error{Code: ExitIO, Msg: fmt.Sprintf("error: %v", err)}
	}
	if opts.verify {
		if len(changes) == 0 {
			return nil
		}
		for _, c := range changes {
			text := ""
			if describe != nil {
				text = describe(c)
			}
			if text == "" {
				text = tree.Describe([]tree.Change{c}, base)
			}
			fmt.Fprint(opts.stderr, text)
		}
		return &clicontract.Error{Code: ExitStale, Msg: clicontract.StaleHint(opts.commandPath, len(changes))}
	}
	st, err := t.Commit()
	if err != nil {
		return &clicontract.Error{Code: ExitIO, Msg: fmt.Sprintf("error: %v", err)}
	}
	if !opts.Quiet {
		fmt.Fprintf(opts.stderr, "codegen: %d file(s) considered; %d written, %d unchanged, %d removed\n", files, st.Written, st.Unchanged, st.Removed)
	}
	return nil
}
