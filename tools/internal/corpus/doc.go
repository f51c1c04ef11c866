// Package corpus is a corpus of bad inputs for the codegen command.
//
// testdata/base/ is a small valid tree: one API group
// (widgets.example.openshift.io/v1) with its generated manifests and a
// payload FeatureGate directory. Every file in testdata/cases/ is a txtar
// archive that describes one broken variant of that tree, the codegen
// arguments to run on it, the expected exit status and the texts the error
// output must contain. The test copies the base tree, applies the case and
// runs the command in-process.
//
// The case files are generated from the tables in templates_test.go:
//
//	go test ./internal/corpus -run TestGenerate -gen
//
// Edit the tables, regenerate, review the diff and commit both. See
// corpus_test.go for the archive format.
package corpus
