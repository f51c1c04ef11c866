// Package markerpos locates marker comment lines: for every type
// declaration and struct field of a package, the "+..." lines that
// controller-tools' collector (sigs.k8s.io/controller-tools/pkg/markers)
// takes the node's markers from, each with its token.Pos.
//
// The collector hands out parsed values without positions. Every stage
// that reports a problem with a marker, and strict mode, needs the line it
// was written on; they all ask this package, so that one association rule
// decides which comment lines belong to a node: the node's godoc block,
// plus the closest other comment block above it that lies after the
// previous sibling and is not that sibling's end-of-line comment. A test
// compares the association with the collector's on every fixture and on
// layouts gofmt would rewrite.
//
// Lines.Locate is the one way to find the line of a marker value: stage 2
// reports bad markers with it, the CRD validation points at the marker
// behind a rule the API server rejects.
//
// Positions stay token.Pos values until a diagnostic is made; they are
// rendered as file:line through the universe's token.FileSet, and the
// diagnostic's file is made relative to the base directory when it is
// shown (pipeline.Run.Relative).
package markerpos
