package cli

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/gatedcrd/gatedcrd/internal/clicontract"
	"github.com/gatedcrd/gatedcrd/tools/pkg/compat"
)

// ExitBreaking is compat's status for breaking findings (the contract's
// ExitFailed, like a stale --verify: "look at the report").
const ExitBreaking = ExitStale

// compatCommand compares the generated CRDs with an earlier tree.
func compatCommand(opts *options) *cobra.Command {
	var base, oldDir, output string
	cmd := &cobra.Command{
		Use:   "compat",
		Short: "Report breaking changes of the generated CRDs against an earlier tree, per major version, ClusterProfile and FeatureSet",
		Long: `compat compares every CRD of the zz_generated.crd-manifests directories below
--base-dir with the same CRD in an earlier tree, tuple by tuple (major version,
ClusterProfile, FeatureSet), with the checks of sigs.k8s.io/crdify plus one for
added x-kubernetes-validations rules. Differences explained by a FeatureGate
whose enablement changed between the two payloads are reported as gate changes,
not as breaking. Findings accepted in the group's .codegen.yaml (compat.accepted)
do not fail the run. Exit status 1 means breaking findings.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var old compat.Source
			switch {
			case base != "" && oldDir != "":
				return clicontract.Usagef("give either --base or --base-dir-old, not both")
			case base != "":
				old = compat.GitSource{Dir: opts.baseDir, Rev: base}
			case oldDir != "":
				old = compat.DirSource{Root: oldDir, Name: oldDir}
			default:
				return clicontract.Usagef("compat needs --base REV or --base-dir-old DIR")
			}
			if output != "text" && output != "json" {
				return clicontract.Usagef("--output must be text or json, not %q", output)
			}
			root, err := filepath.Abs(opts.baseDir)
			if err != nil {
				return &clicontract.Error{Code: ExitIO, Msg: fmt.Sprintf("error: %v", err)}
			}
			payloadDir, err := filepath.Rel(root, opts.payloadDirIn(root))
			if err != nil || !filepath.IsLocal(payloadDir) {
				return clicontract.Usagef("compat reads the payload directory of both trees: --%s must be below --base-dir", payloadFlag)
			}
			rep, err := compat.Run(compat.Options{
				Old:        old,
				New:        compat.DirSource{Root: root, Name: opts.baseDir},
				PayloadDir: filepath.ToSlash(payloadDir),
				Accepted:   compat.CodegenYAMLAcceptances(root),
			})
			if err != nil {
				return &clicontract.Error{Code: ExitInput, Msg: fmt.Sprintf("error: %v", err)}
			}
			out := cmd.OutOrStdout()
			if output == "json" {
				err = rep.WriteJSON(out)
			} else {
				err = rep.WriteText(out)
			}
			if err != nil {
				return &clicontract.Error{Code: ExitIO, Msg: fmt.Sprintf("error: %v", err)}
			}
			if rep.Breaking() {
				return &clicontract.Error{Code: ExitBreaking}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&base, "base", "", "git revision whose committed tree (the --base-dir directory at that revision) is the old side")
	cmd.Flags().StringVar(&oldDir, "base-dir-old", "", "directory holding the old tree, laid out like --base-dir")
	cmd.Flags().StringVarP(&output, "output", "o", "text", "report format: text or json")
	return cmd
}
