// Command apitest runs the API test suites of any tree of generated CRDs
// from the command line, on a real API server of the Kubernetes version
// the repository targets. Usage:
//
//	go run github.com/gatedcrd/gatedcrd/apitest/cmd/apitest --base-dir DIR \
//		[--manifest-merge:payload-manifest-path DIR] [--kube-version 1.32|1.31,1.36|1.30-1.37] [--run REGEX] [--junit FILE]
//
// It finds every suite below --base-dir (<dir>/tests/<crd name>/*.yaml,
// at any depth, any .yaml name such as *.testsuite.yaml), matches each
// with the generated CRD files of <dir>/zz_generated.crd-manifests by the
// FeatureGates the files were generated for (read from
// --manifest-merge:payload-manifest-path, also called --payload-dir, by
// default <base-dir>/payload-manifests/featuregates, else the nearest
// payload-manifests/featuregates or featuregates beside or above <dir>),
// and runs it against each matched file, exactly as the Go library does
// (package suite).
//
// # Several Kubernetes versions
//
// --kube-version takes a list or a range (1.31,1.36; 1.30-1.37), and
// kubeVersions of .gatedcrd.yaml gives the repository's default. The
// suites are parsed and planned once; each version runs its own server
// (the linked one in this process, the others as their programs), as
// many at once as versionLimit allows (one per core, at least two, and
// about 1 GiB of available memory each) or --kube-parallel says. Each
// pair's line starts with its version, a table of suite files × versions
// with passed/failed counts closes the run, the last line counts every
// version, and every JUnit testsuite carries its version (property
// kubeVersion; its name starts with the version). A skip list entry
// applies to the versions its kubeVersions names. A version whose server
// cannot be built or started is one failure; the others still run.
// --build-only builds the programs and prints the time and size of each,
// for a CI step that fills the cache.
//
// --serve keeps the server of one release up and runs, per JSON request
// on standard input, the suites of the CRD and suite files it names,
// answering one JSON line on standard output (serve.go, the messages of
// internal/suiteserve): codegen watch --suites is its client.
//
// # Kubernetes version
//
// The release is chosen as codegen chooses it (internal/kubetarget):
// --kube-version (1.30 to 1.37), else the key kubeVersion of
// <base-dir>/.gatedcrd.yaml, else the minor of k8s.io/apimachinery (else
// k8s.io/api) in the go.mod governing --base-dir (v0.35.1 is 1.35), else
// the version apitest links (1.37, which runs in this process and needs
// no build). The first line of the output names the release and why.
// Every release but the linked one is a program built once from Go
// modules and cached (package kubeversion); its first use builds it,
// which takes minutes.
//
// A release chosen by the flag or the configuration that is not supported
// is a usage error, and one whose server cannot be built or started fails
// the run. An inferred release is only a warning in both cases, so that a
// repository that configured nothing exits as with the reference:
// the tests then run on the linked release, and the output says so in a
// warning line and again before the summary, so that no one takes a run
// on 1.37 for a run on the inferred release.
//
// # Payloads from before version awareness
//
// The payload FeatureGate manifests are read in the format their files
// show (features/payload): when none carries
// release.openshift.io/major-version, as in operator repositories that
// follow the reference from before February 2026, the gates of a
// ClusterProfile and feature set are those of the file named
// featureGate-<Profile>-<FeatureSet>.yaml (JSON with # comment lines is
// accepted), whatever its annotations say, and there are no major
// versions; a CRD file then selects its payload file by its profile and
// feature-set annotations alone. The key referenceEra of .gatedcrd.yaml
// forces a format instead.
//
// # Output
//
// One line per (suite, CRD file) pair as it finishes, "ok" or "FAIL",
// followed for a failure by each failed test: the suite file and line,
// the test, the CRD file, and the server's error or a diff of the
// persisted object ("-" expected, "+" persisted). A suite that cannot be
// run at all (a parse error, an unknown FeatureGate, a suite that matches
// no CRD file) is one failure of its own. The last line is exactly
// "N passed, M failed", counting tests. --junit also writes the results as
// JUnit XML. These results go to standard output; progress and warnings
// go to standard error (-q drops them). The command follows the contract
// it shares with codegen (internal/clicontract, docs/cli.md): exit status
// 0 when every test passed, 1 when some failed or nothing ran, 2 for a
// wrong command line, 3 for a bad configuration, skip list or missing
// directory, 4 when a file cannot be read or written.
//
// The API server's warnings (a Warning header, such as unknown field
// "spec.x" for a field the schema prunes) are kept with the test whose
// request received them: shown under a failing test, under every test with
// -v, in the JUnit system-out, and counted before the last line; client-go
// would otherwise log each through klog, between the progress lines.
//
// # Defects and skips
//
// Suite files with the defects openshift/api's own runner accepts
// (unknown or repeated fields, repeated test names) run as that runner
// runs them, with a "warning:" line each; --strict rejects them instead.
// --skip names a YAML list of tests that cannot pass on some Kubernetes
// versions, each entry with its suite file, tests, versions and reason
// (see skipEntry); those tests are reported as skipped, and an entry that
// names no test of the run is a failure.
package main
