// Package cli is the codegen command line: flag parsing, the order in which
// stages run, and what the user sees (progress, diagnostics, the verify
// report, the exit status).
//
// Every sub-command follows the same path: discover the API group-versions,
// load the Go packages once if a stage needs types, run the selected stages
// against one overlay file tree (package tree), then either commit the tree
// (atomic writes) or, with --verify, report every file that would change and
// write nothing.
package cli
