// Package suiteserve holds the messages of apitest --serve, which keeps an
// API server running and runs the API test suites of the files each
// request names; codegen watch --suites is its client. The two programs
// live in separate Go modules (apitest links kube-apiserver and etcd,
// which codegen must not), so they share these types through the root
// module and speak them as JSON lines over the child's standard input
// and output.
package suiteserve

import "time"

// Ready is apitest's first line: the server is up, or could not start.
type Ready struct {
	Ready       bool   `json:"ready"`
	KubeVersion string `json:"kubeVersion,omitempty"`
	// Reason says why that release (kubetarget.Choice.Reason).
	Reason string `json:"reason,omitempty"`
	Error  string `json:"error,omitempty"`
}

// Request asks for the suites of some generated CRD files and some suite
// files: every (suite, CRD file) pair whose CRD file or suite file is
// listed runs. Paths are as apitest would show them (relative to its
// working directory, or absolute).
type Request struct {
	CRDFiles   []string `json:"crdFiles,omitempty"`
	SuiteFiles []string `json:"suiteFiles,omitempty"`
}

// Result answers a Request.
type Result struct {
	// Pairs is the number of (suite, CRD file) pairs that ran.
	Pairs   int `json:"pairs"`
	Passed  int `json:"passed"`
	Failed  int `json:"failed"`
	Skipped int `json:"skipped"`
	// Unchanged is how many of the tests counted above did not run
	// again: they did not change since the last run of their pair, whose
	// outcome they report (apitest --serve without --rerun-all).
	Unchanged int `json:"unchanged,omitempty"`
	// Output is what a one-shot apitest prints for the failed pairs
	// (every pair with -v) and for the named suites that could not be
	// prepared.
	Output   string        `json:"output,omitempty"`
	Duration time.Duration `json:"duration"`
	// Where says where the run spent its time (suite.Stats: batches,
	// CRD installs, tests, CRD removals); "" when nothing ran.
	Where string `json:"where,omitempty"`
	// Error is set for a request that could not be read.
	Error string `json:"error,omitempty"`
}
