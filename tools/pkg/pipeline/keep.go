package pipeline

import (
	"github.com/gatedcrd/gatedcrd/features/payload"
	"github.com/gatedcrd/gatedcrd/tools/pkg/crdvalidate"
	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
	"github.com/gatedcrd/gatedcrd/tools/pkg/partialschemas"
	"github.com/gatedcrd/gatedcrd/tools/pkg/schemapatch"
	"github.com/gatedcrd/gatedcrd/tools/pkg/strictmarkers"
)

// Keep is what the runs over one tree that share it (Options.Keep) keep
// for the next: codegen watch makes one and hands it to every cycle. A
// one-shot run has none (nil) and reads, parses and starts everything
// itself. Each part serves a later run only what the inputs it is keyed
// on still give, so a run with a Keep computes what a run without one
// does:
//
//   - the parsed manifests stages 1 and 2 read (manifest.Memo), keyed by
//     the SHA-256 of the bytes; what the last two generations (Advance,
//     once per good watch cycle) did not use is dropped, and the caller
//     may drop contents no file holds any more (Forget);
//   - what discovery read of each package directory (discovery.Memo),
//     valid while the names, sizes and modification times of its Go files
//     stay the same; the caller forgets the directory of every file whose
//     content changed, and all of them before the packages are listed
//     again;
//   - strict mode's findings on each marker text (strictmarkers.LineCache):
//     they depend on the text and the marker definitions alone; it holds
//     the texts the last scan saw;
//   - stage 1's and stage 2's package indexes (partialschemas.IndexCache,
//     schemapatch.IndexCache), reused for a package while it has the very
//     syntax trees they were made from (goload.SyntaxCache): a changed
//     file is parsed into new trees, a fresh load makes new packages; an
//     indexing that reported errors is not kept;
//   - the payload FeatureGate directory as last read (payload.Memo),
//     parsed again when the directory, the era, a file name or a byte of
//     a file differs;
//   - the CRD validation program of each Kubernetes release other than the
//     linked one, running from the first run that needs it to Close; a
//     program that failed a run is ended and the next run starts another;
//   - the committed versions of the merged CRDs the validation compares
//     with, by git blob id (crdvalidate.CommittedBlobs): a blob id names
//     one content, so only a HEAD that changed a file reads it again; it
//     holds the blobs the last run read;
//   - the text of the large mappings of the manifests stages 2 and 3
//     rendered (manifest.Subtrees), by content and column: an edit to one
//     field renders only the mappings on the way to it again; what the
//     last two generations (Advance) did not use is dropped.
//
// The loaded Go packages are not part of it: the caller that keeps them
// (goload.Session) serves the load (Options.LoadUniverse), since only it
// knows which files changed. A Keep is safe for concurrent use; Close it
// when done.
type Keep struct {
	manifests      *manifest.Memo
	directories    *discovery.Memo
	markerLines    *strictmarkers.LineCache
	partialIndexes *partialschemas.IndexCache
	schemaIndexes  *schemapatch.IndexCache
	payload        *payload.Memo
	programs       *validationPrograms
	blobs          *crdvalidate.CommittedBlobs
	rendered       *manifest.Subtrees
}

// NewKeep returns a Keep that holds nothing yet.
func NewKeep() *Keep {
	return &Keep{
		manifests:      manifest.NewMemo(),
		directories:    discovery.NewMemo(),
		markerLines:    strictmarkers.NewLineCache(),
		partialIndexes: partialschemas.NewIndexCache(),
		schemaIndexes:  schemapatch.NewIndexCache(),
		payload:        &payload.Memo{},
		programs:       newValidationPrograms(),
		blobs:          crdvalidate.NewCommittedBlobs(),
		rendered:       manifest.NewSubtrees(),
	}
}

// Manifests is the memo of parsed manifests, which the caller tells what
// the files it wrote hold (Prewarm, Forget; Advance is Keep's).
func (k *Keep) Manifests() *manifest.Memo { return k.manifests }

// Directories is what discovery keeps of each package directory, which
// the caller tells what changed (Forget, Reset, KeepListings).
func (k *Keep) Directories() *discovery.Memo { return k.directories }

// Advance starts a new generation of the parts that keep what recent runs
// used (the parsed manifests and the rendered text), which drop what
// neither it nor the one before used: codegen watch advances once per
// good cycle.
func (k *Keep) Advance() {
	k.manifests.Advance()
	k.rendered.Advance()
}

// Close waits for the parses the manifest memo started and ends the
// validation programs kept running.
func (k *Keep) Close() error {
	k.manifests.Wait()
	return k.programs.close()
}

// nothingKept is the Keep of a run without one: every part nil, which
// each part's users take as keeping nothing.
var nothingKept Keep

// rendering is what renders the manifests of stages 2 and 3: the Keep's
// Subtrees, or one of the run's own, since the partial manifests of one
// CRD share most of their text, as do the merged CRDs of its variants.
func (r *Run) rendering() *manifest.Subtrees {
	if r.subtrees == nil {
		r.subtrees = r.kept().rendered
		if r.subtrees == nil {
			r.subtrees = manifest.NewSubtrees()
		}
	}
	return r.subtrees
}

// kept is the run's Keep, or nothingKept.
func (r *Run) kept() *Keep {
	if r.Options.Keep == nil {
		return &nothingKept
	}
	return r.Options.Keep
}
