package pipeline

import (
	"github.com/gatedcrd/gatedcrd/internal/workers"
	"github.com/gatedcrd/gatedcrd/tools/pkg/crdvalidate"
)

// earlyCommitted is the reader of the files committed at HEAD that
// crd-validation compares the merged CRDs with (crdvalidate.Committed),
// started when the steps after discovery start rather than when the
// validation needs it: starting git costs milliseconds of process start,
// and outside a git work tree as many again until git has found that out,
// which the steps before the validation hide. What a Read returns does not
// change: git resolves HEAD for each file when it is asked for it.
type earlyCommitted struct {
	ready *workers.Future[*crdvalidate.Committed]
	taken bool
}

// openCommittedEarly starts the reader of the repository holding dir, with
// blobs (crdvalidate.OpenCommittedWith), in the background.
func openCommittedEarly(dir string, blobs *crdvalidate.CommittedBlobs) *earlyCommitted {
	return &earlyCommitted{ready: workers.Start(func() *crdvalidate.Committed {
		return crdvalidate.OpenCommittedWith(dir, blobs)
	})}
}

// take returns the reader once it is open, for the caller to close.
func (e *earlyCommitted) take() *crdvalidate.Committed {
	e.taken = true
	return e.ready.Wait()
}

// closeUntaken closes the reader when no step took it (the run stopped
// before the validation, or did not validate).
func (e *earlyCommitted) closeUntaken() {
	if !e.taken {
		e.take().Close()
	}
}

// committedReader returns the reader of HEAD for the validation of a run
// whose merged CRDs are in the repository holding base: the one the run
// started early, or a new one.
func (r *Run) committedReader(base string) *crdvalidate.Committed {
	if r.committed != nil && !r.committed.taken {
		return r.committed.take()
	}
	return crdvalidate.OpenCommittedWith(base, r.kept().blobs)
}
