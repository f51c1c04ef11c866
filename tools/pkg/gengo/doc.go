// Package gengo runs k8s.io/gengo/v2 generators (deepcopy-gen's, and
// kube-openapi's openapi-gen and model names) over one universe per run,
// recording their files in a tree.Tree instead of writing them.
//
// The reference codegen builds a gengo universe of every API package for
// each group-version and each generator, and lets gengo write every file
// it generates, also under --verify. Here a run parses the packages once
// (Load), keeps one generator.Context for every generator (its universe
// is the expensive part), and assembles each generated file in memory
// (Universe.Execute): --verify compares those bytes with the disk and
// writes nothing.
package gengo
