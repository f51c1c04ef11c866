package schemapatch

import (
	"go/ast"
	"go/types"
	"sort"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/loader"
	"sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/gatedcrd/gatedcrd/tools/pkg/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/goload"
	"github.com/gatedcrd/gatedcrd/tools/pkg/markerdefs"
	"github.com/gatedcrd/gatedcrd/tools/pkg/markerpos"
)

const metav1Path = "k8s.io/apimachinery/pkg/apis/meta/v1"

// generation produces schemas for one gate set. It owns a fresh crd.Parser
// (the parser caches schemas, so parsers are never shared between gate sets)
// built on the run's shared Collector and TypeChecker.
//
// Every package the parser indexes goes through one of the parser's
// PackageOverrides, each wrapped so that, right after indexing, the parser's
// TypeInfo entries of that package are replaced by this gate set's view of
// them (see view). The gate set lives only in this value and in the closures
// of its overrides.
type generation struct {
	gates  markerdefs.GateSet
	parser *crd.Parser
	univ   *universe
	// indexed lists the packages the parser indexed, in indexing order.
	indexed []*loader.Package
	// schemas caches the schema of each kind type, ready to be written.
	schemas map[crd.TypeIdent]*kindSchema
	// generated counts the kind schemas this generation built.
	generated int
	// markerErrors is set when a marker problem was found while building the
	// views of this generation.
	markerErrors bool
	// hasFailed caches failed(), computed by settle.
	hasFailed, settled bool
}

// kindSchema is the generated schema of one kind type in one gate set.
type kindSchema struct {
	schema map[string]any
}

// universe is what Run derives once from the loaded packages and shares
// between generations.
type universe struct {
	goload *goload.Universe
	// closure is every package reachable from the roots, sorted by path.
	closure []*loader.Package
	// typeNames caches the names of the types declared in a package.
	typeNames map[*loader.Package][]string
	problems  *problemSink
	// enumFromConstants is Input.EnumFromConstants: +enum sets enum:.
	enumFromConstants bool
	// enums caches the values of +enum types; deps caches dependsOn.
	enums map[types.Object]enumResult
	deps  map[[2]*loader.Package]bool
}

func newUniverse(u *goload.Universe, sink *problemSink) *universe {
	seen := map[*loader.Package]bool{}
	var closure []*loader.Package
	var visit func(p *loader.Package)
	visit = func(p *loader.Package) {
		if p == nil || seen[p] {
			return
		}
		seen[p] = true
		closure = append(closure, p)
		imps := p.Imports()
		paths := make([]string, 0, len(imps))
		for path := range imps {
			paths = append(paths, path)
		}
		sort.Strings(paths)
		for _, path := range paths {
			visit(imps[path])
		}
	}
	for _, r := range u.Roots {
		visit(r)
	}
	sort.SliceStable(closure, func(i, j int) bool { return closure[i].PkgPath < closure[j].PkgPath })
	return &universe{goload: u, closure: closure, typeNames: map[*loader.Package][]string{}, problems: sink,
		enums: map[types.Object]enumResult{}, deps: map[[2]*loader.Package]bool{}}
}

func (u *universe) namesOf(pkg *loader.Package) []string {
	if names, ok := u.typeNames[pkg]; ok {
		return names
	}
	var names []string
	loader.EachType(pkg, func(_ *ast.File, _ *ast.GenDecl, spec *ast.TypeSpec) {
		names = append(names, spec.Name.Name)
	})
	u.typeNames[pkg] = names
	return names
}

func addPackage(p *crd.Parser, pkg *loader.Package) { p.AddPackage(pkg) }

func newGeneration(u *universe, gates markerdefs.GateSet) *generation {
	g := &generation{gates: gates, univ: u, schemas: map[crd.TypeIdent]*kindSchema{}}
	p := &crd.Parser{Collector: u.goload.Collector, Checker: u.goload.Checker}
	crd.AddKnownTypes(p)
	inner := make(map[string]crd.PackageOverride, len(p.PackageOverrides)+len(u.closure))
	for path, override := range p.PackageOverrides {
		inner[path] = override
	}
	for _, pkg := range u.closure {
		path := loader.NonVendorPath(pkg.PkgPath)
		if _, ok := inner[path]; !ok {
			inner[path] = addPackage
		}
	}
	for path, override := range inner {
		p.PackageOverrides[path] = g.wrap(override)
	}
	g.parser = p
	return g
}

// wrap returns an override that runs override and then puts this gate set's
// view of the package's types in place, before any schema can use them.
func (g *generation) wrap(override crd.PackageOverride) crd.PackageOverride {
	return func(p *crd.Parser, pkg *loader.Package) {
		override(p, pkg)
		g.indexed = append(g.indexed, pkg)
		for _, name := range g.univ.namesOf(pkg) {
			id := crd.TypeIdent{Package: pkg, Name: name}
			if info := p.Types[id]; info != nil {
				p.Types[id] = g.view(pkg, info)
			}
		}
	}
}

// view returns a copy of info as the gate set sees it: fields gated off are
// gone (so they are in neither properties nor required), and
// FeatureGate-aware marker values of the type and of its fields are bound or
// dropped. info itself, its Fields slice and every MarkerValues map belong to
// the shared collector and are never modified.
func (g *generation) view(pkg *loader.Package, info *markers.TypeInfo) *markers.TypeInfo {
	out := *info
	typeMarkers, problems := g.bindEnum(pkg, info, info.Markers)
	g.report(pkg, markerpos.Type(info), problems)
	typeMarkers, problems = bindMarkers(typeMarkers, g.gates, g.reporter(pkg, markerpos.Type(info)))
	out.Markers = typeMarkers
	g.report(pkg, markerpos.Type(info), problems)
	if info.Fields != nil {
		out.Fields = make([]markers.FieldInfo, 0, len(info.Fields))
		for _, f := range info.Fields {
			included, problems := fieldIncluded(f.Markers, g.gates)
			g.report(pkg, markerpos.Field(f), problems)
			if !included {
				continue
			}
			g.report(pkg, markerpos.Field(f), g.fieldEnumProblems(f.Markers))
			fieldMarkers, problems := bindMarkers(withoutFieldEnum(f.Markers), g.gates, g.reporter(pkg, markerpos.Field(f)))
			g.report(pkg, markerpos.Field(f), problems)
			f.Markers = fieldMarkers
			out.Fields = append(out.Fields, f)
		}
	}
	return &out
}

// kindType finds the kind named kind among pkgs (in order) whose
// controller-tools group-version has the given group. It returns, per
// version, the type to generate. Ambiguities are reported by the caller.
func (g *generation) kindTypes(pkgs []*loader.Package, group, kind string) map[string][]crd.TypeIdent {
	out := map[string][]crd.TypeIdent{}
	for _, pkg := range pkgs {
		g.parser.NeedPackage(pkg)
		gv, ok := g.parser.GroupVersions[pkg]
		if !ok || gv.Group != group {
			continue
		}
		id := crd.TypeIdent{Package: pkg, Name: kind}
		info := g.parser.Types[id]
		if info == nil || !isKind(pkg, info) {
			continue
		}
		out[gv.Version] = append(out[gv.Version], id)
	}
	return out
}

// isKind reports whether info is a struct embedding both metav1.TypeMeta and
// metav1.ObjectMeta (by value), which is what makes a Go type a Kubernetes
// kind for controller-tools.
func isKind(pkg *loader.Package, info *markers.TypeInfo) bool {
	pkg.NeedTypesInfo()
	if pkg.TypesInfo == nil {
		return false
	}
	var typeMeta, objectMeta bool
	for _, f := range info.Fields {
		if f.Name != "" || f.RawField == nil {
			continue
		}
		named, ok := pkg.TypesInfo.TypeOf(f.RawField.Type).(*types.Named)
		if !ok || named.Obj().Pkg() == nil || loader.NonVendorPath(named.Obj().Pkg().Path()) != metav1Path {
			continue
		}
		switch named.Obj().Name() {
		case "TypeMeta":
			typeMeta = true
		case "ObjectMeta":
			objectMeta = true
		}
	}
	return typeMeta && objectMeta
}

// reporter returns the function bound markers of node call when they cannot
// be applied: the problem is reported at the marker's line and fails this
// generation.
func (g *generation) reporter(pkg *loader.Package, node ast.Node) reportFunc {
	return func(name string, index int, err error) {
		g.report(pkg, node, []markerProblem{{name: name, index: index, err: err}})
	}
}

func (g *generation) report(pkg *loader.Package, node ast.Node, problems []markerProblem) {
	if len(problems) == 0 {
		return
	}
	g.markerErrors = true
	g.univ.problems.markerProblems(pkg, node, problems)
}

// schemaFor returns the schema of the kind type id, generating it on first
// use: the flattened schema with properties.metadata reduced to
// {type: object}, as a generic map ready for serialisation. It returns nil
// when the schema cannot be converted (reported).
func (g *generation) schemaFor(id crd.TypeIdent) *kindSchema {
	if s, ok := g.schemas[id]; ok {
		return s
	}
	g.parser.NeedFlattenedSchemaFor(id)
	flat := g.parser.FlattenedSchemata[id]
	schema := flat.DeepCopy()
	if _, ok := schema.Properties["metadata"]; ok {
		schema.Properties["metadata"] = apiextensionsv1.JSONSchemaProps{Type: "object"}
	}
	m, err := schemaToMap(schema)
	if err != nil {
		g.univ.problems.add(diag.Errorf("", 0, id.String(), "cannot convert the generated schema: %v", err))
		g.markerErrors = true
		return nil
	}
	s := &kindSchema{schema: m}
	g.schemas[id] = s
	g.generated++
	return s
}

// release drops the parser once every manifest of the gate set has its
// schemas: its types, views and schemas of every indexed package would
// otherwise stay live until the last generation is written, for each of
// the run's gate sets. What write needs (indexed, markerErrors, the
// kindSchema maps the manifests point at) stays.
func (g *generation) release() {
	g.parser = nil
	g.schemas = nil
}

// settle decides, once every generation ran, whether anything this
// generation depends on reported an error: a marker problem found in its
// views or while applying its markers, or an error recorded on a package it
// indexed (controller-tools records marker syntax errors and schema errors
// there, including those found by other generations, so the decision does
// not depend on the order of generations).
func (g *generation) settle() {
	g.settled = true
	g.hasFailed = g.markerErrors
	for _, pkg := range g.indexed {
		if len(goload.ReportableErrors(pkg)) > 0 {
			g.hasFailed = true
		}
	}
}

// failed reports the decision of settle.
func (g *generation) failed() bool {
	if !g.settled {
		g.settle()
	}
	return g.hasFailed
}
