package manifestmerge

import (
	"github.com/gatedcrd/gatedcrd/features/featuregate"
	fgpayload "github.com/gatedcrd/gatedcrd/features/payload"
	"github.com/gatedcrd/gatedcrd/internal/diag"
)

// Tuples returns the tuples of a payload FeatureGate directory
// (docs/reference-rules.md, "Tuples") in the stage's order (featuregate.Tuple.Compare), each with its enabled
// gates; a CustomNoUpgrade tuple has none, every gate counting as on. A
// problem with any manifest is an error, as in the stage. Which output
// file of the stage is a CRD's in a tuple is crdvariant's to say.
func Tuples(d *fgpayload.Directory) ([]featuregate.TupleGates, error) {
	pl, err := readPayloadStrict(d)
	if err != nil {
		return nil, err
	}
	return pl.tuples, nil
}

// readPayloadStrict is readPayload with every problem an error.
func readPayloadStrict(d *fgpayload.Directory) (*payload, error) {
	var problems diag.List
	pl, err := readPayload(d, &problems)
	if err != nil {
		return nil, err
	}
	if err := problems.Err(); err != nil {
		return nil, err
	}
	return pl, nil
}
