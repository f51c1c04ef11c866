package crdvalidate

import "github.com/gatedcrd/gatedcrd/tools/pkg/crdvalidate/admission"

// The server's verdicts and cost estimates (package admission).
type (
	// Finding is one error the API server reports for a CRD manifest.
	Finding = admission.Finding
	// Verdict is the outcome of validating one manifest.
	Verdict = admission.Verdict
	// RuleCost is the estimated cost of one CEL expression of a CRD version.
	RuleCost = admission.RuleCost
)

// Budgets the server checks estimated costs against.
const (
	RuleBudget = admission.RuleBudget
	CRDBudget  = admission.CRDBudget
)

// Check validates a CRD manifest as the linked API server does on creation
// and, with previous, on update (admission.Check).
func Check(data, previous []byte) (*Verdict, error) { return admission.Check(data, previous) }

// Costs estimates the cost of every expression of a CRD manifest with the
// linked server's code (admission.Costs).
func Costs(data []byte) ([]RuleCost, uint64, error) { return admission.Costs(data) }

// Server validates CRD manifests as one Kubernetes release does.
type Server interface {
	// Validate answers one request; it is safe for concurrent use.
	Validate(admission.Request) (admission.Outcome, error)
}

// linked is the server of the linked release, in this process.
type linked struct{}

func (linked) Validate(r admission.Request) (admission.Outcome, error) {
	return admission.Validate(r), nil
}
