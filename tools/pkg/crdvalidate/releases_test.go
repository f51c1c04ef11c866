package crdvalidate

import (
	"strconv"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/pkg/crdvalidate/admission"
)

// celSince are CEL expressions that a release's server accepts in a new
// CRD from the minor given on: it compiles new expressions in the
// environment of the previous minor, so a library that Kubernetes 1.N adds
// to CEL is accepted from 1.N+1 on. Each supported release answers
// differently on at least one, which shows that a validation program runs
// the release it was built for.
var celSince = []struct {
	since, rule, schema string
}{
	// Two-variable comprehensions (added in 1.32).
	{"1.33", "self.all(k, v, k != v)", "            type: object\n            maxProperties: 10\n            additionalProperties:\n              type: string\n              maxLength: 10\n"},
	// The semver library (added in 1.33).
	{"1.34", "isSemver(self)", "            type: string\n            maxLength: 64\n"},
	// Version 3 of the lists extension (added in 1.34).
	{"1.35", "self.distinct() == self", "            type: array\n            maxItems: 10\n            items:\n              type: string\n              maxLength: 10\n"},
}

// checkCELSince validates every expression of celSince with the release
// minor and wants a compile error exactly where that release predates it.
func checkCELSince(t *testing.T, minor string, validate func(data []byte) (*Verdict, error)) {
	t.Helper()
	for _, c := range celSince {
		data := crd(c.schema + "            x-kubernetes-validations:\n            - rule: \"" + c.rule + "\"\n")
		v, err := validate(data)
		if err != nil {
			t.Fatalf("%s: %v", c.rule, err)
		}
		rejected := find(v, "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule", "compilation failed") != nil
		if want := minorNumber(t, minor) < minorNumber(t, c.since); rejected != want || len(v.Findings) != btoi(want) {
			t.Errorf("Kubernetes %s on rule %q (accepted from %s on): findings %+v", minor, c.rule, c.since, v.Findings)
		}
	}
}

func minorNumber(t *testing.T, minor string) int {
	_, m, _ := strings.Cut(minor, ".")
	n, err := strconv.Atoi(m)
	if err != nil {
		t.Fatalf("minor %q: %v", minor, err)
	}
	return n
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestCELSinceLinked: the linked release accepts every expression of
// celSince (its programs' counterparts run in TestProgramValidates).
func TestCELSinceLinked(t *testing.T) {
	checkCELSince(t, LinkedKubeVersion, func(data []byte) (*Verdict, error) { return admission.Check(data, nil) })
}
