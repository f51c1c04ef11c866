package schemapatch

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/gatedcrd/gatedcrd/features/payload"
	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/internal/workers"
	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
	"github.com/gatedcrd/gatedcrd/tools/pkg/goload"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
	"github.com/gatedcrd/gatedcrd/tools/pkg/markerdefs"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// Input is what stage 2 works from: the group-versions of the run, the Go
// packages loaded once for the whole run, the file tree (holding what stage
// 1 wrote in the same run), and the list problems go to.
type Input struct {
	Discovery *discovery.Result
	Universe  *goload.Universe
	Tree      *tree.Tree
	// Problems receives every problem found in the input. When nil, Run
	// uses a list of its own and returns its errors.
	Problems *diag.List
	// EnumFromConstants makes +enum on a string type set its enum from the
	// type's typed constants (enumFromConstants in .gatedcrd.yaml). When
	// false, +enum has no effect, as in the reference generator.
	EnumFromConstants bool
	// Era is the era of the reference generator the tree follows (the
	// payload directory's, payload.Directory.Era); "" is the current one.
	// In the pre-version eras a field's and its type's enums are written
	// as the reference of the time did (see legacyenum.go).
	Era payload.Era
	// Partials are the partial manifests stage 1 produced in the same
	// process, each with the gate set it stands for. Run takes them as they
	// are instead of reading and parsing their files; every other .yaml
	// file below the version directories is read through the Tree (all of
	// them, for the separate sub-command).
	Partials []Partial
	// PresumeMerged is set when stage 3 runs after this stage in the same
	// process: Run then presumes files that look like stage 3 output are
	// such, without parsing them, and lists them in Result.Presumed for
	// Result.Settle to check once stage 3 ran (see presumed.go).
	PresumeMerged bool
	// Untouched are the CRDs a restricted run leaves alone: the files of
	// their partial manifest and override directories, and their merged
	// outputs, are not processed.
	Untouched manifest.Untouched
	// Memo, when set, parses the files Run and Result.Settle read
	// (codegen watch: those its last cycle wrote or read are parsed
	// already); nil parses each one.
	Memo *manifest.Memo
	// Indexes, when set, keeps the indexes of the Go packages the run
	// indexed for the next run with it, which reuses those of packages
	// whose syntax it still has (IndexCache): codegen watch.
	Indexes *IndexCache
	// Subtrees, when set, renders the manifests, reusing the text of what
	// it rendered before: the partial manifests of one CRD share most of
	// their schemas, and a watch cycle most of the last cycle's; nil
	// renders each with manifest.Marshal.
	Subtrees *manifest.Subtrees
}

// Partial is a partial manifest handed over by stage 1: the file, and the
// gates its feature-gate annotations name.
type Partial struct {
	*manifest.File
	Gates markerdefs.GateSet
}

// Result says what a run did, for progress reporting.
type Result struct {
	// Manifests is the number of CRD manifests processed.
	Manifests int
	// Updated is the number of manifests whose bytes changed; their new
	// content is in the Tree.
	Updated int
	// Unmatched is the number of processed manifests whose group and kind
	// name no Go kind (typically manual overrides). They are only
	// re-serialised.
	Unmatched int
	// Prefetched is the number of packages whose markers were collected
	// ahead of the schemas that read them (Input.Indexes: those the last
	// run built schemas from).
	Prefetched int
	// GateSets is the number of distinct active gate sets schemas were
	// generated for: one controller-tools parser each.
	GateSets int
	// Schemas is the number of schemas generated: one per kind type and
	// gate set, shared by the manifests that need the same one.
	Schemas int
	// Views is the number of views of Go types built: one per type, and
	// for a type whose markers name gates one per activation of those
	// gates (see shared.go).
	Views int
	// Timing is the time spent in each phase.
	Timing Timing
	// Files are the processed manifests as the Tree now holds them, in
	// path order: stage 3 takes them instead of reading and parsing their
	// files again. Their objects share schema maps; nothing may modify
	// them. The pipeline drops them once the merge took them.
	Files []*manifest.File
	// Presumed are the files presumed to be stage 3 output
	// (Input.PresumeMerged), in path order, with the bytes Run saw and no
	// object. Settle checks and drops them.
	Presumed []*manifest.File

	memo *manifest.Memo // Input.Memo, for Settle
}

// Timing is the wall-clock time of each phase of a run.
type Timing struct {
	// Select covers reading and parsing the manifests stage 1 did not
	// hand over, which overlaps building the schemas of those it did.
	Select time.Duration
	// Generate covers walking the version directories, selecting the
	// manifests and building schemas, over every gate set.
	Generate time.Duration
	// Write covers applying schemas and serialising manifests.
	Write time.Duration
}

// Annotation value marking stage 3 output.
const mergedValue = "true"

// crdManifest is one processed CRD manifest.
type crdManifest struct {
	path string
	data []byte
	obj  map[string]any
	// gates is the active gate set: the suffixes of the manifest's
	// feature-gate.release.openshift.io/ annotation keys.
	gates markerdefs.GateSet
	// apiGroup and kind are spec.group and spec.names.kind ("" if absent).
	apiGroup, kind string
	// versions are the names in spec.versions, in order.
	versions []string
	// pkgs are the loaded packages of every selected version of the
	// manifest's API group.
	pkgs []*loader.Package
	// broken is set when the manifest cannot be processed; it is left as is.
	broken bool
	// gen is the generation that produced schemas, or nil.
	gen *generation
	// kinds maps version names to the generated schema to write, and
	// schemas to its map once converted.
	kinds   map[string]*kindSchema
	schemas map[string]map[string]any
}

// Run fills spec.versions[*].schema.openAPIV3Schema of every CRD manifest of
// the selected group-versions, writing changed manifests into the
// Tree. Problems with the input are added to in.Problems; a manifest whose
// schema generation reported an error is left untouched. Run returns an
// error only when it cannot run at all, or, when in.Problems is nil, for the
// errors found.
func Run(in Input) (*Result, error) {
	if in.Discovery == nil || in.Universe == nil || in.Tree == nil {
		return nil, errors.New("schemapatch: Discovery, Universe and Tree are required")
	}
	list := in.Problems
	if list == nil {
		list = &diag.List{}
	}
	s := &stage{
		in:   in,
		sink: &problemSink{list: list, base: in.Discovery.BaseDir, universe: in.Universe},
		res:  &Result{memo: in.Memo},
	}
	in.Partials = nil // the stage drops them as it goes
	s.run()
	if in.Problems == nil {
		return s.res, list.Err()
	}
	return s.res, nil
}

type stage struct {
	in        Input
	sink      *problemSink
	res       *Result
	manifests []*crdManifest
}

func (s *stage) run() {
	t0 := time.Now()
	gen := s.generator()
	prefetched, n := s.prefetchMarkers(gen.univ)
	s.res.Prefetched = n
	gens := s.selectAndGenerate(gen)
	prefetched()
	t1 := time.Now()
	s.write(gens)
	t2 := time.Now()
	s.res.Timing.Generate = t1.Sub(t0)
	s.res.Timing.Write = t2.Sub(t1)
}

// selectAndGenerate finds the manifests to process and builds
// the schemas they need. The candidates are every .yaml file below each
// selected version directory of a group whose stage 2 is enabled; the
// manifests are those that are apiextensions.k8s.io/v1
// CustomResourceDefinitions and not stage 3 output. Stage 1's partial
// manifests are taken as handed over; the other files are read and parsed
// on every core while this goroutine, in path order, builds the schemas of
// each manifest as soon as it is known, so that parsing the files nobody
// handed over overlaps schema generation, which must run on one goroutine.
func (s *stage) selectAndGenerate(gen *generator) []*generation {
	walking := region("schemapatch.walk")
	seen, versionDirs := map[string]bool{}, map[string]bool{}
	var paths []string
	pkgsOf := map[string][]*loader.Package{}
	for _, g := range s.in.Discovery.Groups {
		if g.Config.SchemaPatch.Disabled {
			continue
		}
		if len(g.Config.SchemaPatch.RequiredFeatureSets) > 0 {
			s.sink.add(diag.Warningf(s.sink.rel(g.ConfigFile), 0, "schemapatch.requiredFeatureSets",
				"only selects manifests in the legacy FeatureSet mode, which is not implemented; ignored (schemas follow the %s<Gate> annotations)", manifest.FeatureGateAnnotationPrefix))
		}
		var pkgs []*loader.Package
		for _, v := range g.Versions {
			pkg := s.in.Universe.Package(v.ImportPath)
			if pkg == nil {
				s.sink.add(diag.Errorf(s.sink.rel(v.Dir), 0, v.ImportPath, "package was not loaded, so no schema can be generated from it"))
				continue
			}
			pkgs = append(pkgs, pkg)
		}
		for _, v := range g.Versions {
			versionDirs[filepath.Clean(v.Dir)] = true
			s.walk(v.Dir, func(path string) {
				if seen[path] || s.in.Untouched.Dir(path) {
					return
				}
				seen[path] = true
				paths = append(paths, path)
				pkgsOf[path] = pkgs
			})
		}
	}
	walking.End()
	t0 := time.Now()
	// Stage 1's partial manifests need no parsing: their schemas are built
	// while the other files are parsed.
	byPath := make(map[string]Partial, len(s.in.Partials))
	for _, p := range s.in.Partials {
		byPath[p.Path] = p
	}
	s.in.Partials = nil
	var handed []*crdManifest
	var others []string
	for _, path := range paths {
		p, ok := byPath[path]
		if !ok {
			others = append(others, path)
			continue
		}
		m, problems := readManifest(s.sink.rel(path), p.File, p.Gates)
		s.sink.add(problems...)
		if m != nil {
			m.pkgs = pkgsOf[path]
			handed = append(handed, m)
		}
	}
	parsed := s.readManifests(others, versionDirs)
	r := region("schemapatch.generate-handed")
	gen.add(handed)
	r.End()
	r = region("schemapatch.wait-parsed")
	sels := parsed()
	r.End()
	var rest []*crdManifest
	for i, sel := range sels {
		if sel.presumed != nil {
			s.res.Presumed = append(s.res.Presumed, sel.presumed)
		}
		s.sink.add(sel.problems...)
		if m := sel.manifest; m != nil {
			m.pkgs = pkgsOf[others[i]]
			rest = append(rest, m)
		}
	}
	s.res.Timing.Select = time.Since(t0)
	r = region("schemapatch.generate-rest")
	gen.add(rest)
	r.End()
	s.manifests = append(handed, rest...)
	sort.SliceStable(s.manifests, func(i, j int) bool { return s.manifests[i].path < s.manifests[j].path })
	s.res.Manifests = len(s.manifests)
	r = region("schemapatch.wait-converter")
	gen.converted()
	r.End()
	for _, m := range s.manifests {
		m.takeSchemas()
	}
	return gen.finish()
}

// selected is the verdict on one file: the manifest to process, if any,
// and the problems to report in path order.
type selected struct {
	manifest *crdManifest
	problems []diag.Diagnostic
	// presumed is a file presumed to be stage 3 output, not parsed.
	presumed *manifest.File
}

// readManifests starts reading and parsing the files at paths through the
// Tree, on every core, and returns the function that waits for the
// verdicts (readManifest), in path order. Parsing YAML is the costly part;
// a file that is not to be processed is dropped right away.
func (s *stage) readManifests(paths []string, versionDirs map[string]bool) func() []selected {
	out := make([]selected, len(paths))
	var bg workers.Pending
	bg.Each(len(paths), func(i int) {
		rel := s.sink.rel(paths[i])
		data, err := s.in.Tree.ReadFile(paths[i])
		if err != nil {
			out[i].problems = []diag.Diagnostic{diag.Errorf(rel, 0, "", "cannot read: %v", err)}
			return
		}
		if s.in.PresumeMerged && looksMerged(paths[i], data, versionDirs) {
			if !s.in.Untouched.Merged(data) {
				out[i].presumed = &manifest.File{Path: paths[i], Data: data}
			}
			return
		}
		// Most files are no CRD manifest: the memo's object is only
		// read, and copied for a manifest to process.
		out[i].manifest, out[i].problems = readManifest(rel, s.in.Memo.ViewFile(paths[i], data), nil)
		if m := out[i].manifest; m != nil {
			m.obj = s.in.Memo.Own(m.obj)
		}
	})
	return func() []selected {
		bg.Wait()
		return out
	}
}

// walk calls fn for every .yaml file below dir, in byte order of the path
// elements, reading the directories through the Tree.
func (s *stage) walk(dir string, fn func(path string)) {
	entries, err := s.in.Tree.ReadDir(dir)
	if err != nil {
		s.sink.add(diag.Errorf(s.sink.rel(dir), 0, "", "cannot list directory: %v", err))
		return
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name)
		if e.IsDir {
			s.walk(p, fn)
			continue
		}
		if filepath.Ext(e.Name) == ".yaml" {
			fn(p)
		}
	}
}

// readManifest returns f (shown as rel) when it is a CRD manifest stage 2
// processes, or nil, and the problems found. gates is the gate set of a
// partial manifest stage 1 handed over (nil: read the annotations).
func readManifest(rel string, f *manifest.File, gates markerdefs.GateSet) (*crdManifest, []diag.Diagnostic) {
	data, obj, err := f.Data, f.Object, f.ParseErr
	if err != nil {
		if slices.Contains(strings.Split(filepath.ToSlash(rel), "/"), manifest.PartialManifestsDirName) {
			// Stage 1 writes only CRDs there: a broken file is a broken
			// partial manifest, which --verify must not pass.
			return nil, []diag.Diagnostic{diag.Errorf(rel, 0, "", "is not a valid YAML object, but %s holds generated partial manifests: %v; regenerate them (codegen crd-manifests)", manifest.PartialManifestsDirName, err)}
		}
		return nil, []diag.Diagnostic{diag.Warningf(rel, 0, "", "not a YAML object, so not a CRD manifest; skipped: %v", err)}
	}
	if obj == nil || obj["apiVersion"] != "apiextensions.k8s.io/v1" || obj["kind"] != "CustomResourceDefinition" {
		return nil, nil
	}
	if gates == nil {
		if n := manifest.CountDocuments(data); n > 1 {
			// Rewriting would keep only the first document and silently drop
			// the rest of a hand-written file.
			return nil, []diag.Diagnostic{diag.Errorf(rel, 0, "", "holds %d YAML documents; a CRD manifest is exactly one CustomResourceDefinition (split the file)", n)}
		}
	}
	m := &crdManifest{path: f.Path, data: data, obj: obj, gates: markerdefs.GateSet{}}
	meta, ok := optionalMap(obj, "metadata")
	if !ok {
		return nil, []diag.Diagnostic{diag.Errorf(rel, 0, "metadata", "must be a mapping")}
	}
	annotations, ok := optionalMap(meta, "annotations")
	if !ok {
		return nil, []diag.Diagnostic{diag.Errorf(rel, 0, "metadata.annotations", "must be a mapping")}
	}
	if annotations[manifest.MergedAnnotation] == mergedValue {
		return nil, nil
	}
	if v, ok := annotations[manifest.FeatureSetAnnotation]; ok {
		return nil, []diag.Diagnostic{diag.Errorf(rel, 0, manifest.FeatureSetAnnotation+": "+fmt.Sprint(v),
			"legacy FeatureSet mode is not supported: stage 2 generates schemas for the gates named by %s<Gate> annotations; remove this annotation", manifest.FeatureGateAnnotationPrefix)}
	}
	if gates != nil {
		m.gates = gates
	} else {
		for key := range annotations {
			if gate, ok := strings.CutPrefix(key, manifest.FeatureGateAnnotationPrefix); ok {
				m.gates[gate] = true
			}
		}
	}
	spec, ok := optionalMap(obj, "spec")
	if !ok {
		return nil, []diag.Diagnostic{diag.Errorf(rel, 0, "spec", "must be a mapping")}
	}
	names, ok := optionalMap(spec, "names")
	if !ok {
		return nil, []diag.Diagnostic{diag.Errorf(rel, 0, "spec.names", "must be a mapping")}
	}
	m.apiGroup, _ = spec["group"].(string)
	m.kind, _ = names["kind"].(string)
	if raw, present := spec["versions"]; present && raw != nil {
		list, ok := raw.([]any)
		if !ok {
			return nil, []diag.Diagnostic{diag.Errorf(rel, 0, "spec.versions", "must be a list")}
		}
		for i, item := range list {
			entry, ok := item.(map[string]any)
			if !ok {
				return nil, []diag.Diagnostic{diag.Errorf(rel, 0, fmt.Sprintf("spec.versions[%d]", i), "must be a mapping")}
			}
			name, ok := entry["name"].(string)
			if !ok || name == "" {
				return nil, []diag.Diagnostic{diag.Errorf(rel, 0, fmt.Sprintf("spec.versions[%d].name", i), "must be a non-empty string")}
			}
			m.versions = append(m.versions, name)
		}
	}
	return m, nil
}

// optionalMap returns obj[key] as a mapping; an absent or null value is an
// empty mapping. ok is false when the value is of another kind.
func optionalMap(obj map[string]any, key string) (map[string]any, bool) {
	raw, present := obj[key]
	if !present || raw == nil {
		return map[string]any{}, true
	}
	m, ok := raw.(map[string]any)
	return m, ok
}

// gateSetKey identifies a gate set; unlike GateSet.Key it tells the empty
// set (a manifest without gate annotations) from {""} (the ungated one).
func gateSetKey(s markerdefs.GateSet) string {
	return fmt.Sprintf("%d:%s", len(s), strings.Join(s.Sorted(), "+"))
}

// generator builds the schemas of manifests, with one generation per
// distinct gate set.
type generator struct {
	stage *stage
	univ  *universe
	byKey map[string]*generation
	gens  []*generation
}

func (s *stage) generator() *generator {
	univ := newUniverse(s.in.Universe, s.sink)
	univ.enumFromConstants = s.in.EnumFromConstants
	univ.legacyEnums = legacyEnumEra(s.in.Era)
	univ.cache = s.in.Indexes
	return &generator{stage: s, univ: univ, byKey: map[string]*generation{}}
}

// add builds the schemas ms need, one gate set after the other (in key
// order, each gate set's manifests in the order given), releasing each
// generation's parser once its manifests have their schemas. A gate set
// met again in a later call gets a new parser; the schemas its generation
// built before are reused.
func (gr *generator) add(ms []*crdManifest) {
	byKey := map[string][]*crdManifest{}
	for _, m := range ms {
		k := gateSetKey(m.gates)
		byKey[k] = append(byKey[k], m)
	}
	for _, k := range slices.Sorted(maps.Keys(byKey)) {
		var gen *generation
		for _, m := range byKey[k] {
			if m.apiGroup == "" || m.kind == "" || len(m.versions) == 0 {
				continue
			}
			if gen = gr.byKey[k]; gen == nil {
				gen = newGeneration(gr.univ, m.gates)
				gr.byKey[k] = gen
				gr.gens = append(gr.gens, gen)
			}
			gen.open()
			gr.stage.match(gen, m)
		}
		if gen != nil {
			gen.release()
		}
	}
}

// finish reports what the generations recorded on the packages they
// indexed, hands the indexes to the cache and returns the generations.
func (gr *generator) finish() []*generation {
	s := gr.stage
	gr.univ.keepIndexes()
	seen := map[*loader.Package]bool{}
	var indexed []*loader.Package
	for _, g := range gr.gens {
		for _, p := range g.indexed {
			if !seen[p] {
				seen[p] = true
				indexed = append(indexed, p)
			}
		}
		s.res.Schemas += g.generated
	}
	sort.SliceStable(indexed, func(i, j int) bool { return indexed[i].PkgPath < indexed[j].PkgPath })
	s.sink.loaderErrors(indexed)
	s.res.GateSets = len(gr.gens)
	s.res.Views = gr.univ.views
	return gr.gens
}

// match finds the Go kind of m for each listed version and generates its
// schema in gen.
func (s *stage) match(gen *generation, m *crdManifest) {
	byVersion := gen.kindTypes(m.pkgs, m.apiGroup, m.kind)
	for _, v := range m.versions {
		ids := byVersion[v]
		if len(ids) == 0 {
			continue
		}
		if len(ids) > 1 {
			var where []string
			for _, id := range ids {
				where = append(where, id.Package.PkgPath)
			}
			s.sink.add(diag.Errorf(s.sink.rel(m.path), 0, "spec.versions "+v,
				"kind %s of group %s is defined by more than one package for this version (%s)", m.kind, m.apiGroup, strings.Join(where, ", ")))
			m.broken = true
			return
		}
		if m.kinds == nil {
			m.kinds = map[string]*kindSchema{}
		}
		m.kinds[v] = gen.schemaFor(ids[0])
	}
	m.gen = gen
}

// takeSchemas gives m the maps of its converted schemas; a schema that
// could not be converted (reported) leaves m as is.
func (m *crdManifest) takeSchemas() {
	for v, ks := range m.kinds {
		if ks.err != nil {
			m.broken = true
			return
		}
		if m.schemas == nil {
			m.schemas = map[string]map[string]any{}
		}
		m.schemas[v] = ks.schema
	}
	m.kinds = nil
}

// write applies the schemas (docs/reference-rules.md, "How the schema is
// written") and records every manifest whose
// bytes change in the Tree. Serialisation, the costly part, runs in
// parallel: manifests are independent and the shared schema maps are only
// read. Results are recorded in path order.
func (s *stage) write(gens []*generation) {
	type output struct {
		data    []byte
		obj     map[string]any
		problem *diag.Diagnostic
		skip    bool
	}
	outs := make([]output, len(s.manifests))
	render := func(i int) {
		m := s.manifests[i]
		if m.broken || (len(m.schemas) > 0 && m.gen.failed()) {
			outs[i].skip = true
			return
		}
		obj := m.obj
		if len(m.schemas) > 0 {
			var err error
			if obj, err = withSchemas(m.obj, m.schemas); err != nil {
				d := diag.Errorf(s.sink.rel(m.path), 0, "spec", "%v", err)
				outs[i].problem = &d
				return
			}
		}
		data, err := s.in.Subtrees.Marshal(obj)
		if err != nil {
			d := diag.Errorf(s.sink.rel(m.path), 0, "", "cannot serialise: %v", err)
			outs[i].problem = &d
			return
		}
		if bytes.Equal(data, m.data) {
			// Unchanged (the usual case): keep the bytes read, which the
			// tree holds anyway, and drop the copy now rather than after
			// every manifest is rendered.
			data = m.data
		}
		outs[i].data, outs[i].obj = data, obj
		// The manifest as read, old schemas included, is not needed any
		// more: let it go now rather than at the end of the stage.
		m.obj = nil
	}
	// failed() reads loader state: settle it before going parallel.
	for _, g := range gens {
		g.settle()
	}
	r := region("schemapatch.render")
	workers.Each(len(s.manifests), render)
	r.End()
	defer region("schemapatch.record").End()

	for i, m := range s.manifests {
		o := outs[i]
		switch {
		case o.skip:
		case o.problem != nil:
			s.sink.add(*o.problem)
		default:
			if len(m.schemas) == 0 {
				s.res.Unmatched++
			}
			if !bytes.Equal(o.data, m.data) {
				o.data = s.in.Tree.WriteFile(m.path, o.data)
				s.res.Updated++
			}
			s.res.Files = append(s.res.Files, &manifest.File{Path: m.path, Data: o.data, Object: o.obj})
		}
	}
}

// withSchemas returns a CRD manifest with schemas (by version name)
// written into it: versions with a schema get it as
// schema.openAPIV3Schema, the others lose their schema, and the legacy
// spec.validation goes. obj is not modified (it may be stage 1's object):
// the maps on the way to the schemas are copied.
func withSchemas(obj map[string]any, schemas map[string]map[string]any) (map[string]any, error) {
	spec, ok := obj["spec"].(map[string]any)
	if !ok {
		return nil, errors.New("must be a mapping")
	}
	spec = maps.Clone(spec)
	delete(spec, "validation")
	if versions, ok := spec["versions"].([]any); ok {
		versions = slices.Clone(versions)
		for i, item := range versions {
			entry, ok := item.(map[string]any)
			if !ok {
				return nil, errors.New("spec.versions entries must be mappings")
			}
			entry = maps.Clone(entry)
			versions[i] = entry
			name, _ := entry["name"].(string)
			schema, ok := schemas[name]
			if !ok {
				delete(entry, "schema")
				continue
			}
			entry["schema"] = map[string]any{"openAPIV3Schema": schema}
		}
		spec["versions"] = versions
	}
	out := maps.Clone(obj)
	out["spec"] = spec
	return out, nil
}
