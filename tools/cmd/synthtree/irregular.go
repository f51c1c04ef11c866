package main

import (
	"fmt"
	"strings"
)

// The irregular part of the tree: what makes a real API repository cost
// more than its counts suggest. Real field documentation runs to several
// sentences, which become the schema's descriptions; real repositories
// embed large shared structs, nested ten levels deep and full of CEL
// rules, in many CRDs of other groups; and a few CRDs aggregate others
// into schemas a hundred times the median size. Everything here is drawn
// from the plan's second random generator (p.ir), so the gates, gated
// fields and file layout drawn from the first stay as they were.

// platformDepth is the number of nested levels of a block's shared
// platform struct below SharedPlatformSpec.
const platformDepth = 8

// platformShare is the chance, in percent, that a CRD embeds its block's
// shared platform struct in its spec.
const platformShare = 10

// proseSentences are the extra sentences of a field's documentation, in
// the style of real API documentation. %s is the field's JSON name.
var proseSentences = []string{
	"When omitted, this means no opinion and the platform is left to choose a reasonable default, which is subject to change over time.",
	"The current default is chosen by the operator from the cluster's topology and may change between releases without notice.",
	"%s must be set consistently across every member of the pool; members that disagree are reported in the status and not reconciled.",
	"Changing %s after creation causes a rolling restart of every operand, one node at a time, honouring pod disruption budgets.",
	"This field is read by the operator on every reconciliation and by the admission webhook when the object is created or updated.",
	"Values outside the documented range are rejected at admission time; values inside it are clamped by the operand to what the node supports.",
	"%s is ignored on platforms that do not support it, and a condition explains why on the resource's status.",
	"See the product documentation for the interaction of %s with the cluster-wide proxy and with the trusted certificate bundle.",
	"An empty value is not the same as an omitted one: empty explicitly disables the behaviour, omitted leaves the choice to the platform.",
	"The operator copies %s to the operand's configuration file verbatim, so its syntax is that of the operand, not of this API.",
	"Upgrades preserve %s; a downgrade to a release that does not know it drops it silently, which the upgrade documentation describes.",
	"Administrators should prefer the cluster-scoped setting and use %s only to override it for a single workload.",
}

// proseMax is the most extra sentences a field's documentation gets.
const proseMax = 3

// prose returns up to proseMax extra documentation sentences about json.
func (p *plan) prose(json string) []string {
	var out []string
	for range p.ir.IntN(proseMax + 1) {
		s := proseSentences[p.ir.IntN(len(proseSentences))]
		if strings.Contains(s, "%s") {
			s = fmt.Sprintf(s, json)
		}
		out = append(out, s)
	}
	return out
}

// typeProseSentences are extra sentences of a type's documentation. Only
// the Go source and the swagger documentation carry them: a field's
// schema takes its description from the field.
var typeProseSentences = []string{
	"It is part of the public API and follows its compatibility guarantees: fields are only added, never removed or renamed.",
	"The operator owns every object it creates from it and reconciles them back when they drift from what it describes.",
	"Values are validated at admission; the operator validates them again before use, because older servers skip some checks.",
	"Its zero value is valid and means that the platform chooses; the chosen values are reported on the owning resource's status.",
}

// typeProse returns up to three extra sentences for a type's documentation.
func (p *plan) typeProse() []string {
	var out []string
	for range p.ir.IntN(4) {
		out = append(out, typeProseSentences[p.ir.IntN(len(typeProseSentences))])
	}
	return out
}

// buildPlatform declares, in a block's common package, SharedPlatformSpec:
// a chain of platformDepth nested structs, each with plain fields, a list
// of entries, CEL rules on the struct and on fields, and near the bottom
// the block's gated SharedEndpoint, so that a gate reaches the CRDs that
// embed it ten levels down.
func (cb *crdBuilder) buildPlatform(endpoint *typeDecl) *typeDecl {
	var next *typeDecl
	for level := platformDepth; level >= 1; level-- {
		name := fmt.Sprintf("SharedPlatformLevel%d", level)
		t := cb.decl(name, fmt.Sprintf("%s is level %d of the shared platform configuration.", name, level))
		item := cb.decl(name+"Item", name+"Item is one named item of "+name+".")
		cb.add(item, "name", typeRef{Builtin: "string"}, true, "name identifies the item.",
			"+kubebuilder:validation:MinLength=1", "+kubebuilder:validation:MaxLength=63",
			`+kubebuilder:validation:XValidation:rule="!self.startsWith('-')",message="name must not start with a dash"`)
		cb.add(item, "value", typeRef{Builtin: "string"}, false, "value is the item's value.",
			"+kubebuilder:validation:MaxLength=1024")
		cb.add(t, "name", typeRef{Builtin: "string"}, false, "name labels this level.",
			"+kubebuilder:validation:MaxLength=253")
		cb.add(t, "mode", typeRef{Builtin: "string"}, false, "mode selects automatic or manual operation at this level.",
			"+kubebuilder:validation:Enum=Auto;Manual;Disabled")
		cb.add(t, "count", typeRef{Builtin: "int32"}, false, "count bounds the work done at this level.",
			"+kubebuilder:validation:Minimum=0", "+kubebuilder:validation:Maximum=1000")
		cb.add(t, "items", typeRef{Named: item, Slice: true}, false, "items are keyed by name.",
			"+listType=map", "+listMapKey=name", "+kubebuilder:validation:MaxItems=16",
			`+kubebuilder:validation:XValidation:rule="self.all(i, i.name.size() > 0)",message="every item needs a name"`)
		for i := range cb.p.ir.IntN(4) {
			json := fmt.Sprintf("setting%d", i+1)
			cb.add(t, json, typeRef{Builtin: "string"}, false, json+" is an operand setting.",
				"+kubebuilder:validation:MaxLength=512")
		}
		if level == platformDepth-1 {
			cb.add(t, "endpoint", typeRef{Named: endpoint, Ptr: true}, false, "endpoint is where this level's service listens.")
		}
		if next != nil {
			cb.add(t, "next", typeRef{Named: next, Ptr: true}, false, "next is the level below this one.")
		}
		t.Markers = append(t.Markers,
			`+kubebuilder:validation:XValidation:rule="!has(self.mode) || self.mode != 'Manual' || has(self.name)",message="manual mode needs a name"`)
		if level%2 == 0 {
			t.Markers = append(t.Markers,
				`+kubebuilder:validation:XValidation:rule="!has(self.count) || !has(self.items) || self.count >= size(self.items)",message="count must cover the items"`)
		}
		next = t
	}
	spec := cb.decl("SharedPlatformSpec", "SharedPlatformSpec is the platform configuration several API groups embed.")
	cb.add(spec, "type", typeRef{Builtin: "string"}, true, "type names the platform.",
		"+kubebuilder:validation:Enum=Metal;Cloud;Edge;None")
	cb.add(spec, "root", typeRef{Named: next}, false, "root is the top level of the platform configuration.")
	spec.Markers = append(spec.Markers,
		`+kubebuilder:validation:XValidation:rule="self.type != 'None' || !has(self.root)",message="a platform of type None takes no configuration"`)
	return spec
}

// addPlatform gives a CRD, by chance, its block's platform struct.
func (b *crdBuilder) addPlatform(spec *typeDecl) {
	if b.p.ir.IntN(100) >= platformShare {
		return
	}
	common := b.p.commonOf(b.c.GV.Group)
	b.add(spec, "platform", typeRef{Named: common.Platform, Ptr: true}, false, "platform configures the platform the operand runs on.")
	spec.Markers = append(spec.Markers,
		`+kubebuilder:validation:XValidation:rule="!has(self.platform) || !has(self.paused) || !self.paused",message="a paused resource takes no platform configuration"`)
}

// chooseAggregates marks one CRD of every block's common package (not
// gated as a whole) as its aggregate.
func (p *plan) chooseAggregates() {
	for b := 0; b < p.blocks(); b++ {
		var candidates []*crd
		for _, c := range p.commonOf(p.Groups[b*blockSize]).CRDs {
			if c.Cat != catTypeGated {
				candidates = append(candidates, c)
			}
		}
		if len(candidates) > 0 {
			candidates[p.ir.IntN(len(candidates))].aggregate = true
		}
	}
}

// addAggregate gives an aggregate CRD, once every CRD is built, a status
// field holding the platform struct and the specs of its package's other
// CRDs, as a real controller configuration embeds what it renders.
func (p *plan) addAggregate(c *crd) {
	b := &crdBuilder{p: p, c: c, pkg: c.GV.ImportPath(), types: c.Types, names: map[string]bool{}}
	for _, t := range c.Types {
		b.names[t.Name] = true
	}
	status := c.Types[2]
	observed := b.decl(b.freshName(c.Kind+"Observed"), c.Kind+"Observed is the configuration of the other resources of the group, as last observed.")
	b.add(observed, "platform", typeRef{Named: p.commonOf(c.GV.Group).Platform}, false, "platform is the observed platform configuration.")
	for _, other := range c.GV.CRDs {
		if other == c {
			continue
		}
		json := lowerFirst(other.Kind)
		b.add(observed, json, typeRef{Named: other.Types[1], Ptr: true}, false, json+" is the observed spec of the "+other.Kind+" resource.")
	}
	b.add(status, "observed", typeRef{Named: observed, Ptr: true}, false, "observed is the configuration the operator last observed.")
	c.Types = b.types
}
