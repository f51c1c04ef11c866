// Command write-available-featuresets renders this repository's FeatureGates
// into the payload FeatureGate manifests and features.md, or with --verify
// checks that the committed files are up to date without writing anything.
//
// Exit status: 0 when done (or up to date), 1 when files are out of date or
// anything fails, 2 for bad flags.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/gatedcrd/gatedcrd/features"
	"github.com/gatedcrd/gatedcrd/features/payload"
	"github.com/gatedcrd/gatedcrd/internal/repoconfig"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

type options struct {
	payloadDir     string
	featuresMD     string
	payloadVersion string
	verify         bool
}

func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("write-available-featuresets", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.payloadDir, "payload-dir", "payload-manifests/featuregates", "directory of the payload FeatureGate manifests")
	fs.StringVar(&o.featuresMD, "features-md", "features.md", "features.md to render from the payload directory; empty disables it")
	fs.StringVar(&o.payloadVersion, "payload-version", "", "value of status.featureGates[0].version in the manifests")
	fs.BoolVar(&o.verify, "verify", false, "compare with the files on disk, write nothing, fail listing every stale, missing or extra file")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	return o, nil
}

func run(args []string, stdout, stderr io.Writer) int {
	o, err := parseFlags(args, stderr)
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stderr, err)
		}
		return 2
	}
	files, err := payload.Render(features.AllFeatureSets(), o.payloadVersion)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if o.verify {
		return verify(o, files, stdout, stderr)
	}
	if err := write(o, files); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	return 0
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
func verify(o options, files []payload.File, stdout, stderr io.Writer) int {
	var diffs []payload.Difference
	check := func(err error) bool {
		var stale *payload.StaleError
		if errors.As(err, &stale) {
			diffs = append(diffs, stale.Differences...)
			return true
		}
		if err != nil {
			fmt.Fprintln(stderr, err)
			return false
		}
		return true
	}
	ok := check(payload.VerifyDir(o.payloadDir, files))
	if o.featuresMD != "" {
		d, err := payload.ReadFiles(files)
		ok = check(err) && ok
		opts, cerr := markdownOptions(o)
		ok = check(cerr) && ok
		if err == nil && cerr == nil {
			ok = check(payload.VerifyFeaturesMarkdown(d, o.featuresMD, opts...)) && ok
		}
	}
	if len(diffs) > 0 {
		fmt.Fprintln(stderr, (&payload.StaleError{Differences: diffs}).Error())
		fmt.Fprintln(stderr, "run write-available-featuresets without --verify to regenerate")
		return 1
	}
	if !ok {
		return 1
	}
	fmt.Fprintln(stdout, "payload FeatureGate manifests and features.md are up to date")
	return 0
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
