package schemapatch

import (
	"errors"
	"go/ast"
	"go/types"
	"maps"
	"slices"
	"sort"
	"sync"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/loader"
	"sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/gatedcrd/gatedcrd/internal/diag"
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
	// flattener flattens the references of the parser's schemas, as the
	// parser's own would in NeedFlattenedSchemaFor (see converter).
	flattener *crd.Flattener
	univ      *universe
	// indexed lists the packages the parser indexed, in indexing order.
	indexed []*loader.Package
	// schemas caches the schema of each kind type, ready to be written.
	schemas map[crd.TypeIdent]*kindSchema
	// own are the views of gate-dependent types this generation built,
	// for share to offer with their schemas.
	own map[crd.TypeIdent]*ownView
	// generated counts the kind schemas this generation built.
	generated int
	// markerErrors is set when a marker problem was found while building the
	// views of this generation.
	markerErrors bool
	// hasFailed caches failed(), computed by settle.
	hasFailed, settled bool
}

// kindSchema is the generated schema of one kind type in one gate set.
// The converter fills it in; read it only after the converter's wait.
type kindSchema struct {
	id     crd.TypeIdent
	schema map[string]any
	// err is set when the schema cannot be converted.
	err error
	// embedErrors are the errors folding the embedded fields reported,
	// for converter.wait to add to the package.
	embedErrors []error
}

// universe is what Run derives once from the loaded packages and shares
// between generations.
type universe struct {
	goload *goload.Universe
	// closure is every package reachable from the roots, sorted by path.
	closure  []*loader.Package
	problems *problemSink
	// enumFromConstants is Input.EnumFromConstants: +enum sets enum:.
	enumFromConstants bool
	// legacyEnums is set in the pre-version eras: a field's and its
	// type's enums are hoisted into allOf (see legacyenum.go).
	legacyEnums bool
	// enums caches the values of +enum types; deps caches dependsOn.
	enums map[types.Object]enumResult
	deps  map[[2]*loader.Package]bool
	// indexer indexes each package once for every generation (see index).
	indexer *crd.Parser
	indexes map[*loader.Package]*pkgIndex
	// cache keeps indexes from run to run (Input.Indexes), or is nil.
	cache *IndexCache
	// collected holds the packages whose markers prefetchMarkers collects
	// (markersOf); it is not modified once that started.
	collected map[*loader.Package]*sync.Once
	types     map[crd.TypeIdent]*indexedType
	// converter converts the generated schemas to maps.
	converter *converter
	// views counts the views of types built (Result.Views).
	views int
}

// packageIndex is what controller-tools' indexing of one package yields:
// its group-version (when it has one) and the TypeInfo of each of its
// types, in declaration order. The TypeInfos are shared by every
// generation, and by the runs an IndexCache keeps the index for, and never
// modified (generations put views of them in their parsers).
type packageIndex struct {
	gv    schema.GroupVersion
	hasGV bool
	infos []*markers.TypeInfo
	// schemata are the fixed schemas of known types (crd.KnownPackages),
	// shared by every generation: controller-tools only reads them (the
	// flattener deep-copies what it edits).
	schemata map[crd.TypeIdent]apiextensionsv1.JSONSchemaProps
	// syntax is the package's syntax the index was made from
	// (IndexCache); failed is set when indexing recorded errors on it.
	syntax goload.Syntax
	failed bool
	// seq and schemaSource are those of the last run that used the index
	// (pkgIndex), for the next one's prefetchMarkers.
	seq          int
	schemaSource bool
}

// pkgIndex is a run's index of one package: the package's indexing, and
// the run's state of each of its types (what generations share).
type pkgIndex struct {
	*packageIndex
	types []*indexedType
	// seq is the package's place in the order the run indexed packages;
	// schemaSource is set once a generation built the schema of one of its
	// types (see prefetchMarkers).
	seq          int
	schemaSource bool
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
	return &universe{goload: u, closure: closure, problems: sink,
		enums: map[types.Object]enumResult{}, deps: map[[2]*loader.Package]bool{},
		indexer: newIndexer(u), indexes: map[*loader.Package]*pkgIndex{},
		types: map[crd.TypeIdent]*indexedType{}, converter: newConverter()}
}

func newIndexer(u *goload.Universe) *crd.Parser {
	p := &crd.Parser{Collector: u.Collector, Checker: u.Checker}
	crd.AddKnownTypes(p)
	return p
}

// index returns the run's index of pkg, made once per run: from the
// cache's indexing of pkg when it has one for the package's present
// syntax, else from indexPackage.
func (u *universe) index(pkg *loader.Package) *pkgIndex {
	if ix, ok := u.indexes[pkg]; ok {
		return ix
	}
	u.markersOf(pkg)
	raw, ok := u.cache.Get(pkg)
	if !ok {
		raw = u.indexPackage(pkg)
	}
	ix := &pkgIndex{packageIndex: raw, seq: len(u.indexes)}
	for _, info := range raw.infos {
		t := newIndexedType(info)
		ix.types = append(ix.types, t)
		u.types[crd.TypeIdent{Package: pkg, Name: info.Name}] = t
	}
	u.indexes[pkg] = ix
	return ix
}

// indexPackage indexes pkg with the universe's own parser, which has the
// known-type overrides of crd.AddKnownTypes: upstream's NeedPackage
// (marker collection and doc extraction for every type, the costly part;
// fixed schemas for known types), whose results every generation copies
// instead of indexing the package again. Errors found while indexing are
// recorded on the package once, as the first generation would have. The
// indexer never generates a schema, so the schemas it holds for pkg are
// those its override put there.
func (u *universe) indexPackage(pkg *loader.Package) *packageIndex {
	errs := len(pkg.Errors)
	u.indexer.NeedPackage(pkg)
	ix := &packageIndex{schemata: map[crd.TypeIdent]apiextensionsv1.JSONSchemaProps{},
		syntax: goload.SyntaxOf(pkg), failed: len(pkg.Errors) > errs}
	ix.gv, ix.hasGV = u.indexer.GroupVersions[pkg]
	loader.EachType(pkg, func(_ *ast.File, _ *ast.GenDecl, spec *ast.TypeSpec) {
		if info := u.indexer.Types[crd.TypeIdent{Package: pkg, Name: spec.Name.Name}]; info != nil {
			ix.infos = append(ix.infos, info)
		}
	})
	for id, schema := range u.indexer.Schemata {
		if id.Package == pkg {
			ix.schemata[id] = schema
		}
	}
	return ix
}

func newGeneration(u *universe, gates markerdefs.GateSet) *generation {
	return &generation{gates: gates, univ: u, schemas: map[crd.TypeIdent]*kindSchema{}, own: map[crd.TypeIdent]*ownView{}}
}

// open gives the generation a parser, unless it has one.
func (g *generation) open() {
	if g.parser != nil {
		return
	}
	// The parser takes a view of every type of every package it indexes
	// (826 for a doc-comment cycle on openshift/api), which its map would
	// otherwise grow to one rehash at a time: it starts at the number the
	// generations before indexed.
	p := &crd.Parser{Collector: g.univ.goload.Collector, Checker: g.univ.goload.Checker,
		Types: make(map[crd.TypeIdent]*markers.TypeInfo, len(g.univ.types))}
	crd.AddKnownTypes(p)
	g.flattener = &crd.Flattener{Parser: p}
	paths := slices.Collect(maps.Keys(p.PackageOverrides))
	for _, pkg := range g.univ.closure {
		paths = append(paths, loader.NonVendorPath(pkg.PkgPath))
	}
	for _, path := range paths {
		p.PackageOverrides[path] = g.addIndexed
	}
	g.parser = p
}

// addIndexed is the override of every package: what the package's own
// override (crd.AddKnownTypes) or AddPackage would do, taken from the
// universe's one indexing of the package, with this gate set's view of
// each type in place of the type, before any schema can use it.
func (g *generation) addIndexed(p *crd.Parser, pkg *loader.Package) {
	ix := g.univ.index(pkg)
	g.indexed = append(g.indexed, pkg)
	if ix.hasGV {
		p.GroupVersions[pkg] = ix.gv
	}
	for _, t := range ix.types {
		id := crd.TypeIdent{Package: pkg, Name: t.info.Name}
		view, schema := g.viewOf(pkg, id, t)
		p.Types[id] = view
		if schema != nil {
			p.Schemata[id] = *schema
		}
	}
	for id, schema := range ix.schemata {
		p.Schemata[id] = schema
	}
}

// view returns a copy of info as the gate set sees it: fields gated off are
// gone (so they are in neither properties nor required), and
// FeatureGate-aware marker values of the type and of its fields are bound or
// dropped. info itself, its Fields slice and every MarkerValues map belong to
// the shared collector and are never modified. The problems found are
// returned for the caller to report (a view shared between generations
// reports them in each); bound values report their own when they are
// applied, and add them to applied when it is not nil.
func (g *generation) view(pkg *loader.Package, info *markers.TypeInfo, applied *[]nodeProblems) (*markers.TypeInfo, []nodeProblems) {
	var all []nodeProblems
	add := func(node ast.Node, problems []markerProblem) {
		if len(problems) > 0 {
			all = append(all, nodeProblems{node: node, problems: problems})
		}
	}
	out := *info
	typeMarkers, problems := g.bindEnum(pkg, info, info.Markers)
	add(markerpos.Type(info), problems)
	typeMarkers, problems = bindMarkers(typeMarkers, g.gates, g.reporter(pkg, markerpos.Type(info), applied))
	out.Markers = typeMarkers
	add(markerpos.Type(info), problems)
	if info.Fields != nil {
		out.Fields = make([]markers.FieldInfo, 0, len(info.Fields))
		for _, f := range info.Fields {
			included, problems := fieldIncluded(f.Markers, g.gates)
			add(markerpos.Field(f), problems)
			if !included {
				continue
			}
			add(markerpos.Field(f), g.fieldEnumProblems(f.Markers))
			fieldMarkers, problems := bindMarkers(withoutFieldEnum(f.Markers), g.gates, g.reporter(pkg, markerpos.Field(f), applied))
			add(markerpos.Field(f), problems)
			f.Markers = fieldMarkers
			out.Fields = append(out.Fields, f)
		}
	}
	return &out, all
}

// nodeProblems are the problems of the markers of one type or field.
type nodeProblems struct {
	node     ast.Node
	problems []markerProblem
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
// generation, and it is added to applied (when not nil) for the
// generations that take the schema built (see share).
func (g *generation) reporter(pkg *loader.Package, node ast.Node, applied *[]nodeProblems) reportFunc {
	return func(name string, index int, err error) {
		problems := []markerProblem{{name: name, index: index, err: err}}
		if applied != nil {
			*applied = append(*applied, nodeProblems{node: node, problems: problems})
		}
		g.report(pkg, node, problems)
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
// {type: object}, converted to a generic map ready for serialisation.
// This goroutine flattens the references, the universe's converter does
// the rest in the background (see converter).
func (g *generation) schemaFor(id crd.TypeIdent) *kindSchema {
	if s, ok := g.schemas[id]; ok {
		return s
	}
	s := &kindSchema{id: id}
	g.schemas[id] = s
	g.generated++
	g.parser.NeedSchemaFor(id)
	partial := g.flattener.FlattenType(id)
	g.share()
	switch {
	case partial == nil:
		// The flattener recorded why on the package, which fails the
		// generation.
		s.err = errors.New("no schema could be flattened")
	case g.univ.legacyEnums:
		// legacyEnums reads the parser, which the next schema changes:
		// it runs here, on the embedded schema.
		flat, _ := legacyEnums(g.parser, id, *crd.FlattenEmbedded(partial, id.Package))
		g.univ.converter.start(s, flat)
	default:
		g.univ.converter.startEmbedding(s, partial)
	}
	return s
}

// converted waits for the conversions of every schema and reports those
// that failed, which fails their generations.
func (gr *generator) converted() {
	gr.univ.converter.wait()
	for _, g := range gr.gens {
		for _, s := range g.schemas {
			if s.err != nil {
				g.univ.problems.add(diag.Errorf("", 0, s.id.String(), "cannot convert the generated schema: %v", s.err))
				g.markerErrors = true
			}
		}
	}
}

// release drops the parser once every manifest of the gate set at hand
// has its schemas: its types, views and schemas of every indexed package
// would otherwise stay live until the last generation is written, for each
// of the run's gate sets. What write needs (indexed, markerErrors, the
// kindSchema maps the manifests point at) stays, and so does the cache of
// kind schemas (pointers to those maps), for a gate set met again.
func (g *generation) release() {
	g.univ.noteSchemaSources(g.parser)
	g.parser, g.flattener = nil, nil
	clear(g.own)
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
