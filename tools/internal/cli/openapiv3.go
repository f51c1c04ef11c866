package cli

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/gatedcrd/gatedcrd/features/payload"
	"github.com/gatedcrd/gatedcrd/internal/clicontract"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifestmerge"
	"github.com/gatedcrd/gatedcrd/tools/pkg/openapiv3"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// openAPIV3Command writes, for one variant, the OpenAPI v3 document of
// every group-version as an API server with that variant's CRDs serves it.
func openAPIV3Command(opts *options) *cobra.Command {
	var profile, featureSet, out string
	var major int
	cmd := &cobra.Command{
		Use:   "openapi-v3",
		Short: "Write OUT/apis/<group>/<version>.json: the OpenAPI v3 document a server with one variant's CRDs serves (offline, apiextensions-apiserver's builder)",
		Long: `openapi-v3 selects, among the generated zz_generated.crd-manifests files, the CRDs of one
ClusterProfile x FeatureSet x major version, and writes for every group-version the document
an API server with exactly those CRDs installed would serve at /openapi/v3/apis/<group>/<version>,
built by the apiextensions-apiserver's own builder and encoded as the server encodes it.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if profile == "" || featureSet == "" || out == "" {
				return &clicontract.Error{Code: ExitUsage, Msg: "error: openapi-v3 needs --cluster-profile, --feature-set and --out"}
			}
			disc, probs, err := discover(opts, opts.groupVersions)
			if err != nil {
				return inputError(opts, probs, err)
			}
			dir, err := payload.ReadDir(opts.payloadDirIn(disc.BaseDir))
			if err != nil {
				return inputError(opts, nil, err)
			}
			variant, err := manifestmerge.FindVariant(dir, profile, featureSet, major)
			if err != nil {
				return &clicontract.Error{Code: ExitUsage, Msg: "error: " + err.Error()}
			}
			var dirs []string
			for _, v := range disc.Versions() {
				dirs = append(dirs, filepath.Join(v.Dir, manifestmerge.OutputDirName))
			}
			crds, err := openapiv3.VariantCRDs(dirs, variant)
			if err != nil {
				return inputError(opts, relativeTo(disc.BaseDir, nil, err), nil)
			}
			docs, err := openapiv3.Build(crds)
			if err != nil {
				return inputError(opts, nil, err)
			}
			t := tree.New()
			outDir := resolve(disc.BaseDir, out)
			for _, d := range docs {
				t.WriteFile(filepath.Join(outDir, filepath.FromSlash(d.Path)), d.JSON)
			}
			if !opts.Quiet {
				fmt.Fprintf(opts.stderr, "codegen openapi-v3: %s: %d CRD(s), %d group-version document(s)\n", variant.Tuple, len(crds), len(docs))
			}
			return commitOrVerify(opts, t, disc.BaseDir, len(docs), nil)
		},
	}
	f := cmd.Flags()
	f.StringVar(&profile, "cluster-profile", "", "ClusterProfile of the variant (e.g. SelfManagedHA, Hypershift)")
	f.StringVar(&featureSet, "feature-set", "", "FeatureSet of the variant (e.g. Default, TechPreviewNoUpgrade, CustomNoUpgrade)")
	f.IntVar(&major, "major-version", 0, "major version of the variant (default: the highest the payload FeatureGate manifests know)")
	f.StringVar(&out, "out", "", "output directory (relative to --base-dir); documents go to OUT/apis/<group>/<version>.json")
	return cmd
}
