package schemapatch

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/features/payload"
	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// legacyEnumTypes declares fields whose enum meets their type's enum, and
// fields where nothing meets, for TestLegacyEnums.
const legacyEnumTypes = `
type ThingSpec struct {
	// different allows the empty string too.
	// +kubebuilder:validation:Enum="";A;B
	Different Mode ` + "`json:\"different\"`" + `
	// equal repeats the type's list.
	// +kubebuilder:validation:Enum=A;B
	Equal Mode ` + "`json:\"equal\"`" + `
	// pointer narrows it.
	// +kubebuilder:validation:Enum=B
	// +optional
	Pointer *Mode ` + "`json:\"pointer,omitempty\"`" + `
	// list narrows its items.
	// +kubebuilder:validation:items:Enum=A
	// +optional
	List []Mode ` + "`json:\"list,omitempty\"`" + `
	// arrayEnum is an enum of the array, not of its items.
	// +kubebuilder:validation:Enum=A
	// +optional
	ArrayEnum []Mode ` + "`json:\"arrayEnum,omitempty\"`" + `
	// plain has the type's enum only.
	Plain Mode ` + "`json:\"plain\"`" + `
	// free has the field's enum only.
	// +kubebuilder:validation:Enum=C
	Free Free ` + "`json:\"free\"`" + `
	// chained is a Narrow, a Mode with an enum of its own.
	// +kubebuilder:validation:Enum=A;B
	Chained Narrow ` + "`json:\"chained\"`" + `
	// narrow is a Narrow without an enum of the field.
	Narrow Narrow ` + "`json:\"narrow\"`" + `
	// gated has an enum in the Example gate set only.
	// +openshift:validation:FeatureGateAwareEnum:featureGate=Example,enum=A
	Gated Mode ` + "`json:\"gated\"`" + `
	// mixed differs from its type in maxLength too.
	// +kubebuilder:validation:Enum=A
	// +kubebuilder:validation:MaxLength=3
	Mixed Short ` + "`json:\"mixed\"`" + `
	// nested holds such a field one level down.
	Nested Inner ` + "`json:\"nested\"`" + `

	Embedded ` + "`json:\",inline\"`" + `
}

// Mode is an enum.
// +kubebuilder:validation:Enum=A;B
type Mode string

// Free is not.
type Free string

// Narrow is a Mode of one value.
// +kubebuilder:validation:Enum=A
type Narrow Mode

// Short is a short enum.
// +kubebuilder:validation:Enum=A;B
// +kubebuilder:validation:MaxLength=5
type Short string

// Inner is nested.
type Inner struct {
	// inner narrows.
	// +kubebuilder:validation:Enum=B
	Inner Mode ` + "`json:\"inner\"`" + `
}

// Embedded is inlined.
type Embedded struct {
	// embedded narrows.
	// +kubebuilder:validation:Enum=A
	EmbeddedMode Mode ` + "`json:\"embeddedMode\"`" + `
}
`

// TestLegacyEnums: in the pre-version eras, a field's enum and its type's
// are hoisted into allOf (the type's first, then the field's) with no enum
// left on the node, as the reference's controller-tools of the time did,
// even when the lists are equal; a $ref chain folds from the innermost
// type out. In the later eras (and the empty one) controller-tools v0.23
// keeps the type's enum only. Nodes where no two enums meet are the same
// in every era.
func TestLegacyEnums(t *testing.T) {
	l := load(t, write(t, thingsAPI(legacyEnumTypes, []string{""}, []string{"Example"})))
	type want struct{ legacy, current string }
	same := func(s string) want { return want{s, s} }
	cases := []struct {
		gate, path string
		want       want
	}{
		{"AAA_ungated", "different", want{`
allOf:
- enum:
  - A
  - B
- enum:
  - ""
  - A
  - B
description: different allows the empty string too.
type: string
`, `
description: different allows the empty string too.
enum:
- A
- B
type: string
`}},
		{"AAA_ungated", "equal", want{`
allOf:
- enum:
  - A
  - B
- enum:
  - A
  - B
description: equal repeats the type's list.
type: string
`, `
description: equal repeats the type's list.
enum:
- A
- B
type: string
`}},
		{"AAA_ungated", "pointer", want{`
allOf:
- enum:
  - A
  - B
- enum:
  - B
description: pointer narrows it.
type: string
`, `
description: pointer narrows it.
enum:
- A
- B
type: string
`}},
		{"AAA_ungated", "list", want{`
description: list narrows its items.
items:
  allOf:
  - enum:
    - A
    - B
  - enum:
    - A
  description: Mode is an enum.
  type: string
type: array
`, `
description: list narrows its items.
items:
  description: Mode is an enum.
  enum:
  - A
  - B
  type: string
type: array
`}},
		{"AAA_ungated", "arrayEnum", same(`
description: arrayEnum is an enum of the array, not of its items.
enum:
- A
items:
  description: Mode is an enum.
  enum:
  - A
  - B
  type: string
type: array
`)},
		{"AAA_ungated", "plain", same(`
description: plain has the type's enum only.
enum:
- A
- B
type: string
`)},
		{"AAA_ungated", "free", same(`
description: free has the field's enum only.
enum:
- C
type: string
`)},
		// Narrow's own schema is {$ref: Mode, enum: [A]}: Mode's enum and
		// Narrow's are hoisted first, which leaves no enum for the field's
		// to meet.
		{"AAA_ungated", "chained", want{`
allOf:
- enum:
  - A
  - B
- enum:
  - A
description: chained is a Narrow, a Mode with an enum of its own.
enum:
- A
- B
type: string
`, `
description: chained is a Narrow, a Mode with an enum of its own.
enum:
- A
- B
type: string
`}},
		{"AAA_ungated", "narrow", want{`
allOf:
- enum:
  - A
  - B
- enum:
  - A
description: narrow is a Narrow without an enum of the field.
type: string
`, `
description: narrow is a Narrow without an enum of the field.
enum:
- A
- B
type: string
`}},
		{"AAA_ungated", "gated", same(`
description: gated has an enum in the Example gate set only.
enum:
- A
- B
type: string
`)},
		{"Example", "gated", want{`
allOf:
- enum:
  - A
  - B
- enum:
  - A
description: gated has an enum in the Example gate set only.
type: string
`, `
description: gated has an enum in the Example gate set only.
enum:
- A
- B
type: string
`}},
		// Both maxLengths were hoisted into an allOf pair already; the old
		// flattener put the enums into the same pair.
		{"AAA_ungated", "mixed", want{`
allOf:
- enum:
  - A
  - B
  maxLength: 5
- enum:
  - A
  maxLength: 3
description: mixed differs from its type in maxLength too.
type: string
`, `
allOf:
- maxLength: 5
- maxLength: 3
description: mixed differs from its type in maxLength too.
enum:
- A
- B
type: string
`}},
		{"AAA_ungated", "nested", want{`
description: nested holds such a field one level down.
properties:
  inner:
    allOf:
    - enum:
      - A
      - B
    - enum:
      - B
    description: inner narrows.
    type: string
required:
- inner
type: object
`, `
description: nested holds such a field one level down.
properties:
  inner:
    description: inner narrows.
    enum:
    - A
    - B
    type: string
required:
- inner
type: object
`}},
		{"AAA_ungated", "embeddedMode", want{`
allOf:
- enum:
  - A
  - B
- enum:
  - A
description: embedded narrows.
type: string
`, `
description: embedded narrows.
enum:
- A
- B
type: string
`}},
	}
	for _, era := range append(payload.Eras(), "") {
		legacy := era != "" && era < payload.Era(payload.SeparateEnums.Date)
		tr := tree.New()
		list := &diag.List{}
		if _, err := Run(Input{Discovery: l.discovery, Universe: l.universe, Tree: tr, Problems: list, Era: era}); err != nil {
			t.Fatalf("era %q: Run: %v", era, err)
		}
		if list.HasErrors() {
			t.Fatalf("era %q: problems:\n%v", era, list.Err())
		}
		for _, c := range cases {
			content, err := tr.ReadFile(filepath.Join(l.base, thingsCRD, c.gate+".yaml"))
			if err != nil {
				t.Fatal(err)
			}
			obj, err := manifest.Parse(content)
			if err != nil {
				t.Fatal(err)
			}
			node, ok := lookup(obj, "spec.versions.0.schema.openAPIV3Schema.properties.spec.properties."+c.path)
			if !ok {
				t.Fatalf("era %q, %s: no property %s", era, c.gate, c.path)
			}
			data, err := manifest.Marshal(node)
			if err != nil {
				t.Fatal(err)
			}
			want := c.want.current
			if legacy {
				want = c.want.legacy
			}
			if got := string(data); got != strings.TrimPrefix(want, "\n") {
				t.Errorf("era %q, %s: %s is\n%s\nwant\n%s", era, c.gate, c.path, got, strings.TrimPrefix(want, "\n"))
			}
		}
	}
}

// TestEraOf: the payload's era when it was read, else the current
// behaviour.
func TestEraOf(t *testing.T) {
	if got := EraOf(&payload.Directory{Era: payload.Era202601}, nil); got != payload.Era202601 {
		t.Errorf("EraOf(directory of 2026-01) = %q", got)
	}
	if got := EraOf(nil, errTest); got != "" {
		t.Errorf("EraOf(nil, error) = %q, want \"\"", got)
	}
}

var errTest = errors.New("cannot read the payload directory")
