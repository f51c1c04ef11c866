package crdvalidate

import (
	"go/ast"
	"go/types"
	"reflect"
	"strings"

	crdmarkers "sigs.k8s.io/controller-tools/pkg/crd/markers"
	"sigs.k8s.io/controller-tools/pkg/loader"
	"sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/goload"
	"github.com/gatedcrd/gatedcrd/tools/pkg/markerdefs"
	"github.com/gatedcrd/gatedcrd/tools/pkg/markerpos"
)

// Origin is where a schema node or rule comes from in the Go sources: a
// position (File absolute, Line 0 when unknown) and the marker on that
// line.
type Origin struct {
	diag.Position
	// Marker is the marker text on that line, or "" for a declaration.
	Marker string
}

// Sources maps schema paths of the generated CRDs to the Go field, type or
// marker they come from. It walks the types of the run's loaded packages
// with controller-tools' marker collector, as stage 2 does to generate the
// schemas, so it needs no other load.
type Sources struct {
	u *goload.Universe
	// packages maps "<group>/<version>" to the import path of its package.
	packages map[string]string
	types    map[string]map[string]*markers.TypeInfo
}

// NewSources returns a source map over u. packages maps each API
// "<group>/<version>" to the import path of the Go package of its types.
func NewSources(u *goload.Universe, packages map[string]string) *Sources {
	return &Sources{u: u, packages: packages, types: map[string]map[string]*markers.TypeInfo{}}
}

// node is where the walk stands: the package, the field (if the node is a
// field, or the items or values of one) and the named type of the node's
// value (if any).
type node struct {
	pkg   *loader.Package
	field *markers.FieldInfo
	// element is set when the node is the items or values of field, whose
	// markers then apply with the "items:" infix.
	element bool
	// fieldPkg declares field.
	fieldPkg *loader.Package
	typ      *markers.TypeInfo
	// goType is the node's Go type, pointers removed.
	goType types.Type
}

// Locate returns the Go position behind the server field path of the CRD
// with the given group, version name and kind. rule is the text of the
// x-kubernetes-validations rule the path names, if it names one. The
// position is the marker that set the path's keyword or rule when it can be
// found, else the deepest field or type the path reaches; ok is false when
// not even the kind's type is known.
func (s *Sources) Locate(group, version, kind, path, rule string) (Origin, bool) {
	n, sp, ok := s.walk(group, version, kind, path)
	if !ok {
		return Origin{}, false
	}
	return s.position(n, sp, rule), true
}

// LocateMarker returns the line of the first marker called name whose
// value satisfies match, on the field the path reaches (not on its list
// items or map values) or else on that node's named type. ok is false when
// there is no such marker.
func (s *Sources) LocateMarker(group, version, kind, path, name string, match func(any) bool) (Origin, bool) {
	n, _, ok := s.walk(group, version, kind, path)
	if !ok {
		return Origin{}, false
	}
	try := func(pkg *loader.Package, values markers.MarkerValues, mn ast.Node) (Origin, bool) {
		for i, v := range values[name] {
			if match(v) {
				file, line, text := s.u.MarkerLines(pkg).Locate(s.u.Fset, mn, name, i)
				return Origin{Position: diag.Position{File: file, Line: line}, Marker: text}, line > 0
			}
		}
		return Origin{}, false
	}
	if n.field != nil && !n.element {
		if p, ok := try(n.fieldPkg, n.field.Markers, markerpos.Field(*n.field)); ok {
			return p, true
		}
	}
	if n.typ != nil {
		return try(n.pkg, n.typ.Markers, markerpos.Type(n.typ))
	}
	return Origin{}, false
}

// walk follows the server field path from the kind's type as far as the
// Go types go.
func (s *Sources) walk(group, version, kind, path string) (node, schemaPath, bool) {
	if s == nil {
		return node{}, schemaPath{}, false
	}
	sp := parseSchemaPath(path)
	pkg := s.pkg(s.packages[group+"/"+version])
	if pkg == nil {
		return node{}, sp, false
	}
	info := s.typeInfo(pkg, kind)
	if info == nil {
		return node{}, sp, false
	}
	n := node{pkg: pkg, typ: info, goType: pkg.TypesInfo.TypeOf(info.RawSpec.Name)}
	for _, step := range sp.steps {
		next, ok := s.step(n, step)
		if !ok {
			break
		}
		n = next
	}
	return n, sp, true
}

// step moves from n to a property, the items or the additional properties.
func (s *Sources) step(n node, step string) (node, bool) {
	t := deref(n.goType)
	switch step {
	case itemsStep:
		if sl, ok := t.Underlying().(*types.Slice); ok {
			return s.valueNode(n, sl.Elem()), true
		}
		return n, false
	case additionalStep:
		if m, ok := t.Underlying().(*types.Map); ok {
			return s.valueNode(n, m.Elem()), true
		}
		return n, false
	}
	if n.typ == nil {
		return n, false
	}
	return s.property(n.pkg, n.typ, step)
}

// valueNode is an element of a list or map: no field of its own, the
// markers of its named type.
func (s *Sources) valueNode(n node, t types.Type) node {
	out := node{pkg: n.pkg, goType: t, field: n.field, fieldPkg: n.fieldPkg, element: true}
	out.pkg, out.typ = s.named(t)
	if out.pkg == nil {
		out.pkg = n.pkg
	}
	return out
}

// property finds the field of struct type info serialised as name,
// looking into embedded structs inlined by encoding/json.
func (s *Sources) property(pkg *loader.Package, info *markers.TypeInfo, name string) (node, bool) {
	for i := range info.Fields {
		f := &info.Fields[i]
		jsonName, inline := jsonField(f)
		t := pkg.TypesInfo.TypeOf(f.RawField.Type)
		if inline {
			epkg, einfo := s.named(t)
			if einfo != nil {
				if n, ok := s.property(epkg, einfo, name); ok {
					return n, true
				}
			}
			continue
		}
		if jsonName != name {
			continue
		}
		n := node{pkg: pkg, field: f, fieldPkg: pkg, goType: t}
		if tpkg, tinfo := s.named(t); tinfo != nil {
			n.pkg, n.typ = tpkg, tinfo
		}
		return n, true
	}
	return node{}, false
}

// jsonField returns the JSON name of a field and whether encoding/json
// inlines it (an embedded field without a name, or ",inline").
func jsonField(f *markers.FieldInfo) (string, bool) {
	tag, _ := reflect.StructTag(f.Tag).Lookup("json")
	name, opts, _ := strings.Cut(tag, ",")
	if name == "-" {
		return "", false
	}
	embedded := len(f.RawField.Names) == 0
	if name == "" && (embedded || strings.Contains(opts, "inline")) {
		return "", true
	}
	if name == "" {
		name = f.Name
	}
	return name, false
}

// named returns the package and type info of the named type behind t
// (pointers removed), or nils for an unnamed or unloaded type.
func (s *Sources) named(t types.Type) (*loader.Package, *markers.TypeInfo) {
	nt, ok := deref(t).(*types.Named)
	if !ok || nt.Obj().Pkg() == nil {
		return nil, nil
	}
	pkg := s.pkg(nt.Obj().Pkg().Path())
	if pkg == nil {
		return nil, nil
	}
	return pkg, s.typeInfo(pkg, nt.Obj().Name())
}

func deref(t types.Type) types.Type {
	for {
		p, ok := t.(*types.Pointer)
		if !ok {
			return t
		}
		t = p.Elem()
	}
}

// pkg returns the loaded, type-checked package with the import path.
func (s *Sources) pkg(path string) *loader.Package {
	if path == "" {
		return nil
	}
	pkg := s.u.Package(path)
	if pkg == nil {
		return nil
	}
	s.u.Checker.Check(pkg)
	if pkg.TypesInfo == nil {
		return nil
	}
	return pkg
}

// typeInfo returns the collector's view of a type declared in pkg.
func (s *Sources) typeInfo(pkg *loader.Package, name string) *markers.TypeInfo {
	byName, ok := s.types[pkg.PkgPath]
	if !ok {
		byName = map[string]*markers.TypeInfo{}
		_ = markers.EachType(s.u.Collector, pkg, func(info *markers.TypeInfo) {
			byName[info.Name] = info
		})
		s.types[pkg.PkgPath] = byName
	}
	return byName[name]
}

// position picks the marker behind the path's rule or keyword on the
// node's field, then its type; else the field, else the type.
func (s *Sources) position(n node, sp schemaPath, rule string) Origin {
	type candidate struct {
		pkg     *loader.Package
		values  markers.MarkerValues
		node    ast.Node
		element bool
	}
	var cands []candidate
	if n.field != nil {
		cands = append(cands, candidate{n.fieldPkg, n.field.Markers, markerpos.Field(*n.field), n.element})
	}
	if n.typ != nil {
		cands = append(cands, candidate{n.pkg, n.typ.Markers, markerpos.Type(n.typ), false})
	}
	for _, c := range cands {
		name, index, ok := markerFor(c.values, sp, rule, c.element)
		if !ok {
			continue
		}
		file, line, text := s.u.MarkerLines(c.pkg).Locate(s.u.Fset, c.node, name, index)
		return Origin{Position: diag.Position{File: file, Line: line}, Marker: text}
	}
	if len(cands) == 0 || cands[0].node == nil {
		return Origin{}
	}
	pos := s.u.Fset.Position(cands[0].node.Pos())
	return Origin{Position: diag.Position{File: pos.Filename, Line: pos.Line}}
}

// keywordMarkers names the markers that set a schema keyword.
var keywordMarkers = map[string][]string{
	"default":                              {"kubebuilder:default", "default"},
	"maxItems":                             {markerdefs.GateAwareMaxItemsName, "kubebuilder:validation:MaxItems", "k8s:maxItems"},
	"minItems":                             {"kubebuilder:validation:MinItems"},
	"maxLength":                            {"kubebuilder:validation:MaxLength"},
	"minLength":                            {"kubebuilder:validation:MinLength"},
	"maxProperties":                        {"kubebuilder:validation:MaxProperties"},
	"minProperties":                        {"kubebuilder:validation:MinProperties"},
	"maximum":                              {"kubebuilder:validation:Maximum", "k8s:maximum"},
	"minimum":                              {"kubebuilder:validation:Minimum", "k8s:minimum"},
	"pattern":                              {"kubebuilder:validation:Pattern"},
	"format":                               {"kubebuilder:validation:Format"},
	"enum":                                 {markerdefs.GateAwareEnumName, "kubebuilder:validation:Enum"},
	"nullable":                             {"nullable"},
	"x-kubernetes-list-type":               {"listType", "k8s:listType"},
	"x-kubernetes-list-map-keys":           {"listMapKey", "k8s:listMapKey", "listType", "k8s:listType"},
	"x-kubernetes-map-type":                {"mapType"},
	"x-kubernetes-preserve-unknown-fields": {"kubebuilder:pruning:PreserveUnknownFields"},
}

// markerFor finds the marker name and the index of its value that produced
// the path's rule (matched by rule text) or keyword in values.
//
// On the element of a list field, the field's kubebuilder:validation:items:
// markers apply, and the list's own listType decides what its items may be.
func markerFor(values markers.MarkerValues, sp schemaPath, rule string, element bool) (string, int, bool) {
	names := func(ns ...string) []string {
		if !element {
			return ns
		}
		var out []string
		for _, n := range ns {
			if rest, ok := strings.CutPrefix(n, "kubebuilder:validation:"); ok {
				out = append(out, "kubebuilder:validation:items:"+rest)
			}
		}
		return append(out, "listType", "k8s:listType")
	}
	if sp.rule >= 0 {
		for _, name := range names(markerdefs.GateAwareXValidationNm, "kubebuilder:validation:XValidation") {
			for i, v := range values[name] {
				switch m := v.(type) {
				case markerdefs.GateAwareXValidation:
					if m.Rule == rule {
						return name, i, true
					}
				case crdmarkers.XValidation:
					if m.Rule == rule {
						return name, i, true
					}
				}
			}
		}
		return "", 0, false
	}
	keyword, _, _ := strings.Cut(sp.keyword, ".")
	keyword, _, _ = strings.Cut(keyword, "[")
	for _, name := range names(keywordMarkers[keyword]...) {
		if len(values[name]) > 0 {
			// The last value wins in controller-tools.
			return name, len(values[name]) - 1, true
		}
	}
	return "", 0, false
}
