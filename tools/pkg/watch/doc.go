// Package watch is codegen watch: it keeps the CRD generation of one tree
// running in a warm process next to an editor, and after every save
// regenerates and writes what changed.
//
// A Watcher runs a full pipeline run first (a cycle), then waits for
// changes to its inputs: the Go files of the packages the last load read
// that lie in the tree's module (and any new Go package below the base
// directory that declares a GroupVersion), manual-override-crd-manifests,
// the payload FeatureGate directory, .gatedcrd.yaml, .codegen.yaml, the
// strict baseline, go.mod and go.sum. It watches directories, not files,
// because editors save by writing a new file and renaming it over the old
// one, and it waits until the events of a save have stopped for a moment
// (Options.Debounce) before it runs the next cycle. A save that only
// renamed Go files that parse into place starts its cycle at once; an
// event for an input that comes before that cycle writes drops it
// (superseded), and the next waits RenameSettle. A file whose content
// is what the watcher saw last, or what its own last write put there (the
// compatibility lines of .gatedcrd.yaml edit Go files), starts no cycle.
//
// Every cycle is a pipeline run of its own (pipeline.New ... Generate,
// then Changes.Write), so it produces exactly what a one-shot codegen
// crd-manifests run produces from the same sources. A cycle with errors
// writes nothing: the files of the last good cycle stay, and the next
// good save recovers. Each cycle holds the tree's write lock
// (pipeline.LockWrites) from the start of its generation to the end of
// its write, so a one-shot run that writes waits for it.
//
// What is incremental: when every changed file is a Go file of a package
// the last load read, or an override of one group-version, the cycle
// regenerates only the group-versions whose roots import (transitively)
// a changed package, or own the override: a run restricted with
// pipeline.Options.GroupVersions, as --api-group-versions restricts a
// one-shot run. That restriction is exact for the files of those
// group-versions and leaves the others as they are, which is what a
// full run would write for them, because nothing they read changed. It
// is not taken when the output of a group-version may depend on packages
// other roots load (enumFromConstants), when per-gate pages cover every
// group-version (featureGateDocs), after a failed cycle, or for any other
// input; a restricted cycle that fails runs again in full, so its errors
// are a full run's. The loaded Go packages are kept between cycles
// (goload.Session, through pipeline.Options.LoadUniverse): a cycle after
// saves to Go files lists no package with the go command unless a file
// was added, deleted or renamed or a file's header (build constraints,
// package clause, imports) changed, parses again only the changed
// packages and type-checks again only those and their importers. A full cycle other than
// --full's, and any cycle after a failed one, loads afresh.
//
// Within those group-versions a cycle regenerates only the CRDs whose
// root type reaches a changed declaration (pipeline.Options.Kinds): the
// watcher hashes each Go file's declarations (declHashes) to tell which
// types a save changed, and keeps the graph of the named types the root
// packages refer to (typeRefs), as the last cycles type-checked them, to
// find the root types reaching them; a group-version none of whose root
// types does, and whose package did not change, is not regenerated. A
// change beyond type declarations regenerates every CRD of the package.
//
// With Options.Outputs and Options.GengoOutputs, a save also regenerates
// the saved packages' own Go files (outputs.go): swagger docs in its
// cycle, deepcopy and model names in a gengo run after it, only when the
// save changed code or +k8s: tags (codeHash), for those packages and the
// ones whose types reach a changed declaration, from a gengo universe of
// just them and what they import.
// See docs/watch.md.
package watch
