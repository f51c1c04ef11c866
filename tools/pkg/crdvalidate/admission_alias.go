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
