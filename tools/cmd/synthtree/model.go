package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/gatedcrd/gatedcrd/features/featuregate"
)

// targets are the sizes the generator aims for. At --groups 25 they match a
// large real API repository; smaller trees scale every count down.
type targets struct {
	Groups        int
	GroupVersions int
	CRDs          int
	TypeGated     int
	Gates         int
	GatedFields   int
	DoubleGated   int
	Enums         int
	RequiredPairs int
	Overrides     int
	ProfileOnly   int // overrides restricted to SelfManagedHA
}

// referenceGroups is the group count the default targets are written for.
const referenceGroups = 25

// blockSize is how many consecutive groups share one common API package.
const blockSize = 5

func targetsFor(groups int) targets {
	scale := func(n int) int {
		return int(math.Round(float64(n) * float64(groups) / referenceGroups))
	}
	atLeast1 := func(n int) int { return max(1, scale(n)) }
	t := targets{
		Groups:        groups,
		CRDs:          max(scale(120), groups),
		TypeGated:     atLeast1(6),
		Gates:         scale(120),
		GatedFields:   scale(200),
		DoubleGated:   atLeast1(20),
		Enums:         scale(40),
		RequiredPairs: atLeast1(15),
		Overrides:     atLeast1(8),
		ProfileOnly:   atLeast1(2),
	}
	for i := 0; i < groups; i++ {
		t.GroupVersions += len(versionsOf(i))
	}
	return t
}

// versionsOf returns the API versions of the i-th group: two in every block
// of five groups have a second, pre-release version.
func versionsOf(i int) []string {
	switch i % blockSize {
	case 1:
		return []string{"v1", "v1alpha1"}
	case 3:
		return []string{"v1", "v1beta1"}
	}
	return []string{"v1"}
}

// category decides which kind of gates a CRD uses, and with that how many
// merged manifests stage 3 writes for it.
type category int

const (
	catUngated   category = iota // no gate at all: one file
	catTypeGated                 // gated as a whole by a preview gate
	catPreview                   // TechPreview/DevPreview gates: a file per feature set
	catGA                        // gates enabled everywhere: one file
	catGA7                       // gates that reach Default in major version 7: version-split files
	catProfile                   // preview gates on one ClusterProfile only: profile-split files
	catPreview6                  // preview gates from major version 6 on
)

// categoryShare is each gated category's share of the 120 CRDs at the
// reference size; ungated CRDs take the rest.
var categoryShare = []struct {
	cat category
	n   int
}{
	{catPreview, 46}, {catGA, 8}, {catGA7, 8}, {catProfile, 4}, {catPreview6, 4},
}

// gateClass is how a gate is enabled across the payload dimensions.
type gateClass int

const (
	classTechPreview gateClass = iota // TechPreviewNoUpgrade and DevPreviewNoUpgrade
	classDevPreview                   // DevPreviewNoUpgrade only
	classGA                           // every fixed feature set
	classGA7                          // previews always, Default and OKD from major version 7
	classPreview6                     // previews from major version 6
	classProfile                      // previews on one ClusterProfile
)

type gate struct {
	Name    string
	Class   gateClass
	Profile featuregate.ClusterProfileName // classProfile only
	PR      int
	Owner   string
}

type group struct {
	Index    int
	Word     string // directory name
	Name     string // API group
	Operator string
	Versions []*groupVersion
	Block    int
}

type groupVersion struct {
	Group   *group
	Version string
	CRDs    []*crd
	// Shared holds the exported types other groups of the block import
	// (only set on a block's common package).
	Shared     []*typeDecl
	SharedRefs []*typeDecl // the struct types CRDs reference
	Platform   *typeDecl   // the deep shared struct (common package only)
}

func (gv *groupVersion) Dir() string        { return gv.Group.Word + "/" + gv.Version }
func (gv *groupVersion) ImportPath() string { return modulePath + "/" + gv.Dir() }
func (gv *groupVersion) Alias() string      { return gv.Group.Word + gv.Version }
func (gv *groupVersion) String() string     { return gv.Group.Name + "/" + gv.Version }

type crd struct {
	GV       *groupVersion
	Kind     string
	Plural   string
	Cat      category
	TypeGate *gate
	Gates    []*gate // own gates (not type-gated)
	Profile  featuregate.ClusterProfileName
	Types    []*typeDecl // Types[0] is the root type
	Override *override
	// planned content
	gatedFields  int
	doubleGated  int
	enums        int
	ptrEnums     int
	requiredPair bool
	sharedRef    bool
	forceShared  bool
	aggregate    bool // embeds its package's other CRDs (irregular.go)
}

func (c *crd) Name() string { return c.Plural + "." + c.GV.Group.Name }

type override struct {
	FileName    string
	ProfileOnly bool
}

// typeDecl is one Go type declaration.
type typeDecl struct {
	Name    string
	Pkg     string // import path of the declaring package
	Doc     []string
	Markers []string
	Fields  []*field // struct types
	Enum    []string // named string types: the constants
	Used    map[string]bool
}

type field struct {
	GoName   string
	JSON     string
	Type     typeRef
	Doc      []string
	Markers  []string
	Required bool
	Inline   bool // embedded with json ",inline"
	Embedded bool
}

// typeRef is a field type: a builtin (or apimachinery) type, a declared
// type, or a pointer, slice or map around one.
type typeRef struct {
	Builtin string // e.g. "string", "metav1.Condition"
	Named   *typeDecl
	Ptr     bool
	Slice   bool
	Map     bool // map[string]<elem>
}

// plan is the whole synthetic tree before rendering.
type plan struct {
	Seed    uint64
	Targets targets
	Groups  []*group
	GVs     []*groupVersion
	CRDs    []*crd
	Gates   []*gate
	Shared  []*typeDecl // the plain (non-API) shared types package
	r       *rand.Rand
	ir      *rand.Rand // the irregular part (irregular.go)
	gateSet map[string]bool
	nextPR  int
}

const modulePath = "synthetic.example/api"
const sharedTypesPath = modulePath + "/shared/types"

var groupWords = []string{
	"apps", "audit", "backup", "build", "certs", "cloud", "cluster", "console", "dns", "edge",
	"events", "image", "ingress", "insights", "machine", "metrics", "network", "node", "oauth",
	"policy", "quota", "route", "security", "storage", "tuning",
}

var kindNouns = []string{
	"Config", "Controller", "Profile", "Pool", "Route", "Backend", "Binding", "Template",
	"Gateway", "Endpoint", "Handler", "Monitor", "Rule", "Snapshot", "Target", "Tunnel",
	"Volume", "Worker", "Zone", "Agent", "Bucket", "Channel", "Domain", "Filter",
}

var featureAdjectives = []string{
	"Dual", "Async", "Secure", "Dynamic", "Shared", "External", "Multi", "Zonal", "Tiered",
	"Adaptive", "Strict", "Managed", "Remote", "Native", "Parallel", "Weighted",
}

var featureNouns = []string{
	"Routing", "Scaling", "Pools", "Backends", "Snapshots", "Policies", "Endpoints", "Caching",
	"Metrics", "Tunnels", "Quotas", "Probes", "Rollouts", "Failover",
}

func title(s string) string { return strings.ToUpper(s[:1]) + s[1:] }
func lowerFirst(s string) string {
	return strings.ToLower(s[:1]) + s[1:]
}

// newPlan lays out the tree. Everything random comes from one generator
// seeded with seed, consumed in a fixed order, so a seed always gives the
// same tree.
func newPlan(seed uint64, groups int) (*plan, error) {
	if groups < 1 {
		return nil, fmt.Errorf("--groups must be at least 1")
	}
	p := &plan{
		Seed:    seed,
		Targets: targetsFor(groups),
		r:       rand.New(rand.NewPCG(seed, seed^0x5eed5eed5eed5eed)),
		ir:      rand.New(rand.NewPCG(seed, seed^0x1a2b3c4d5e6f7081)),
		gateSet: map[string]bool{},
		nextPR:  1000,
	}
	p.layoutGroups()
	p.layoutCRDs()
	if err := p.assignCategories(); err != nil {
		return nil, err
	}
	if err := p.assignGates(); err != nil {
		return nil, err
	}
	if err := p.distributeContent(); err != nil {
		return nil, err
	}
	p.buildShared()
	p.chooseAggregates()
	for _, c := range p.CRDs {
		newCRDBuilder(p, c).build()
	}
	for _, c := range p.CRDs {
		if c.aggregate {
			p.addAggregate(c)
		}
	}
	return p, nil
}

func (p *plan) layoutGroups() {
	for i := 0; i < p.Targets.Groups; i++ {
		word := groupWords[i%len(groupWords)]
		if i >= len(groupWords) {
			word += fmt.Sprint(i/len(groupWords) + 1)
		}
		g := &group{
			Index:    i,
			Word:     word,
			Name:     word + ".synthetic.openshift.io",
			Operator: word + "-operator",
			Block:    i / blockSize,
		}
		for _, v := range versionsOf(i) {
			gv := &groupVersion{Group: g, Version: v}
			g.Versions = append(g.Versions, gv)
			p.GVs = append(p.GVs, gv)
		}
		p.Groups = append(p.Groups, g)
	}
}

// commonOf returns the block's common package: the v1 of its first group.
func (p *plan) commonOf(g *group) *groupVersion {
	return p.Groups[g.Block*blockSize].Versions[0]
}

func (p *plan) blocks() int { return (len(p.Groups) + blockSize - 1) / blockSize }

func (p *plan) layoutCRDs() {
	n := len(p.GVs)
	counts := make([]int, n)
	for i := range counts {
		counts[i] = p.Targets.CRDs / n
	}
	extra := p.r.Perm(n)
	for i := 0; i < p.Targets.CRDs%n; i++ {
		counts[extra[i]]++
	}
	for i, gv := range p.GVs {
		nouns := slices.Clone(kindNouns)
		p.r.Shuffle(len(nouns), func(a, b int) { nouns[a], nouns[b] = nouns[b], nouns[a] })
		used := map[string]bool{}
		for _, other := range gv.Group.Versions {
			for _, c := range other.CRDs {
				used[c.Kind] = true
			}
		}
		for k := 0; len(gv.CRDs) < counts[i]; k++ {
			kind := title(gv.Group.Word) + nouns[k%len(nouns)]
			if k >= len(nouns) {
				kind += fmt.Sprint(k/len(nouns) + 1)
			}
			if used[kind] {
				continue
			}
			used[kind] = true
			c := &crd{GV: gv, Kind: kind, Plural: strings.ToLower(kind) + "s"}
			gv.CRDs = append(gv.CRDs, c)
			p.CRDs = append(p.CRDs, c)
		}
	}
}

func (p *plan) shuffled(cs []*crd) []*crd {
	out := slices.Clone(cs)
	p.r.Shuffle(len(out), func(a, b int) { out[a], out[b] = out[b], out[a] })
	return out
}

func (p *plan) assignCategories() error {
	t := p.Targets
	// Type-gated CRDs live in pre-release versions where there are any.
	var pre, rest []*crd
	for _, c := range p.shuffled(p.CRDs) {
		if c.GV.Version != "v1" {
			pre = append(pre, c)
		} else {
			rest = append(rest, c)
		}
	}
	order := append(pre, rest...)
	if t.TypeGated > len(order) {
		return fmt.Errorf("%d CRDs cannot hold %d type-gated ones", len(order), t.TypeGated)
	}
	for _, c := range order[:t.TypeGated] {
		c.Cat = catTypeGated
	}
	remaining := p.shuffled(order[t.TypeGated:])
	var cats []category
	for _, s := range categoryShare {
		n := int(math.Round(float64(s.n) * float64(t.Groups) / referenceGroups))
		if s.cat == catPreview {
			n = max(n, 1)
		}
		for range n {
			cats = append(cats, s.cat)
		}
	}
	if len(cats) > len(remaining) {
		cats = cats[:len(remaining)]
	}
	for i, c := range remaining {
		if i < len(cats) {
			c.Cat = cats[i]
		} else {
			c.Cat = catUngated
		}
	}
	// Every block needs a preview CRD to reference its common package's
	// gated shared types; swap categories to get one where it is missing.
	for b := 0; b < p.blocks(); b++ {
		if len(p.blockCRDs(b, catPreview)) > 0 {
			continue
		}
		var donor *crd
		for _, c := range p.CRDs {
			if c.Cat == catPreview && len(p.blockCRDs(p.blockOf(c), catPreview)) > 1 {
				donor = c
				break
			}
		}
		var taker *crd
		for _, c := range p.blockCRDs(b, -1) {
			if c.Cat != catTypeGated {
				taker = c
				break
			}
		}
		if donor == nil || taker == nil {
			continue
		}
		donor.Cat, taker.Cat = taker.Cat, donor.Cat
	}
	for _, c := range p.CRDs {
		if c.Cat == catProfile {
			c.Profile = []featuregate.ClusterProfileName{featuregate.Hypershift, featuregate.SelfManagedHA}[p.r.IntN(2)]
		}
	}
	return nil
}

func (p *plan) blockOf(c *crd) int { return c.GV.Group.Block }

// blockCRDs returns the CRDs of block b in plan order, only those of
// category cat unless cat is negative.
func (p *plan) blockCRDs(b int, cat category) []*crd {
	var out []*crd
	for _, c := range p.CRDs {
		if p.blockOf(c) == b && (cat < 0 || c.Cat == cat) {
			out = append(out, c)
		}
	}
	return out
}

func (p *plan) newGate(word string, class gateClass, profile featuregate.ClusterProfileName) *gate {
	base := title(word)
	for {
		name := base + featureAdjectives[p.r.IntN(len(featureAdjectives))] + featureNouns[p.r.IntN(len(featureNouns))]
		if p.gateSet[name] {
			continue
		}
		p.gateSet[name] = true
		p.nextPR++
		g := &gate{Name: name, Class: class, Profile: profile, PR: p.nextPR, Owner: word + "-operator"}
		p.Gates = append(p.Gates, g)
		return g
	}
}

func (p *plan) classFor(c *crd) gateClass {
	switch c.Cat {
	case catGA:
		return classGA
	case catGA7:
		return classGA7
	case catProfile:
		return classProfile
	case catPreview6:
		return classPreview6
	}
	if p.r.IntN(4) == 0 {
		return classDevPreview
	}
	return classTechPreview
}

// assignGates declares every gate: one per type-gated CRD, two per block for
// the common package's shared types, and one or two per gated CRD.
func (p *plan) assignGates() error {
	t := p.Targets
	for _, c := range p.CRDs {
		if c.Cat == catTypeGated {
			c.TypeGate = p.newGate(c.GV.Group.Word, classTechPreview, "")
		}
	}
	for b := 0; b < p.blocks(); b++ {
		common := p.Groups[b*blockSize].Versions[0]
		p.newGate(common.Group.Word, classTechPreview, "")
		p.newGate(common.Group.Word, classTechPreview, "")
	}
	var gated []*crd
	for _, c := range p.CRDs {
		if c.Cat != catUngated && c.Cat != catTypeGated {
			gated = append(gated, c)
		}
	}
	own := t.Gates - t.TypeGated - 2*p.blocks()
	if own < len(gated) {
		return fmt.Errorf("%d gates are too few for %d gated CRDs", t.Gates, len(gated))
	}
	if own > 2*len(gated) {
		return fmt.Errorf("%d gates are too many for %d gated CRDs", t.Gates, len(gated))
	}
	second := map[*crd]bool{}
	for _, c := range p.shuffled(gated)[:own-len(gated)] {
		second[c] = true
	}
	for _, c := range gated {
		n := 1
		if second[c] {
			n = 2
		}
		for range n {
			c.Gates = append(c.Gates, p.newGate(c.GV.Group.Word, p.classFor(c), c.Profile))
		}
	}
	return nil
}

// sharedGatesOf returns the two gates declared for block b's shared types.
func (p *plan) sharedGatesOf(b int) (*gate, *gate) {
	i := p.Targets.TypeGated + 2*b
	return p.Gates[i], p.Gates[i+1]
}

// sharedFieldsPerBlock: each block's shared types hold one field per shared
// gate and one field behind both.
const sharedFieldsPerBlock = 3

func (p *plan) distributeContent() error {
	t := p.Targets
	var gated, twoGates []*crd
	for _, c := range p.CRDs {
		if len(c.Gates) > 0 {
			gated = append(gated, c)
			c.gatedFields = len(c.Gates)
		}
		if len(c.Gates) == 2 {
			twoGates = append(twoGates, c)
		}
	}
	fields := t.GatedFields - sharedFieldsPerBlock*p.blocks() - (t.Gates - t.TypeGated - 2*p.blocks())
	double := t.DoubleGated - p.blocks()
	if fields < 0 || double < 0 {
		return fmt.Errorf("%d gated fields are too few for %d gates", t.GatedFields, t.Gates)
	}
	if len(twoGates) == 0 {
		double = 0 // tiny trees: no CRD has two gates
	}
	for i := 0; i < double && fields > 0; i++ {
		c := twoGates[p.r.IntN(len(twoGates))]
		c.doubleGated++
		c.gatedFields++
		fields--
	}
	for ; fields > 0; fields-- {
		gated[p.r.IntN(len(gated))].gatedFields++
	}
	enums := t.Enums - p.blocks()
	for i := 0; i < enums; i++ {
		c := gated[p.r.IntN(len(gated))]
		c.enums++
		if p.r.IntN(5) < 2 {
			c.ptrEnums++
		}
	}
	for _, c := range p.shuffled(twoGates)[:min(t.RequiredPairs, len(twoGates))] {
		c.requiredPair = true
	}
	for b := 0; b < p.blocks(); b++ {
		for i, c := range p.blockCRDs(b, catPreview) {
			c.sharedRef = i == 0 || p.r.IntN(5) < 3
			c.forceShared = i == 0
		}
	}
	var candidates []*crd
	for _, c := range p.CRDs {
		if c.Cat != catTypeGated {
			candidates = append(candidates, c)
		}
	}
	candidates = p.shuffled(candidates)
	if t.Overrides > len(candidates) {
		return fmt.Errorf("%d overrides for %d CRDs", t.Overrides, len(candidates))
	}
	for i, c := range candidates[:t.Overrides] {
		if i < t.ProfileOnly {
			c.Override = &override{FileName: "SelfManagedHA.yaml", ProfileOnly: true}
		} else {
			c.Override = &override{FileName: "AAA_ungated.yaml"}
		}
	}
	return nil
}
