package main

import (
	"fmt"
	"strings"
)

// Marker prefixes the generator writes.
const (
	mEnable    = "+openshift:enable:FeatureGate="
	mEnum      = "+openshift:validation:FeatureGateAwareEnum:"
	mXVal      = "+openshift:validation:FeatureGateAwareXValidation:"
	mMaxItems  = "+openshift:validation:FeatureGateAwareMaxItems:"
	mCEL       = "+kubebuilder:validation:XValidation:"
	mOptional  = "+optional"
	mRequired  = "+required"
	mAtomic    = "+listType=atomic"
	plainRefPk = "sharedtypes"
)

var enumWords = []string{"Balanced", "Burst", "Eco", "Fast", "Relaxed", "Strict", "Steady", "Safe"}

// buildShared declares the plain shared types package and, for every block,
// the shared types of its common API package.
func (p *plan) buildShared() {
	sb := &crdBuilder{p: p, pkg: sharedTypesPath}
	secret := sb.decl("SecretReference", "SecretReference names a Secret in the operator's namespace.")
	sb.add(secret, "name", typeRef{Builtin: "string"}, true, "name is the Secret's name.",
		"+kubebuilder:validation:MinLength=1", "+kubebuilder:validation:MaxLength=253")
	obj := sb.decl("ObjectReference", "ObjectReference points at any cluster-scoped object.")
	// No '' in a rule here: gofmt rewrites '' in a declaration's doc comment
	// to a typographic quote, which CEL then rejects.
	obj.Markers = append(obj.Markers, `+kubebuilder:validation:XValidation:rule="size(self.resource) > 0",message="resource must not be empty"`)
	sb.add(obj, "group", typeRef{Builtin: "string"}, false, "group is the object's API group; empty means the core group.",
		"+kubebuilder:validation:MaxLength=253")
	sb.add(obj, "resource", typeRef{Builtin: "string"}, true, "resource is the object's resource name.",
		"+kubebuilder:validation:MinLength=1", "+kubebuilder:validation:MaxLength=63")
	sb.add(obj, "name", typeRef{Builtin: "string"}, true, "name is the object's name.",
		"+kubebuilder:validation:MinLength=1", "+kubebuilder:validation:MaxLength=253")
	p.Shared = sb.types

	for b := 0; b < p.blocks(); b++ {
		common := p.Groups[b*blockSize].Versions[0]
		g1, g2 := p.sharedGatesOf(b)
		cb := &crdBuilder{p: p, pkg: common.ImportPath()}
		proto := cb.decl("SharedEndpointProtocol", "SharedEndpointProtocol is the transport of a SharedEndpoint.")
		proto.Enum = []string{"TCP", "UDP", "SCTP"}
		proto.Markers = append(proto.Markers,
			mEnum+`featureGate="",enum=TCP;UDP`,
			mEnum+"featureGate="+g1.Name+",enum=TCP;UDP;SCTP")
		ep := cb.decl("SharedEndpoint", "SharedEndpoint is a network endpoint that several API groups embed.")
		cb.add(ep, "host", typeRef{Builtin: "string"}, true, "host is a DNS name or an IP address.",
			"+kubebuilder:validation:MinLength=1", "+kubebuilder:validation:MaxLength=253")
		cb.add(ep, "port", typeRef{Builtin: "int32"}, false, "port is the TCP or UDP port.",
			"+kubebuilder:validation:Minimum=1", "+kubebuilder:validation:Maximum=65535")
		cb.add(ep, "protocol", typeRef{Named: proto}, false, "protocol is the endpoint's transport.")
		cb.gatedField(ep, []*gate{g1})
		tun := cb.decl("SharedTuning", "SharedTuning holds tuning knobs shared across API groups.")
		cb.add(tun, "profile", typeRef{Builtin: "string"}, false, "profile names a tuning profile.",
			"+kubebuilder:validation:MaxLength=63")
		cb.gatedField(tun, []*gate{g2})
		cb.gatedField(tun, []*gate{g1, g2})
		common.Platform = cb.buildPlatform(ep)
		common.Shared = cb.types
		common.SharedRefs = []*typeDecl{ep, tun}
	}
}

type crdBuilder struct {
	p     *plan
	c     *crd
	pkg   string
	types []*typeDecl
	names map[string]bool
}

func newCRDBuilder(p *plan, c *crd) *crdBuilder {
	return &crdBuilder{p: p, c: c, pkg: c.GV.ImportPath()}
}

func (b *crdBuilder) decl(name, doc string) *typeDecl {
	if b.names == nil {
		b.names = map[string]bool{}
	}
	b.names[name] = true
	t := &typeDecl{Name: name, Pkg: b.pkg, Doc: append([]string{doc}, b.p.typeProse()...), Used: map[string]bool{}}
	b.types = append(b.types, t)
	return t
}

// freshName returns base with a numeric suffix if a type of that name exists.
func (b *crdBuilder) freshName(base string) string {
	name := base
	for i := 2; b.names[name]; i++ {
		name = fmt.Sprintf("%s%d", base, i)
	}
	return name
}

func (b *crdBuilder) add(t *typeDecl, json string, ref typeRef, required bool, doc string, markers ...string) *field {
	f := &field{GoName: title(json), JSON: json, Type: ref, Doc: append([]string{doc}, b.p.prose(json)...), Required: required}
	if required {
		f.Markers = append(f.Markers, mRequired)
	} else {
		f.Markers = append(f.Markers, mOptional)
	}
	f.Markers = append(f.Markers, markers...)
	t.Fields = append(t.Fields, f)
	t.Used[json] = true
	return f
}

// featureName picks an unused lower-camel feature name for a field of t.
func (b *crdBuilder) featureName(t *typeDecl, suffix string) string {
	r := b.p.r
	for i := 0; ; i++ {
		name := lowerFirst(featureAdjectives[r.IntN(len(featureAdjectives))]) + featureNouns[r.IntN(len(featureNouns))] + suffix
		if i > 50 {
			name += fmt.Sprint(i)
		}
		if !t.Used[name] {
			return name
		}
	}
}

// gatedField adds a field of a random shape to t that exists only while one
// of gates is enabled.
func (b *crdBuilder) gatedField(t *typeDecl, gates []*gate) *field {
	r := b.p.r
	var names []string
	for _, g := range gates {
		names = append(names, g.Name)
	}
	doc := fmt.Sprintf("is part of the API only while the %s feature gate is enabled.", strings.Join(names, " or the "))
	var f *field
	switch r.IntN(6) {
	case 0:
		json := b.featureName(t, "Mode")
		f = b.add(t, json, typeRef{Builtin: "string"}, false, json+" "+doc, "+kubebuilder:validation:MaxLength=253")
	case 1:
		json := b.featureName(t, "Limit")
		f = b.add(t, json, typeRef{Builtin: "int32"}, false, json+" "+doc,
			"+kubebuilder:validation:Minimum=0", "+kubebuilder:validation:Maximum=65535")
	case 2:
		json := b.featureName(t, "Enabled")
		f = b.add(t, json, typeRef{Builtin: "bool"}, false, json+" "+doc)
	case 3:
		json := b.featureName(t, "Names")
		f = b.add(t, json, typeRef{Builtin: "string", Slice: true}, false, json+" "+doc,
			mAtomic, "+kubebuilder:validation:MaxItems=16")
	case 4:
		json := b.featureName(t, "")
		nested := b.decl(b.freshName(t.Name+title(json)), t.Name+title(json)+" configures "+json+".")
		b.add(nested, "strategy", typeRef{Builtin: "string"}, false, "strategy selects how "+json+" behaves.",
			"+kubebuilder:validation:Enum=Auto;Manual")
		b.add(nested, "limit", typeRef{Builtin: "int32"}, false, "limit bounds "+json+".",
			"+kubebuilder:validation:Minimum=0")
		f = b.add(t, json, typeRef{Named: nested, Ptr: true}, false, json+" "+doc)
	default:
		json := b.featureName(t, "Labels")
		f = b.add(t, json, typeRef{Builtin: "string", Map: true}, false, json+" "+doc,
			"+kubebuilder:validation:MaxProperties=32")
	}
	var gm []string
	for _, n := range names {
		gm = append(gm, mEnable+n)
	}
	f.Markers = append(gm, f.Markers...)
	return f
}

func (b *crdBuilder) build() {
	c, r := b.c, b.p.r
	root := b.decl(c.Kind, fmt.Sprintf("%s is a synthetic cluster-scoped resource of the %s API.", c.Kind, c.GV.Group.Name))
	level := 1
	if c.GV.Version != "v1" {
		level = 4
	}
	root.Doc = append(root.Doc, "", fmt.Sprintf("Compatibility level %d: synthetic.", level))
	root.Markers = []string{
		fmt.Sprintf("+openshift:compatibility-gen:level=%d", level),
		"+kubebuilder:object:root=true",
		fmt.Sprintf("+kubebuilder:resource:path=%s,scope=Cluster", c.Plural),
		"+kubebuilder:subresource:status",
		"+openshift:api-approved.openshift.io=https://github.com/openshift/api/pull/1",
		fmt.Sprintf("+openshift:file-pattern=cvoRunLevel=0000_10,operatorName=%s,operatorOrdering=01", c.GV.Group.Operator),
	}
	if c.TypeGate != nil {
		root.Markers = append(root.Markers, mEnable+c.TypeGate.Name)
	}
	spec := b.decl(c.Kind+"Spec", c.Kind+"Spec is the desired state of the "+c.Kind+" resource.")
	status := b.decl(c.Kind+"Status", c.Kind+"Status is what the operator last observed.")
	root.Fields = []*field{
		{GoName: "TypeMeta", Type: typeRef{Builtin: "metav1.TypeMeta"}, Embedded: true, Inline: true},
		{GoName: "ObjectMeta", JSON: "metadata", Type: typeRef{Builtin: "metav1.ObjectMeta"}, Embedded: true,
			Doc: []string{"metadata is the standard object's metadata."}},
		{GoName: "Spec", JSON: "spec", Type: typeRef{Named: spec}, Required: true,
			Doc: []string{"spec holds the desired configuration."}, Markers: []string{mRequired}},
		{GoName: "Status", JSON: "status", Type: typeRef{Named: status},
			Doc: []string{"status holds what the operator last observed."}, Markers: []string{mOptional}},
	}
	list := b.decl(c.Kind+"List", c.Kind+"List is a list of "+c.Kind+".")
	list.Fields = []*field{
		{GoName: "TypeMeta", Type: typeRef{Builtin: "metav1.TypeMeta"}, Embedded: true, Inline: true},
		{GoName: "ListMeta", JSON: "metadata", Type: typeRef{Builtin: "metav1.ListMeta"}, Embedded: true, Required: true,
			Doc: []string{"metadata is the standard list's metadata."}},
		{GoName: "Items", JSON: "items", Type: typeRef{Named: root, Slice: true}, Required: true,
			Doc: []string{"items are the " + c.Kind + "s."}},
	}

	// Plain spec content every CRD has.
	b.add(spec, "displayName", typeRef{Builtin: "string"}, false, "displayName is a human-readable name.",
		"+kubebuilder:validation:MinLength=1", "+kubebuilder:validation:MaxLength=253")
	b.add(spec, "timeoutSeconds", typeRef{Builtin: "int32"}, false, "timeoutSeconds bounds every operation.",
		"+kubebuilder:validation:Minimum=1", "+kubebuilder:validation:Maximum=3600", "+kubebuilder:default=30")
	b.add(spec, "paused", typeRef{Builtin: "bool"}, false, "paused stops reconciliation.")
	logLevel := b.decl(c.Kind+"LogLevel", c.Kind+"LogLevel is the operator's verbosity.")
	logLevel.Markers = []string{"+kubebuilder:validation:Enum=Normal;Debug;Trace;TraceAll"}
	logLevel.Enum = []string{"Normal", "Debug", "Trace", "TraceAll"}
	b.add(spec, "logLevel", typeRef{Named: logLevel}, false, "logLevel is the operator's verbosity.")
	if c.Cat == catTypeGated {
		b.add(spec, "labels", typeRef{Builtin: "string", Map: true}, false, "labels are copied to every object the operator creates.",
			"+kubebuilder:validation:MaxProperties=32")
		b.addStatus(status)
		b.finish()
		return
	}
	settings := b.decl(c.Kind+"Settings", c.Kind+"Settings groups the operator's settings.")
	b.add(settings, "mode", typeRef{Builtin: "string"}, false, "mode selects automatic or manual operation.",
		"+kubebuilder:validation:Enum=Auto;Manual")
	b.add(settings, "retryLimit", typeRef{Builtin: "int32"}, false, "retryLimit bounds retries.",
		"+kubebuilder:validation:Minimum=0", "+kubebuilder:validation:Maximum=10")
	tuning := b.decl(c.Kind+"Tuning", c.Kind+"Tuning holds resource knobs.")
	b.add(tuning, "cpuShares", typeRef{Builtin: "int32"}, false, "cpuShares is the relative CPU weight.",
		"+kubebuilder:validation:Minimum=2", "+kubebuilder:validation:Maximum=262144")
	b.add(tuning, "memoryMiB", typeRef{Builtin: "int32"}, false, "memoryMiB is the memory limit in MiB.",
		"+kubebuilder:validation:Minimum=16")
	b.add(settings, "tuning", typeRef{Named: tuning, Ptr: true}, false, "tuning holds resource knobs.")
	b.add(spec, "settings", typeRef{Named: settings}, false, "settings groups the operator's settings.")
	entry := b.decl(c.Kind+"Entry", c.Kind+"Entry is one named entry.")
	b.add(entry, "name", typeRef{Builtin: "string"}, true, "name identifies the entry.",
		"+kubebuilder:validation:MinLength=1", "+kubebuilder:validation:MaxLength=63")
	b.add(entry, "value", typeRef{Builtin: "string"}, false, "value is the entry's value.",
		"+kubebuilder:validation:MaxLength=1024")
	b.add(entry, "weight", typeRef{Builtin: "int32"}, false, "weight orders entries.",
		"+kubebuilder:validation:Minimum=0", "+kubebuilder:validation:Maximum=100")
	b.add(spec, "entries", typeRef{Named: entry, Slice: true}, false, "entries are keyed by name.",
		"+listType=map", "+listMapKey=name", "+kubebuilder:validation:MaxItems=32")
	b.add(spec, "labels", typeRef{Builtin: "string", Map: true}, false, "labels are copied to every object the operator creates.",
		"+kubebuilder:validation:MaxProperties=32")
	if r.IntN(2) == 0 {
		spec.Markers = append(spec.Markers,
			`+kubebuilder:validation:XValidation:rule="!has(self.paused) || !self.paused || has(self.displayName)",message="a paused resource needs a displayName"`)
	}
	if r.IntN(5) < 2 {
		b.add(spec, "credentialsSecret", typeRef{Builtin: plainRefPk + ".SecretReference"}, false,
			"credentialsSecret holds the operator's credentials.")
	}
	if r.IntN(4) == 0 {
		b.add(spec, "targetRef", typeRef{Builtin: plainRefPk + ".ObjectReference", Ptr: true}, false,
			"targetRef points at the object this resource configures.")
	}
	if c.sharedRef {
		common := b.p.commonOf(c.GV.Group)
		b.add(spec, "endpoint", typeRef{Named: common.SharedRefs[0]}, false, "endpoint is where the operand listens.")
		if c.forceShared || r.IntN(2) == 0 {
			b.add(spec, "sharedTuning", typeRef{Named: common.SharedRefs[1], Ptr: true}, false, "sharedTuning holds tuning shared with other groups.")
		}
	}
	if c.Override != nil {
		b.add(spec, "replicas", typeRef{Builtin: "int32", Ptr: true}, false,
			"replicas is the desired number of replicas, exposed through the scale subresource.",
			"+kubebuilder:validation:Minimum=0")
	}

	b.addPlatform(spec)

	// Gated content.
	if len(c.Gates) > 0 {
		containers := []*typeDecl{spec, spec, spec, spec, spec, settings, settings, entry, entry, status}
		n := 0
		for _, g := range c.Gates {
			b.gatedField(containers[r.IntN(len(containers))], []*gate{g})
			n++
		}
		for i := 0; i < c.doubleGated; i++ {
			b.gatedField(containers[r.IntN(len(containers))], c.Gates)
			n++
		}
		for ; n < c.gatedFields; n++ {
			b.gatedField(containers[r.IntN(len(containers))], []*gate{c.Gates[r.IntN(len(c.Gates))]})
		}
		for i := 0; i < c.enums; i++ {
			b.gatedEnum(spec, settings, c.Gates[r.IntN(len(c.Gates))], i < c.ptrEnums)
		}
		if r.IntN(2) == 0 {
			g := c.Gates[r.IntN(len(c.Gates))]
			spec.Markers = append([]string{mXVal + "featureGate=" + g.Name +
				`,rule="has(oldSelf.displayName) ? has(self.displayName) : true",message="displayName cannot be removed once set"`}, spec.Markers...)
		}
		if c.requiredPair {
			a, z := c.Gates[0].Name, c.Gates[1].Name
			spec.Markers = append([]string{mXVal + "requiredFeatureGate=" + a + ";" + z +
				`,rule="!has(self.timeoutSeconds) || self.timeoutSeconds <= 600",message="timeoutSeconds must be at most 600 while both ` + a + " and " + z + ` are enabled"`},
				spec.Markers...)
		}
		if r.IntN(5) < 2 {
			g := c.Gates[r.IntN(len(c.Gates))]
			b.add(spec, "allowedNames", typeRef{Builtin: "string", Slice: true}, false,
				"allowedNames limits the names the operator accepts; the limit grows with the "+g.Name+" feature gate.",
				mAtomic, mMaxItems+`featureGate="",maxItems=8`, mMaxItems+"featureGate="+g.Name+",maxItems=32")
		}
	}
	b.addStatus(status)
	b.finish()
}

// gatedEnum declares a named string type whose allowed values grow with g
// and adds a field of that type to spec or settings.
func (b *crdBuilder) gatedEnum(spec, settings *typeDecl, g *gate, ptr bool) {
	r := b.p.r
	host := spec
	if r.IntN(3) == 0 {
		host = settings
	}
	json := b.featureName(host, "Policy")
	name := b.freshName(b.c.Kind + title(json))
	t := b.decl(name, name+" selects how "+json+" behaves.")
	perm := r.Perm(len(enumWords))
	t.Enum = []string{enumWords[perm[0]], enumWords[perm[1]], enumWords[perm[2]]}
	t.Markers = []string{
		mEnum + `featureGate="",enum=` + t.Enum[0] + ";" + t.Enum[1],
		mEnum + "featureGate=" + g.Name + ",enum=" + strings.Join(t.Enum, ";"),
	}
	doc := json + " selects how " + json + " behaves; " + t.Enum[2] + " needs the " + g.Name + " feature gate."
	b.add(host, json, typeRef{Named: t, Ptr: ptr}, false, doc)
}

func (b *crdBuilder) addStatus(status *typeDecl) {
	b.add(status, "conditions", typeRef{Builtin: "metav1.Condition", Slice: true}, false,
		"conditions describe the state of the resource.", "+listType=map", "+listMapKey=type")
	b.add(status, "observedGeneration", typeRef{Builtin: "int64"}, false,
		"observedGeneration is the generation the status describes.", "+kubebuilder:validation:Minimum=0")
	if b.c.Override != nil {
		b.add(status, "readyReplicas", typeRef{Builtin: "int32"}, false, "readyReplicas is the number of ready replicas.")
	}
}

func (b *crdBuilder) finish() {
	b.c.Types = b.types
}

// gateRefs returns the gate entries that marker lines contribute:
// enable values, each featureGate name, and requiredFeatureGate lists joined
// with "+".
func gateRefs(markers []string) []string {
	var out []string
	for _, m := range markers {
		if v, ok := strings.CutPrefix(m, mEnable); ok {
			out = append(out, v)
			continue
		}
		var args string
		for _, p := range []string{mEnum, mXVal, mMaxItems} {
			if a, ok := strings.CutPrefix(m, p); ok {
				args = a
			}
		}
		if args == "" {
			continue
		}
		for _, arg := range []string{"featureGate=", "requiredFeatureGate="} {
			i := strings.Index(args, arg)
			if i < 0 || (i > 0 && args[i-1] != ',') {
				continue
			}
			v := args[i+len(arg):]
			if j := strings.IndexByte(v, ','); j >= 0 {
				v = v[:j]
			}
			if v == `""` {
				continue
			}
			if arg == "requiredFeatureGate=" {
				out = append(out, strings.ReplaceAll(v, ";", "+"))
				continue
			}
			out = append(out, strings.Split(v, ";")...)
		}
	}
	return out
}
