package suite

import (
	"strings"

	"github.com/gatedcrd/gatedcrd/features/featuregate"
	"github.com/gatedcrd/gatedcrd/internal/diag"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// Suite is one parsed suite file. Every part that a message may need to
// point at carries the line it was read from.
type Suite struct {
	// Path is the file the suite was read from, as given to ParseFile.
	Path string
	// Name is the display name ("name"); the file's base name when the
	// file gives none.
	Name string
	// CRDName is the CRD under test, <plural>.<group>.
	CRDName     string
	CRDNameLine int
	// FeatureGates are the requirements on the gates, in file order.
	FeatureGates []GateRequirement
	// Version is the CRD version under test; "" selects the single version
	// of the matched CRD files.
	Version     string
	VersionLine int
	OnCreate    []CreateTest
	OnUpdate    []UpdateTest
	// Warnings are the defects that lenient parsing accepted (see
	// ParseWith), in line order.
	Warnings []*diag.Diagnostic
}

// GateRequirement is one entry of featureGates: "Gate" requires the gate
// to be enabled, "-Gate" requires it to be disabled.
type GateRequirement struct {
	Gate    featuregate.FeatureGateName
	Enabled bool
	Line    int
}

// String returns the entry as written in the suite.
func (g GateRequirement) String() string {
	if g.Enabled {
		return string(g.Gate)
	}
	return "-" + string(g.Gate)
}

// GateList returns the suite's gate entries as written, comma-joined.
func (s *Suite) GateList() string {
	entries := make([]string, len(s.FeatureGates))
	for i, g := range s.FeatureGates {
		entries[i] = g.String()
	}
	return strings.Join(entries, ",")
}

// hasNegatedGate reports whether some entry requires a gate to be
// disabled.
func (s *Suite) hasNegatedGate() bool {
	for _, g := range s.FeatureGates {
		if !g.Enabled {
			return true
		}
	}
	return false
}

// at formats a position in the suite file for messages.
func (s *Suite) at(line int) string {
	return diag.Position{File: s.Path, Line: line}.String()
}

// Object is an object written as YAML text in a suite, decoded.
type Object struct {
	// Line is the line of the field that holds the text.
	Line int
	// Object is the decoded object. Use a deep copy: it is shared by every
	// CRD variant the test runs against.
	Object *unstructured.Unstructured
}

// hasStatus reports whether the object sets a status.
func (o *Object) hasStatus() bool {
	if o == nil {
		return false
	}
	_, ok := o.Object.Object["status"]
	return ok
}

// CreateTest is one entry of tests.onCreate: create Initial, then expect
// either ExpectedError (a substring of the server's error) or, when
// Expected is set, that the persisted object equals Expected.
type CreateTest struct {
	Name          string
	Line          int
	Initial       Object
	Expected      *Object
	ExpectedError string
}

// UpdateTest is one entry of tests.onUpdate: apply InitialCRDPatches to
// the installed CRD, create Initial (and its status), revert the patches,
// update the object to Updated (spec, then status when Updated has one),
// then expect ExpectedError from the update, ExpectedStatusError from the
// status update, or, when Expected is set, that the persisted object
// equals Expected.
type UpdateTest struct {
	Name                string
	Line                int
	InitialCRDPatches   []PatchOperation
	Initial             Object
	Updated             Object
	Expected            *Object
	ExpectedError       string
	ExpectedStatusError string
}

// PatchOperation is one RFC 6902 JSON patch operation of
// initialCRDPatches.
type PatchOperation struct {
	Op   string
	Path string
	// From is the source path of move and copy.
	From string
	// Value is the JSON value of add, replace and test; nil otherwise.
	Value []byte
	Line  int
}
