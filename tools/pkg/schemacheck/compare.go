package schemacheck

import (
	"fmt"
	"sort"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/crdify/pkg/config"
	"sigs.k8s.io/crdify/pkg/runner"
	"sigs.k8s.io/crdify/pkg/validations/property"

	"github.com/gatedcrd/gatedcrd/tools/pkg/compat"
)

// byCrdify maps crdify's check names to the comparators they stand for.
var byCrdify = map[string]string{
	"existingFieldRemoval": NoFieldRemoval,
	"required":             NoNewRequiredFields,
	"enum":                 NoEnumRemoval,
	"type":                 NoDataTypeChange,
}

// Comparer runs a set of comparators on pairs of CRDs; it implements
// compat.Comparer. It is used by one goroutine.
type Comparer struct {
	enabled map[string]bool
	// crdify runs the enabled comparators that crdify makes; nil when
	// there are none.
	crdify compat.Comparer
}

// New returns the comparer of the given comparators (see Resolve).
func New(names []string) (*Comparer, error) {
	c := &Comparer{enabled: map[string]bool{}}
	for _, n := range names {
		c.enabled[n] = true
	}
	cfg := config.Config{UnhandledEnforcement: config.EnforcementPolicyNone, Conversion: config.ConversionPolicyIgnore}
	useCrdify := false
	for _, name := range runner.DefaultRegistry().Registered() {
		v := config.ValidationConfig{Name: name, Enforcement: config.EnforcementPolicyNone}
		if c.enabled[byCrdify[name]] {
			v.Enforcement, useCrdify = config.EnforcementPolicyError, true
		}
		if name == "enum" {
			v.Configuration = map[string]any{"additionPolicy": string(property.AdditionPolicyAllow)}
		}
		cfg.Validations = append(cfg.Validations, v)
	}
	if useCrdify {
		if err := config.ValidateConfig(&cfg); err != nil {
			return nil, err
		}
		r, err := runner.New(&cfg, runner.DefaultRegistry())
		if err != nil {
			return nil, fmt.Errorf("configuring crdify: %w", err)
		}
		c.crdify = compat.NewCrdifyComparer(r)
	}
	return c, nil
}

// Compare implements compat.Comparer. old is nil for a CRD new in the
// tuple: then only the comparators of new fields run.
func (c *Comparer) Compare(name string, dirs []string, old, cur *apiextensionsv1.CustomResourceDefinition) []compat.Difference {
	var out []compat.Difference
	if c.crdify != nil && old != nil {
		for _, d := range c.crdify.Compare(name, dirs, old, cur) {
			if d, ok := fromCrdify(d); ok {
				out = append(out, d)
			}
		}
	}
	out = append(out, c.newFields(old, cur)...)
	if c.enabled[MustHaveStatus] {
		out = append(out, missingStatus(old, cur)...)
	}
	if c.enabled[MustNotExceedCostBudget] {
		out = append(out, costs(old, cur)...)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		return strings.Join([]string{a.Version, a.Path, a.Check, a.Message}, "\x00") < strings.Join([]string{b.Version, b.Path, b.Check, b.Message}, "\x00")
	})
	return out
}

// fromCrdify renames a crdify finding to its comparator. Served-version
// pairs are left out (crd-schema-checker compares each version with
// itself), and so are type changes to "" (crdify's echo of a removed
// field).
func fromCrdify(d compat.Difference) (compat.Difference, bool) {
	name, ok := byCrdify[d.Check]
	if !ok || strings.Contains(d.Version, " -> ") || d.Warning {
		return d, false
	}
	if name == NoDataTypeChange && strings.HasSuffix(d.Message, `-> ""`) {
		return d, false
	}
	d.Check = name
	return d, true
}
