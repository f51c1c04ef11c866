package admission

import (
	"fmt"
	"sort"
	"strings"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apimachinery/pkg/util/version"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/environment"
)

// Budgets the server checks estimated costs against.
const (
	// RuleBudget is the per-expression limit.
	RuleBudget = validation.StaticEstimatedCostLimit
	// CRDBudget is the limit for the sum over a version's schema.
	CRDBudget = validation.StaticEstimatedCRDCostLimit
)

// RuleCost is the estimated cost of one CEL expression of a CRD version.
type RuleCost struct {
	// Version is the CRD version's name.
	Version string
	// Path is the server's field path of the expression, as in Finding.
	Path string
	// Rule is the expression.
	Rule string
	// Cost is the estimate the server compares with RuleBudget: the
	// expression's maximum cost times the largest number of times it can
	// run (the product of the maxItems/maxProperties above it).
	Cost uint64
}

// Costs estimates the cost of every rule and messageExpression of the CRD
// manifest data with the server's own code: the CEL schema contexts of the
// validation package (which track cardinality and the per-version total)
// and the CEL compiler, in the server's environment. It returns the costs,
// most expensive first, and the largest per-version total. Rules that do not
// compile are left out (Check reports them).
func Costs(data []byte) ([]RuleCost, uint64, error) {
	crd, err := newServer().decode(data)
	if err != nil {
		return nil, 0, err
	}
	envSet := baseEnvSet()
	var out []RuleCost
	var maxTotal uint64
	walk := func(name string, root *apiextensions.JSONSchemaProps, path *field.Path) {
		ctx := validation.RootCELContext(root)
		w := &costWalker{version: name, envSet: envSet}
		w.walk(root, ctx, path)
		out = append(out, w.costs...)
		maxTotal = max(maxTotal, ctx.TotalCost.Total)
	}
	// The conversion hoists a schema shared by every version into
	// spec.validation, and the server validates it there once.
	if crd.Spec.Validation != nil && crd.Spec.Validation.OpenAPIV3Schema != nil {
		walk(versionNames(crd), crd.Spec.Validation.OpenAPIV3Schema, field.NewPath("spec", "validation", "openAPIV3Schema"))
	}
	for i, v := range crd.Spec.Versions {
		if v.Schema != nil && v.Schema.OpenAPIV3Schema != nil {
			walk(v.Name, v.Schema.OpenAPIV3Schema, field.NewPath("spec", "versions").Index(i).Child("schema", "openAPIV3Schema"))
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Cost > out[j].Cost })
	return out, maxTotal, nil
}

func versionNames(crd *apiextensions.CustomResourceDefinition) string {
	var names []string
	for _, v := range crd.Spec.Versions {
		names = append(names, v.Name)
	}
	return strings.Join(names, ",")
}

type costWalker struct {
	version string
	envSet  *environment.EnvSet
	costs   []RuleCost
}

// walk visits the schema like the server's validation does: properties,
// items and additionalProperties, each with its child CEL context.
func (w *costWalker) walk(s *apiextensions.JSONSchemaProps, ctx *validation.CELSchemaContext, path *field.Path) {
	if s == nil {
		return
	}
	if len(s.XValidations) > 0 {
		w.compile(s, ctx, path)
	}
	for _, name := range sortedNames(s.Properties) {
		p := s.Properties[name]
		w.walk(&p, ctx.ChildPropertyContext(&p, name), path.Child("properties").Key(name))
	}
	if s.Items != nil && s.Items.Schema != nil {
		w.walk(s.Items.Schema, ctx.ChildItemsContext(s.Items.Schema), path.Child("items"))
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
		w.walk(s.AdditionalProperties.Schema, ctx.ChildAdditionalPropertiesContext(s.AdditionalProperties.Schema), path.Child("additionalProperties"))
	}
}

func (w *costWalker) compile(s *apiextensions.JSONSchemaProps, ctx *validation.CELSchemaContext, path *field.Path) {
	info, err := ctx.TypeInfo()
	if err != nil || info == nil {
		return
	}
	results, err := cel.Compile(info.Schema, info.DeclType, celconfig.PerCallLimit, w.envSet, cel.NewExpressionsEnvLoader())
	if err != nil {
		return
	}
	for i, r := range results {
		rulePath := path.Child("x-kubernetes-validations").Index(i)
		if r.Error == nil {
			cost := cardinalityCost(r.MaxCost, r.MaxCardinality, ctx)
			ctx.TotalCost.ObserveExpressionCost(rulePath.Child("rule"), cost)
			w.costs = append(w.costs, RuleCost{Version: w.version, Path: rulePath.Child("rule").String(), Rule: s.XValidations[i].Rule, Cost: cost})
		}
		if r.MessageExpression != nil && r.MessageExpressionError == nil {
			ctx.TotalCost.ObserveExpressionCost(rulePath.Child("messageExpression"), r.MessageExpressionMaxCost)
			w.costs = append(w.costs, RuleCost{Version: w.version, Path: rulePath.Child("messageExpression").String(), Rule: s.XValidations[i].MessageExpression, Cost: r.MessageExpressionMaxCost})
		}
	}
}

// cardinalityCost is the server's getExpressionCost (unexported there): the
// cost times the schema's cardinality when all lists and maps above are
// bounded, else times the cardinality the compiler estimated.
func cardinalityCost(cost, compiledCardinality uint64, ctx *validation.CELSchemaContext) uint64 {
	n := compiledCardinality
	if ctx.MaxCardinality != nil {
		n = *ctx.MaxCardinality
	}
	if cost == 0 {
		return 0
	}
	if ^uint64(0)/cost < n {
		return ^uint64(0)
	}
	return cost * n
}

func sortedNames(m map[string]apiextensions.JSONSchemaProps) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// baseEnvSet is the CEL environment set the server validates CRDs with.
// Its constructor gained and lost a strictCost argument across releases
// (1.32 passes true, as the server does there); the type switch compiles
// with either signature.
func baseEnvSet() *environment.EnvSet {
	switch f := any(environment.MustBaseEnvSet).(type) {
	case func(*version.Version) *environment.EnvSet:
		return f(environment.DefaultCompatibilityVersion())
	case func(*version.Version, bool) *environment.EnvSet:
		return f(environment.DefaultCompatibilityVersion(), true)
	}
	panic(fmt.Sprintf("environment.MustBaseEnvSet has an unknown signature %T", environment.MustBaseEnvSet))
}
