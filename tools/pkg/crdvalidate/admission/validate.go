package admission

import "fmt"

// Request asks for the verdict on one CRD manifest.
type Request struct {
	// Data is the manifest (apiextensions.k8s.io/v1, YAML or JSON).
	Data []byte `json:"data"`
	// Previous is the manifest it replaces, or nil.
	Previous []byte `json:"previous,omitempty"`
	// Costs asks for the cost estimate of every expression.
	Costs bool `json:"costs,omitempty"`
}

// Outcome answers a Request.
type Outcome struct {
	Verdict *Verdict   `json:"verdict,omitempty"`
	Costs   []RuleCost `json:"costs,omitempty"`
	// Total is the largest per-version cost total (with Costs).
	Total uint64 `json:"total,omitempty"`
	// Error says why the manifest could not be validated (the server
	// cannot decode it).
	Error string `json:"error,omitempty"`
}

// Validate answers r: Check, and Costs when asked.
func Validate(r Request) Outcome {
	var out Outcome
	v, err := Check(r.Data, r.Previous)
	if err != nil {
		out.Error = fmt.Sprintf("the API server cannot decode it: %v", err)
		return out
	}
	out.Verdict = v
	if r.Costs {
		if out.Costs, out.Total, err = Costs(r.Data); err != nil {
			out.Error = err.Error()
		}
	}
	return out
}
