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
// --kube-version picks the minor release of the API server, 1.32 to 1.37;
// without it the key kubeVersion of <base-dir>/.gatedcrd.yaml decides,
// and without that the version apitest links (1.37, which runs in this
// process and needs no build). Every other version is a program built
// once from Go modules and cached (package kubeversion); its first use
// builds it, which takes minutes.
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
