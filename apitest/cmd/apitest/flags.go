package main

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gatedcrd/gatedcrd/apitest/kubeversion"
	"github.com/gatedcrd/gatedcrd/internal/clicontract"
	"github.com/gatedcrd/gatedcrd/internal/kubetarget"
	"github.com/gatedcrd/gatedcrd/internal/repoconfig"
)

const description = `apitest runs the API test suites of a tree of generated CRDs (every
<dir>/tests/<crd name>/*.yaml below --base-dir, against the CRD files of
<dir>/zz_generated.crd-manifests) on a real API server of the chosen
Kubernetes version, or of each of several versions. Results (a line per
suite and CRD file, each failure, the closing table) go to standard
output, whose last line reads "N passed, M failed", over all versions;
progress and warnings go to standard error. Exit status (docs/cli.md): 0
if every test passed, 1 if one failed or none ran, 2 for a wrong command
line, 3 for a wrong configuration or a missing directory, 4 when a file
cannot be read or written.

Kubernetes version: --kube-version, else kubeVersions, else kubeVersion of
<base-dir>/.gatedcrd.yaml, else the minor of k8s.io/apimachinery (else
k8s.io/api) in the go.mod governing --base-dir (v0.35.1 runs on 1.35),
else the release apitest links (` + kubeversion.Linked + `, in this process). The first line
says which and why. A chosen release (flag or configuration) that is not
supported, or whose server cannot be built or started, is an error; an
inferred one is a warning, and the tests then run on ` + kubeversion.Linked + ` instead, as the
output says.

Several versions (--kube-version 1.31,1.36 or 1.30-1.37, or kubeVersions):
the suites are read and planned once and run on a server per version,
several versions at once (--kube-parallel); each pair's line starts with
its version, and a table of suite files × versions closes the run.
--build-only builds the server programs of the versions and runs nothing.

Payload: the FeatureGate manifests of --manifest-merge:payload-manifest-path
decide which gates each CRD file has (default
<base-dir>/payload-manifests/featuregates, else for the suites of each
directory the nearest payload-manifests/featuregates or featuregates
holding featureGate-*.yaml, beside it or above it up to the module root).
When none of them carries release.openshift.io/major-version (the format
before February 2026, as operator repositories still ship it), the gates
of a ClusterProfile and feature set are those of the file named
featureGate-<Profile>-<FeatureSet>.yaml, whatever its annotations say, and
there are no major versions. referenceEra in .gatedcrd.yaml forces a
format instead of detecting it.

API warnings (such as unknown fields) are kept with their test: shown
under a failing test, under every test with -v, and counted before the
last line.`

// flagValues are the flags as given, before resolve checks them.
type flagValues struct {
	baseDir, payloadDir, kubeVersion string
	cpuProfile, filter, junit, skip  string
	kubeParallel, parallel           int
	buildOnly, serve, strict         bool
	rerunAll                         bool
	output                           clicontract.Output
}

// newCommand is the apitest command; do runs with the resolved command
// line.
func newCommand(do func(*config)) *cobra.Command {
	var fv flagValues
	cmd := &cobra.Command{
		Use:   "apitest",
		Short: "Run the API test suites of a tree of generated CRDs on a real API server",
		Long:  description,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := fv.resolve(cmd.Flags().Changed(clicontract.PayloadFlag))
			if err != nil {
				return err
			}
			do(cfg)
			return nil
		},
	}
	f := cmd.Flags()
	cmd.SetGlobalNormalizationFunc(clicontract.Aliases(nil))
	f.StringVar(&fv.baseDir, clicontract.BaseDirFlag, ".", "the API tree: suites below it, its generated CRD files next to them")
	f.StringVar(&fv.payloadDir, clicontract.PayloadFlag, "", "the payload FeatureGate manifests, relative to the working directory (default <base-dir>/payload-manifests/featuregates, else for each directory of suites the nearest payload-manifests/featuregates or featuregates beside or above it); --payload-dir is another name for it")
	f.StringVar(&fv.kubeVersion, clicontract.KubeVersionFlag, "", "the Kubernetes minor to run on, e.g. 1.32, or several: a list 1.31,1.36 or a range 1.30-1.37, each on a server of its own (default: kubeVersions, else kubeVersion of <base-dir>/.gatedcrd.yaml, else inferred from the go.mod governing --base-dir, else "+kubeversion.Linked+")")
	f.IntVar(&fv.kubeParallel, "kube-parallel", 0, "how many Kubernetes versions run at once (default: as many as the cores, at least 2, and the available memory allow)")
	f.StringVar(&fv.cpuProfile, "cpuprofile", "", "write a CPU profile of this process (the client, and the server of "+kubeversion.Linked+", which runs in it) to this file, for performance work")
	f.BoolVar(&fv.buildOnly, "build-only", false, "only build the API server programs of the chosen versions (or find them cached), printing the time and size of each; runs no test")
	f.StringVar(&fv.filter, "run", "", "run only the tests whose full name (pair/onCreate|onUpdate/test) matches this regular expression")
	f.StringVar(&fv.junit, "junit", "", "also write the results as JUnit XML to this file")
	f.IntVar(&fv.parallel, "parallel", 4, "how many (suite × CRD file) pairs of different group-versions run at once")
	f.StringVar(&fv.skip, clicontract.SkipFlag, "", clicontract.SkipUsage)
	f.BoolVar(&fv.serve, "serve", false, "keep the API server running and answer run requests, one JSON line each on standard input, with one JSON line of results on standard output (the protocol of codegen watch --suites)")
	f.BoolVar(&fv.rerunAll, "rerun-all", false, "with --serve, run every test of the pairs a request names; by default a test that did not change since the server last ran it against the same CRD file is not run again, and its outcome, failure included, is reported again")
	f.BoolVar(&fv.strict, clicontract.StrictFlag, false, "reject suite files with the defects openshift/api's runner accepts (unknown or repeated fields, repeated test names) instead of warning")
	clicontract.AddOutputFlags(f, &fv.output, "1 lists every test, not only failures, and the run's counts")
	return cmd
}

// resolve checks the flags and the repository configuration and chooses
// the Kubernetes release(s). payloadGiven says the payload flag was given.
func (fv *flagValues) resolve(payloadGiven bool) (*config, error) {
	cfg := &config{baseDir: fv.baseDir, payloadDir: fv.payloadDir, junit: fv.junit, parallel: fv.parallel,
		verbose: fv.output.Verbosity >= 1, quiet: fv.output.Quiet, strict: fv.strict, skipPath: fv.skip,
		kubeParallel: fv.kubeParallel, buildOnly: fv.buildOnly, cpuProfile: fv.cpuProfile, serve: fv.serve, rerunAll: fv.rerunAll}
	if fv.filter != "" {
		re, err := regexp.Compile(fv.filter)
		if err != nil {
			return nil, clicontract.Usagef("--run: %v", err)
		}
		cfg.filter = re
	}
	if err := clicontract.CheckDir("--"+clicontract.BaseDirFlag, cfg.baseDir); err != nil {
		return nil, err
	}
	if payloadGiven {
		if err := clicontract.CheckDir("--"+clicontract.PayloadFlag, cfg.payloadDir); err != nil {
			return nil, err
		}
	}
	repo, err := repoconfig.Load(cfg.baseDir)
	if err != nil {
		return nil, clicontract.Inputf("%v", err)
	}
	cfg.era = repo.ReferenceEra
	if err := cfg.chooseVersions(fv.kubeVersion, repo); err != nil {
		return nil, err
	}
	if err := cfg.readSkipList(); err != nil {
		return nil, clicontract.Inputf("%v", err)
	}
	return cfg, nil
}

// chooseVersions sets the release(s) of the run. An error about
// --kube-version is a usage error, one about the configuration bad input.
func (cfg *config) chooseVersions(flagValue string, repo repoconfig.Config) error {
	list, reason, err := versionList(flagValue, repo)
	if err != nil {
		return versionError(err)
	}
	switch {
	case len(list) > 1:
		cfg.versions, cfg.version = list, list[0]
		cfg.target = kubetarget.Choice{Minor: strings.Join(cfg.minors(), ","), Reason: reason, Explicit: true}
	case len(list) == 1:
		cfg.version = list[0]
		cfg.target = kubetarget.Choice{Minor: list[0].Minor, Reason: reason, Explicit: true}
	default:
		if cfg.target, err = kubetarget.Choose("--"+clicontract.KubeVersionFlag, withoutPatch(flagValue), repo, cfg.baseDir, kubeversion.Linked); err != nil {
			return versionError(err)
		}
		if cfg.version, err = kubeversion.Lookup(cfg.target.Minor); err != nil {
			if !cfg.canFallBack() {
				return versionError(fmt.Errorf("%s: %w", cfg.target.Reason, err))
			}
			if err := cfg.fallBack("cannot be used: " + err.Error()); err != nil {
				return clicontract.Inputf("%v", err)
			}
		}
	}
	return nil
}

// versionError classifies an error choosing the release: one the flag
// caused (its message starts with the flag) is a usage error, one the
// configuration or go.mod caused is bad input.
func versionError(err error) error {
	if strings.HasPrefix(err.Error(), "--") {
		return clicontract.Usagef("%v", err)
	}
	return clicontract.Inputf("%v", err)
}
