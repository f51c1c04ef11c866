// Package cli is the codegen command line: flag parsing, which stages each
// sub-command selects, and what the user sees (progress, diagnostics, the
// verify report, the exit status).
//
// The stages themselves, their order and what they share belong to package
// pipeline: a sub-command turns its flags into pipeline.Options, runs the
// pipeline (discover the API group-versions, load the Go packages once if a
// stage needs types, run the selected stages against one overlay file
// tree), then either commits the tree (atomic writes) or, with --verify,
// reports every file that would change and writes nothing. The libraries
// say what is wrong with an option; this package names the flag that set
// it.
package cli
