// Command apitest runs the API test suites of any tree of generated CRDs
// from the command line, on a real API server of the Kubernetes version
// the repository targets:
//
//	go run github.com/gatedcrd/gatedcrd/apitest/cmd/apitest --base-dir DIR \
//		[--payload-dir DIR] [--kube-version 1.32] [--run REGEX] [--junit FILE]
//
// It finds every suite below --base-dir (<version-dir>/tests/<crd
// name>/*.yaml), matches each with the generated CRD files of its version
// directory by the FeatureGates the files were generated for (read from
// --payload-dir, by default <base-dir>/payload-manifests/featuregates),
// and runs it against each matched file, exactly as the Go library does
// (package suite).
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
// the run. An inferred release is only a warning in both cases (SPEC 9.1):
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
// "N passed, M failed", counting tests. The exit status is 0 when every
// test passed, 1 when some failed or nothing ran, 2 for a wrong command
// line. --junit also writes the results as JUnit XML.
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
