// Command write-available-featuresets renders this repository's FeatureGates
// into the payload FeatureGate manifests and features.md, or with --verify
// checks that the committed files are up to date without writing anything.
//
// It follows the command-line contract of gatedcrd's commands
// (internal/clicontract, docs/cli.md): exit status 0 when done (or up to
// date), 1 when --verify finds files out of date, 2 for a wrong command
// line, 3 for a bad .gatedcrd.yaml or payload manifest, 4 when a file
// cannot be read or written.
package main

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/gatedcrd/gatedcrd/features"
	"github.com/gatedcrd/gatedcrd/features/payload"
	"github.com/gatedcrd/gatedcrd/internal/clicontract"
	"github.com/gatedcrd/gatedcrd/internal/repoconfig"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

type options struct {
	baseDir        string
	payloadDir     string
	featuresMD     string
	payloadVersion string
	verify         bool
	output         clicontract.Output
	stderr         io.Writer
}

// defaultPayloadDir is the payload directory below --base-dir.
var defaultPayloadDir = filepath.Join("payload-manifests", "featuregates")

func newCommand(o *options) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "write-available-featuresets",
		Short: "Render this repository's FeatureGates into the payload FeatureGate manifests and features.md",
		Long: `write-available-featuresets renders the FeatureGates of package features into
the payload FeatureGate manifests (one per ClusterProfile, FeatureSet and
major version) and features.md, or with --verify checks that the files on
disk are up to date, writing nothing and listing every stale, missing or
extra file on standard error (exit status 1).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := clicontract.CheckDir("--"+clicontract.BaseDirFlag, o.baseDir); err != nil {
				return err
			}
			if !cmd.Flags().Changed(clicontract.PayloadFlag) {
				o.payloadDir = filepath.Join(o.baseDir, defaultPayloadDir)
			}
			if !cmd.Flags().Changed("features-md") {
				o.featuresMD = filepath.Join(o.baseDir, "features.md")
			}
			return generate(o, cmd.CommandPath())
		},
	}
	cmd.SetGlobalNormalizationFunc(clicontract.Aliases(nil))
	f := cmd.Flags()
	f.StringVar(&o.baseDir, clicontract.BaseDirFlag, ".", "the repository root: the default payload directory and features.md are below it")
	f.StringVar(&o.payloadDir, clicontract.PayloadFlag, "", "directory of the payload FeatureGate manifests, relative to the working directory (default <base-dir>/"+filepath.ToSlash(defaultPayloadDir)+"); --payload-dir is another name for it")
	f.StringVar(&o.featuresMD, "features-md", "", "features.md to render from the payload directory, relative to the working directory (default <base-dir>/features.md); empty disables it")
	f.StringVar(&o.payloadVersion, "payload-version", "", "value of status.featureGates[0].version in the manifests")
	f.BoolVar(&o.verify, "verify", false, "compare with the files on disk, write nothing, fail listing every stale, missing or extra file")
	clicontract.AddOutputFlags(f, &o.output, "1 names the files rendered")
	return cmd
}

func run(args []string, stdout, stderr io.Writer) int {
	o := &options{stderr: stderr}
	return clicontract.Execute(newCommand(o), args, stdout, stderr)
}

// generate renders the files and writes or verifies them.
func generate(o *options, commandPath string) error {
	files, err := payload.Render(features.AllFeatureSets(), o.payloadVersion)
	if err != nil {
		return clicontract.Inputf("%v", err)
	}
	if o.output.Verbosity >= 1 && !o.output.Quiet {
		for _, f := range files {
			fmt.Fprintf(o.stderr, "%s: rendered %s\n", commandPath, filepath.Join(o.payloadDir, f.Name))
		}
	}
	if o.verify {
		return verify(*o, files, commandPath)
	}
	if err := write(*o, files); err != nil {
		return classify(err)
	}
	return nil
}

// classify gives a failure its exit status: a file that exists but could
// not be read or written is I/O, anything else (a bad .gatedcrd.yaml, a
// missing file) bad input.
func classify(err error) error {
	var pathErr *fs.PathError
	if errors.As(err, &pathErr) && !errors.Is(err, fs.ErrNotExist) {
		return clicontract.IOf("%v", err)
	}
	return clicontract.Inputf("%v", err)
}

// write updates the payload directory, then renders features.md from what
// was written, as any other reader of the directory would see it.
func write(o options, files []payload.File) error {
	if err := payload.WriteDir(o.payloadDir, files); err != nil {
		return err
	}
	if o.featuresMD == "" {
		return nil
	}
	d, err := payload.ReadDir(o.payloadDir)
	if err != nil {
		return err
	}
	opts, err := markdownOptions(o)
	if err != nil {
		return err
	}
	return payload.WriteFeaturesMarkdown(d, o.featuresMD, opts...)
}

// verify checks both outputs and reports every difference before failing.
// features.md is derived from the freshly rendered manifests, not from the
// directory on disk, so that one stale input is not hidden by another.
// An error other than a difference is printed too; the first decides the
// exit status.
func verify(o options, files []payload.File, commandPath string) error {
	var diffs []payload.Difference
	var failure error
	check := func(err error) bool {
		var stale *payload.StaleError
		if errors.As(err, &stale) {
			diffs = append(diffs, stale.Differences...)
			return true
		}
		if err != nil {
			c := classify(err)
			fmt.Fprintln(o.stderr, c)
			failure = cmp.Or(failure, c)
			return false
		}
		return true
	}
	check(payload.VerifyDir(o.payloadDir, files))
	if o.featuresMD != "" {
		d, err := payload.ReadFiles(files)
		opts, cerr := markdownOptions(o)
		readOK, optsOK := check(err), check(cerr)
		if readOK && optsOK {
			check(payload.VerifyFeaturesMarkdown(d, o.featuresMD, opts...))
		}
	}
	if len(diffs) > 0 {
		fmt.Fprintln(o.stderr, (&payload.StaleError{Differences: diffs}).Error())
	}
	if failure != nil {
		return &clicontract.Error{Code: clicontract.Status(failure)}
	}
	if len(diffs) > 0 {
		return clicontract.Failed(clicontract.StaleHint(commandPath, len(diffs)))
	}
	if !o.output.Quiet {
		fmt.Fprintf(o.stderr, "%s --verify: payload FeatureGate manifests and features.md are up to date\n", commandPath)
	}
	return nil
}

// markdownOptions links the gates of features.md to their lifecycle pages
// when the repository configuration next to it (.gatedcrd.yaml, see
// featureGateDocs) has codegen write them.
func markdownOptions(o options) ([]payload.MarkdownOption, error) {
	base := filepath.Dir(o.featuresMD)
	cfg, err := repoconfig.Load(base)
	if err != nil {
		return nil, err
	}
	dir := cfg.FeatureGateDocs.Directory
	if dir == "" {
		return nil, nil
	}
	return []payload.MarkdownOption{payload.WithGateDocs(dir)}, nil
}
