// Package protobuf computes what openshift/api's `codegen go-to-protobuf`
// writes for API packages: the generated.proto IDL, the gogo-protobuf
// generated.pb.go serializers, and the protobuf struct tags it adds to the
// package's Go types.
//
// The reference drives k8s.io/code-generator's go-to-protobuf through its Run
// function, which exits the process on any error, writes into the source
// tree while it works and runs protoc, goimports and gofmt as external
// programs. This package keeps the upstream generator code for everything
// that decides the output (the Go-to-IDL mapping, the gogo code generator,
// the rewrites of the generated and hand-written Go files) but runs it in
// process: the IDL is compiled with github.com/bufbuild/protocompile instead
// of protoc, protoc-gen-gogo is called as a library, formatting uses the Go
// libraries, and every result is returned in memory so callers can write or
// compare as they choose. No protoc installation is needed.
package protobuf

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"golang.org/x/tools/go/packages"
	gtp "k8s.io/code-generator/cmd/go-to-protobuf/protobuf"
	genutil "k8s.io/code-generator/pkg/util"
	"k8s.io/gengo/v2"
	"k8s.io/gengo/v2/generator"
	"k8s.io/gengo/v2/namer"
	"k8s.io/gengo/v2/parser"
	"k8s.io/gengo/v2/types"
)

// Package is an API package to generate protobuf for.
type Package struct {
	// Dir is the package's directory. When empty it is taken from the loaded
	// package.
	Dir string
	// ImportPath is the package's Go import path. Required.
	ImportPath string
}

// Options configure Generate.
type Options struct {
	// Header is the boilerplate placed at the top of generated files. The
	// string YEAR is replaced with the current year, as the reference does
	// with its header file. It may be empty.
	Header []byte

	// ModuleDir is the directory Go packages are loaded from (the root of the
	// API module). When empty, the nearest directory containing a go.mod at or
	// above the first package's Dir is used, or the current directory.
	ModuleDir string

	// ProtoPaths are extra directories searched, in order, for imported
	// .proto files before they are looked up through the Go packages of the
	// module (the equivalent of protoc's -I).
	ProtoPaths []string

	// Env, when set, is the environment for the go command used to load
	// packages (as in packages.Config.Env).
	Env []string
}

// Packages go-to-protobuf is told about in the reference: their types are
// available to API packages, but nothing is generated for them.
var apimachineryPackages = []string{
	"k8s.io/apimachinery/pkg/util/intstr",
	"k8s.io/apimachinery/pkg/api/resource",
	"k8s.io/apimachinery/pkg/runtime/schema",
	"k8s.io/apimachinery/pkg/runtime",
	"k8s.io/apimachinery/pkg/apis/meta/v1",
	"k8s.io/apimachinery/pkg/apis/meta/v1beta1",
	"k8s.io/api/core/v1",
	"k8s.io/api/rbac/v1",
}

// Embedded types left out of generated messages.
var droppedEmbeddedTypes = []types.Name{
	{Package: "k8s.io/apimachinery/pkg/apis/meta/v1", Name: "TypeMeta"},
}

const (
	protoFileName = "generated.proto"
	goFileName    = "generated.pb.go"
)

// Generate computes every file go-to-protobuf would write or rewrite for
// pkgs: generated.proto and generated.pb.go in each package directory and
// every other Go file of the package whose content the struct-tag rewrite
// changes. Results are keyed by absolute path. Nothing is written to the
// source tree; temporary files are used outside it for the upstream rewrite
// functions that work on paths.
func Generate(pkgs []Package, opts Options) (map[string][]byte, error) {
	if len(pkgs) == 0 {
		return map[string][]byte{}, nil
	}
	targets := map[string]bool{}
	for _, p := range pkgs {
		if p.ImportPath == "" {
			return nil, errors.New("protobuf: package with empty import path")
		}
		for _, m := range apimachineryPackages {
			if p.ImportPath == m {
				return nil, fmt.Errorf("protobuf: %s is an apimachinery package and cannot be generated", p.ImportPath)
			}
		}
		targets[p.ImportPath] = true
	}

	moduleDir, err := resolveModuleDir(pkgs, opts.ModuleDir)
	if err != nil {
		return nil, err
	}

	tmp, err := os.MkdirTemp("", "gatedcrd-protobuf-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)

	r := &run{
		moduleDir: moduleDir,
		opts:      opts,
		tmp:       tmp,
		header:    boilerplate(opts.Header),
		out:       map[string][]byte{},
		goDirs:    map[string]string{},
	}

	// The reference runs go-to-protobuf once per API package, loading the
	// apimachinery packages and that one package. Loading is by far the
	// slowest step, so all packages are loaded together and share one
	// generator context; each run then sees only the packages the reference
	// would have given it. The one thing sharing changes is how a package is
	// seen by another package that imports it (fully parsed rather than as a
	// plain dependency), so packages importing another requested package are
	// given a context of their own.
	shared, err := r.newContext(sortedKeys(targets))
	if err != nil {
		return nil, err
	}
	for _, pkg := range pkgs {
		c := shared
		if importsAnother(shared, pkg.ImportPath, targets) {
			if c, err = r.newContext([]string{pkg.ImportPath}); err != nil {
				return nil, err
			}
		}
		if err := r.generatePackage(c, pkg); err != nil {
			return nil, fmt.Errorf("protobuf: %s: %w", pkg.ImportPath, err)
		}
	}
	return r.out, nil
}

// boilerplate mirrors what the reference gets from its header file: the text
// with YEAR substituted, followed by a newline (an empty header file still
// yields the newline).
func boilerplate(header []byte) []byte {
	b := bytes.ReplaceAll(header, []byte("YEAR"), []byte(strconv.Itoa(time.Now().UTC().Year())))
	return append(append([]byte{}, b...), '\n')
}

func resolveModuleDir(pkgs []Package, dir string) (string, error) {
	if dir != "" {
		return filepath.Abs(dir)
	}
	start := pkgs[0].Dir
	if start == "" {
		return os.Getwd()
	}
	start, err := filepath.Abs(start)
	if err != nil {
		return "", err
	}
	for d := start; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("protobuf: no go.mod at or above %s; set Options.ModuleDir", start)
		}
	}
}

type run struct {
	moduleDir string
	opts      Options
	tmp       string
	header    []byte
	out       map[string][]byte
	goDirs    map[string]string // go list results: import path -> dir
	seq       int
}

// newContext loads the apimachinery packages and the given API packages
// (with the "proto" build tag, as the reference does) and returns a
// generator context over them.
func (r *run) newContext(targets []string) (*generator.Context, error) {
	p := parser.NewWithOptions(parser.Options{BuildTags: []string{"proto"}})
	patterns := append(append([]string{}, apimachineryPackages...), targets...)
	// The only loader entry point that takes a working directory; despite
	// its name it is the ordinary loader with Dir and Env applied.
	if err := p.LoadPackagesWithConfigForTesting(&packages.Config{Dir: r.moduleDir, Env: r.opts.Env}, patterns...); err != nil {
		return nil, fmt.Errorf("protobuf: loading packages: %w", err)
	}
	c, err := generator.NewContext(p, namer.NameSystems{"public": namer.NewPublicNamer(3)}, "public")
	if err != nil {
		return nil, fmt.Errorf("protobuf: building generator context: %w", err)
	}
	if err := checkNullableTags(c); err != nil {
		return nil, fmt.Errorf("protobuf: %w", err)
	}
	return c, nil
}

// importsAnother reports whether path directly imports one of targets.
func importsAnother(c *generator.Context, path string, targets map[string]bool) bool {
	u, ok := c.Universe[path]
	if !ok {
		return false
	}
	for imp := range u.Imports {
		if imp != path && targets[imp] {
			return true
		}
	}
	return false
}

// generatePackage is the in-process counterpart of one go-to-protobuf run
// for a single API package.
func (r *run) generatePackage(c *generator.Context, pkg Package) error {
	capture := newCaptureFileType()
	c.FileTypes["protoidl"] = capture

	universePkg, ok := c.Universe[pkg.ImportPath]
	if !ok || universePkg.Dir == "" {
		return fmt.Errorf("package was not loaded")
	}
	dir := pkg.Dir
	if dir == "" {
		dir = universePkg.Dir
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return err
	}

	omit := map[types.Name]struct{}{}
	for _, n := range droppedEmbeddedTypes {
		omit[n] = struct{}{}
	}

	// The packages of this run, in the order the reference sees them (the
	// parser's sorted list of requested packages).
	wanted := map[string]bool{pkg.ImportPath: true}
	for _, m := range apimachineryPackages {
		wanted[m] = true
	}
	var all []*upstreamPackage
	var target *upstreamPackage
	for _, input := range c.Inputs {
		if !wanted[input] {
			continue
		}
		u := c.Universe[input]
		up, err := newUpstreamPackage(u.Path, u.Dir, protoPackageName(input), true, omit)
		if err != nil {
			return err
		}
		st := up.simpleTarget()
		st.HeaderComment = append(append([]byte{}, r.header...), st.HeaderComment...)
		if input == pkg.ImportPath {
			st.PkgDir = dir
			target = up
		}
		all = append(all, up)
	}
	if target == nil {
		return fmt.Errorf("package was not loaded")
	}

	// Importees first, as the reference orders them before assigning types.
	order, err := topologicalOrder(c, all)
	if err != nil {
		return err
	}
	pos := map[string]int{}
	for i, p := range order {
		pos[p] = i
	}
	sort.Sort(byPosition{pos: pos, pkgs: all})

	protobufNames := gtp.NewProtobufNamer()
	for _, up := range all {
		up.addTo(protobufNames)
	}
	c.Namers["proto"] = protobufNames
	if err := protobufNames.AssignTypesToPackages(c); err != nil {
		return fmt.Errorf("assigning types to packages: %w", err)
	}

	guard := &tagGuard{}
	targets := []generator.Target{guardedTarget{Target: target.methods, guard: guard}}

	// First pass: the IDL with gogo-protobuf options, input to the compiler.
	if err := c.ExecuteTargets(targets); err != nil {
		return fmt.Errorf("generating %s: %w", protoFileName, err)
	}
	if guard.err != nil {
		return guard.err
	}
	protoPath := filepath.Join(dir, protoFileName)
	gogoIDL, ok := capture.files[protoPath]
	if !ok {
		return fmt.Errorf("no %s was generated", protoFileName)
	}

	protoName := pkg.ImportPath + "/" + protoFileName
	pbgo, err := r.compileAndGenerate(c, protoName, gogoIDL)
	if err != nil {
		return err
	}

	goPath := filepath.Join(dir, goFileName)
	pbgo, err = r.rewriteFile(pbgo, func(tmpPath string) error {
		return gtp.RewriteGeneratedGogoProtobufFile(tmpPath, target.methods.ExtractGeneratedType, target.methods.OptionalTypeName, r.header, true)
	})
	if err != nil {
		return fmt.Errorf("rewriting %s: %w", goFileName, err)
	}
	if pbgo, err = formatGenerated(goPath, pbgo); err != nil {
		return fmt.Errorf("formatting %s: %w", goFileName, err)
	}

	// Second pass: the IDL as committed, without the gogo-protobuf options.
	target.setOmitGogo(true)
	delete(capture.files, protoPath)
	if err := c.ExecuteTargets(targets); err != nil {
		return fmt.Errorf("generating %s: %w", protoFileName, err)
	}
	if guard.err != nil {
		return guard.err
	}
	finalIDL, ok := capture.files[protoPath]
	if !ok {
		return fmt.Errorf("no %s was generated", protoFileName)
	}
	r.out[protoPath] = finalIDL

	// Struct tags onto the package's Go files, including the new
	// generated.pb.go (the reference globs after writing it).
	tags := target.structTags()
	if len(tags) == 0 {
		r.out[goPath] = pbgo
		return nil
	}
	goFiles, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return err
	}
	if !contains(goFiles, goPath) {
		goFiles = append(goFiles, goPath)
		sort.Strings(goFiles)
	}
	for _, f := range goFiles {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		var src []byte
		if f == goPath {
			src = pbgo
		} else if src, err = os.ReadFile(f); err != nil {
			return err
		}
		rewritten, err := r.rewriteFile(src, func(tmpPath string) error {
			return gtp.RewriteTypesWithProtobufStructTags(tmpPath, tags)
		})
		if err != nil {
			return fmt.Errorf("adding struct tags to %s: %w", f, err)
		}
		if f == goPath || !bytes.Equal(rewritten, src) {
			r.out[f] = rewritten
		}
	}
	return nil
}

// rewriteFile runs an upstream rewrite function, which works in place on a
// path, on src through a temporary file and returns the result.
func (r *run) rewriteFile(src []byte, fn func(path string) error) ([]byte, error) {
	r.seq++
	d := filepath.Join(r.tmp, strconv.Itoa(r.seq))
	if err := os.Mkdir(d, 0o700); err != nil {
		return nil, err
	}
	path := filepath.Join(d, "file.go")
	if err := os.WriteFile(path, src, 0o600); err != nil {
		return nil, err
	}
	if err := fn(path); err != nil {
		return nil, err
	}
	return os.ReadFile(path)
}

// protoPackageName is the protobuf package for a Go import path, as
// go-to-protobuf names it.
func protoPackageName(importPath string) string {
	return strings.NewReplacer("/", ".", "-", "_").Replace(importPath)
}

// topologicalOrder lists the import paths of pkgs and their imports so that
// every package comes after the packages it imports. Packages that become
// ready at the same time are taken in lexical order, so the result (and the
// upstream type assignment that depends on it) is deterministic.
func topologicalOrder(c *generator.Context, pkgs []*upstreamPackage) ([]string, error) {
	importers := map[string]map[string]bool{} // imported -> importers
	pending := map[string]int{}               // package -> unprocessed imports
	nodes := map[string]bool{}
	for _, up := range pkgs {
		path := up.methods.Path()
		u, ok := c.Universe[path]
		if !ok {
			return nil, fmt.Errorf("unknown package %s", path)
		}
		for _, imp := range u.Imports {
			nodes[imp.Path] = true
			if importers[imp.Path] == nil {
				importers[imp.Path] = map[string]bool{}
			}
			if !importers[imp.Path][path] {
				importers[imp.Path][path] = true
				pending[path]++
			}
		}
		if len(u.Imports) > 0 {
			nodes[path] = true
		}
	}
	ready := func(cands []string) []string {
		var out []string
		for _, n := range cands {
			if nodes[n] && pending[n] == 0 {
				out = append(out, n)
				delete(nodes, n)
			}
		}
		sort.Strings(out)
		return out
	}
	order := ready(sortedKeys(nodes))
	for i := 0; i < len(order); i++ {
		var next []string
		for importer := range importers[order[i]] {
			pending[importer]--
			next = append(next, importer)
		}
		order = append(order, ready(next)...)
	}
	if len(nodes) > 0 {
		return nil, fmt.Errorf("import cycle among %v", sortedKeys(nodes))
	}
	return order, nil
}

type byPosition struct {
	pos  map[string]int
	pkgs []*upstreamPackage
}

func (o byPosition) Len() int { return len(o.pkgs) }
func (o byPosition) Less(i, j int) bool {
	return o.pos[o.pkgs[i].methods.Path()] < o.pos[o.pkgs[j].methods.Path()]
}
func (o byPosition) Swap(i, j int) { o.pkgs[i], o.pkgs[j] = o.pkgs[j], o.pkgs[i] }

// checkNullableTags reports malformed +protobuf.nullable tags on map and
// slice types, which upstream treats as fatal while filtering types.
func checkNullableTags(c *generator.Context) error {
	for _, t := range c.Order {
		if t.Kind != types.Alias || t.Underlying == nil || (t.Underlying.Kind != types.Map && t.Underlying.Kind != types.Slice) {
			continue
		}
		if _, err := gengo.ExtractSingleBoolCommentTag("+", "protobuf.nullable", false, t.CommentLines); err != nil {
			return fmt.Errorf("type %s: %w", t.Name, err)
		}
	}
	return nil
}

// tagGuard records the first malformed +protobuf tag seen by a guarded
// generator; upstream treats those as fatal.
type tagGuard struct{ err error }

func (g *tagGuard) check(t *types.Type) bool {
	tags, err := genutil.ExtractCommentTagsWithoutArguments("+", []string{"protobuf"}, t.CommentLines)
	if err == nil && tags["protobuf"] != nil && tags["protobuf"][0] != "true" && tags["protobuf"][0] != "false" {
		err = fmt.Errorf("comment tag \"protobuf\" must be true or false, found %q", tags["protobuf"][0])
	}
	if err != nil {
		if g.err == nil {
			g.err = fmt.Errorf("type %s: %w", t.Name, err)
		}
		return false
	}
	return true
}

// guardedTarget wraps the upstream target so that its generators validate
// +protobuf tags before upstream would exit on them.
type guardedTarget struct {
	generator.Target
	guard *tagGuard
}

func (t guardedTarget) Generators(c *generator.Context) []generator.Generator {
	gens := t.Target.Generators(c)
	out := make([]generator.Generator, len(gens))
	for i, g := range gens {
		out[i] = guardedGenerator{Generator: g, guard: t.guard}
	}
	return out
}

type guardedGenerator struct {
	generator.Generator
	guard *tagGuard
}

func (g guardedGenerator) Filter(c *generator.Context, t *types.Type) bool {
	if !g.guard.check(t) {
		return false
	}
	return g.Generator.Filter(c, t)
}

// captureFileType assembles generated IDL files in memory with upstream's
// assembler and formatter instead of writing them.
type captureFileType struct {
	base  *generator.DefaultFileType
	files map[string][]byte
}

func newCaptureFileType() *captureFileType {
	return &captureFileType{base: gtp.NewProtoFile(), files: map[string][]byte{}}
}

func (ft *captureFileType) AssembleFile(f *generator.File, path string) error {
	b := &bytes.Buffer{}
	et := generator.NewErrorTracker(b)
	ft.base.Assemble(et, f)
	if err := et.Error(); err != nil {
		return err
	}
	out, err := ft.base.Format(b.Bytes())
	if err != nil {
		return fmt.Errorf("formatting %s: %w", path, err)
	}
	ft.files[path] = out
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
