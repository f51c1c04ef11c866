package discovery

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/mod/modfile"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/internal/workers"
)

// Version is one discovered API group-version package.
type Version struct {
	// Group and Version are the values of the GroupVersion literal.
	Group, Version string
	// Dir is the absolute package directory.
	Dir string
	// ImportPath is the Go import path of the package.
	ImportPath string
	// PackageName is the Go package name.
	PackageName string
	// GroupNameMarker is the value of +groupName in doc.go ("" when absent).
	GroupNameMarker string
	// DocFile is the absolute path of doc.go ("" when absent).
	DocFile string
	// FeaturegatedSchemaGen is the value of +openshift:featuregated-schema-gen
	// in doc.go ("" when absent).
	FeaturegatedSchemaGen string
	// DocLines maps the markers read from doc.go to their line numbers.
	DocLines map[string]int

	// Mismatches are a +groupName that disagrees with GroupVersion's Group
	// and a package directory not named after the version. They change the
	// output only of packages stage 1 processes (the CRD takes its group
	// from +groupName and its version from the directory), so stage 1
	// reports them as errors there; discovery itself does not, because the
	// reference accepts such packages (e.g. a docker10 package of version
	// "1.0" without CRD types).
	Mismatches []diag.Diagnostic

	// docProblems are conflicting or empty doc.go markers, reported by
	// checkVersion.
	docProblems []diag.Diagnostic
	// gvFile and gvLine locate the GroupVersion declaration.
	gvFile string
	gvLine int

	// Files are the parsed Go files of the package that the package load
	// compiles (and doc.go), by absolute path, positioned by Result.Fset:
	// the load takes them instead of parsing the files again. With a
	// Memo, those a run before parsed with the same bytes are left out,
	// in Unparsed: the load parses a package missing some of them
	// itself, and a watch (goload.Session) keeps its packages' syntax
	// anyway.
	Files map[string]*ast.File
	// Unparsed are the files a Memo vouches for (absolute paths, in name
	// order).
	Unparsed []string
	// files are the package's files while discovery reads them.
	files []*goFile
}

// Name renders the group-version as --api-group-versions spells it.
func (v *Version) Name() string {
	if v.Group == "" {
		return v.Version
	}
	return v.Group + "/" + v.Version
}

// DirName is the last element of the import path, which the CRD stages use
// as the CRD version name.
func (v *Version) DirName() string { return path.Base(v.ImportPath) }

// Group is one API group and its versions.
type Group struct {
	Name string
	// Dir is the absolute group directory, the parent of every version.
	Dir string
	// Versions are sorted by directory.
	Versions []*Version
	// Config is the group's .codegen.yaml (zero value when absent).
	Config Config
	// ConfigFile is the absolute path of .codegen.yaml, "" when absent.
	ConfigFile string
}

// Result is what Discover found.
type Result struct {
	// BaseDir is the absolute base directory.
	BaseDir string
	// ModulePath and ModuleDir describe the Go module containing BaseDir.
	ModulePath, ModuleDir string
	// Groups are sorted by group name.
	Groups []*Group
	// Fset positions the parsed files of every version (Version.Files).
	Fset *token.FileSet
	// AllImportPaths are the import paths of every group-version below
	// BaseDir, the ones the filter left out too, sorted by directory.
	AllImportPaths []string
}

// Versions returns every version of every group in run order.
func (r *Result) Versions() []*Version {
	var out []*Version
	for _, g := range r.Groups {
		out = append(out, g.Versions...)
	}
	return out
}

// Discover walks baseDir for API group-versions. When filter is non-empty
// only the group-versions it names are returned; an entry that names none is
// an error. Problems that only exclude a package (a malformed GroupVersion)
// are warnings in the returned list; the error result is non-nil only when
// the run cannot go on.
func Discover(baseDir string, filter []string) (*Result, *diag.List, error) {
	return DiscoverWith(baseDir, filter, Options{})
}

// Options are the optional inputs of DiscoverWith.
type Options struct {
	// Selected, when set, is called once the selected group-versions are
	// known, before their files are parsed whole: with the absolute base
	// directory, the file set that will position their files
	// (Result.Fset) and their import paths. The caller may start loading
	// them; discovery may still fail, or drop a version whose files do not
	// parse.
	Selected func(baseDir string, fset *token.FileSet, importPaths []string)
	// Memo, when set, keeps what discovery read of each package directory
	// for the next run with the same memo (codegen watch).
	Memo *Memo
}

// DiscoverWith is Discover with Options.
func DiscoverWith(baseDir string, filter []string, opts Options) (*Result, *diag.List, error) {
	problems := &diag.List{}
	base, err := filepath.Abs(baseDir)
	if err != nil {
		return nil, problems, err
	}
	if info, err := os.Stat(base); err != nil || !info.IsDir() {
		return nil, problems, fmt.Errorf("base directory %s does not exist or is not a directory", baseDir)
	}
	modDir, modPath, err := findModule(base)
	if err != nil {
		return nil, problems, err
	}
	res := &Result{BaseDir: base, ModulePath: modPath, ModuleDir: modDir, Fset: token.NewFileSet()}

	dirs, err := packageDirs(base, opts.Memo)
	if err != nil {
		return nil, problems, err
	}
	versions, err := parsePackages(dirs, modDir, modPath, res.Fset, opts.Memo, problems)
	if err != nil {
		return nil, problems, err
	}
	sort.Slice(versions, func(i, j int) bool { return versions[i].Dir < versions[j].Dir })
	for _, v := range versions {
		res.AllImportPaths = append(res.AllImportPaths, v.ImportPath)
	}

	if len(filter) > 0 {
		versions, err = applyFilter(versions, filter)
		if err != nil {
			return nil, problems, err
		}
	}
	if opts.Selected != nil && len(versions) > 0 {
		paths := make([]string, len(versions))
		for i, v := range versions {
			paths[i] = v.ImportPath
		}
		opts.Selected(base, res.Fset, paths)
	}
	// Only the selected versions are parsed whole; one with a syntax
	// error is dropped, as the go command cannot build it.
	if err := readSources(versions); err != nil {
		return nil, problems, err
	}
	ctx := buildContext()
	parsed := versions[:0]
	for _, v := range versions {
		if parseSelected(v, ctx, res.Fset, opts.Memo, problems) {
			parsed = append(parsed, v)
		}
	}
	versions = parsed
	for _, v := range versions {
		checkVersion(v, base, problems)
	}
	groups, err := groupVersions(versions, base)
	if err != nil {
		return nil, problems, err
	}
	for _, g := range groups {
		cfg, file, err := LoadConfig(g.Dir)
		if err != nil {
			problems.AddError(err)
			continue
		}
		g.Config, g.ConfigFile = cfg, file
	}
	res.Groups = groups
	if problems.HasErrors() {
		return res, problems, problems.Err()
	}
	return res, problems, nil
}

// pkgDir is a directory that may hold a package, and its entries; kept
// says they are a listing memo kept (Memo.KeepListings).
type pkgDir struct {
	path    string
	entries []os.DirEntry
	kept    bool
}

// packageDirs returns base and every directory below it that may hold a
// package, parents first and in name order, reading each directory once
// (unless memo kept its listing). The directories of one depth are read
// on every core: listing the tree is most of what discovery does when a
// Memo serves the packages.
func packageDirs(base string, memo *Memo) ([]pkgDir, error) {
	root := &dirNode{path: base}
	for level := []*dirNode{root}; len(level) > 0; {
		workers.Each(len(level), func(i int) { level[i].read(base, memo) })
		var next []*dirNode
		for _, n := range level {
			next = append(next, n.children...)
		}
		level = next
	}
	var dirs []pkgDir
	// Not "return dirs, root.flatten(&dirs)": whether dirs is read before
	// or after the call that fills it would be up to the compiler.
	err := root.flatten(&dirs)
	return dirs, err
}

// dirNode is a directory of the tree packageDirs lists.
type dirNode struct {
	path     string
	entries  []os.DirEntry
	kept     bool // the entries are a listing the memo kept
	err      error
	module   bool // the root of another module: left out with its subtree
	children []*dirNode
}

func (n *dirNode) read(base string, memo *Memo) {
	l := memo.listing(n.path)
	if l != nil {
		n.kept = true
	} else {
		entries, err := os.ReadDir(n.path)
		if err != nil {
			n.err = err
			return
		}
		l = &listing{entries: entries, module: holdsModule(n.path, entries)}
		memo.keepListing(n.path, l)
	}
	n.entries = l.entries
	if n.path != base && l.module {
		n.module = true
		return
	}
	for _, e := range n.entries {
		if e.IsDir() && !SkipsDir(e.Name()) {
			n.children = append(n.children, &dirNode{path: filepath.Join(n.path, e.Name())})
		}
	}
}

// flatten appends n and its subtree to dirs, parents first, and returns
// the first error in that order.
func (n *dirNode) flatten(dirs *[]pkgDir) error {
	if n.err != nil {
		return n.err
	}
	if n.module {
		return nil
	}
	*dirs = append(*dirs, pkgDir{path: n.path, entries: n.entries, kept: n.kept})
	for _, c := range n.children {
		if err := c.flatten(dirs); err != nil {
			return err
		}
	}
	return nil
}

// parsePackages runs parsePackage on every directory (through memo when
// set), on every core: reading every Go file of the tree is most of
// discovery's time, system calls above all. The problems and the error
// are those of a run in directory order: the problems of the directories before the first one
// that fails to read, and that failure.
func parsePackages(dirs []pkgDir, modDir, modPath string, fset *token.FileSet, memo *Memo, problems *diag.List) ([]*Version, error) {
	type result struct {
		v        *Version
		problems *diag.List
		err      error
	}
	results := make([]result, len(dirs))
	workers.Each(len(dirs), func(i int) {
		r := &results[i]
		r.problems = &diag.List{}
		if memo != nil {
			r.v, r.err = memo.parse(dirs[i], modDir, modPath, fset, r.problems)
		} else {
			r.v, r.err = parsePackage(dirs[i], modDir, modPath, fset, r.problems)
		}
	})
	var versions []*Version
	for _, r := range results {
		problems.Add(r.problems.Items()...)
		if r.err != nil {
			return nil, r.err
		}
		if r.v != nil {
			versions = append(versions, r.v)
		}
	}
	return versions, nil
}

// SkipsDir says whether discovery leaves out a directory, and everything
// below it, by its name: vendor, the directories the go command ignores
// (testdata, ".*", "_*"), and the generator's output directories
// ("zz_generated.*"), which hold manifests and at most the doc.go stage 3
// writes, never an API package. Skipping those matters for codegen watch:
// openshift/api has 181 of them, which every cycle would list again.
func SkipsDir(name string) bool {
	switch name {
	case ".git", "vendor", "testdata":
		return true
	}
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || strings.HasPrefix(name, "zz_generated.")
}

// holdsModule says whether the directory p, with entries, is the root of
// another module (it has a go.mod), which the go command does not build
// as part of this one.
func holdsModule(p string, entries []os.DirEntry) bool {
	for _, e := range entries {
		if e.Name() == "go.mod" {
			_, err := os.Stat(filepath.Join(p, "go.mod"))
			return err == nil
		}
	}
	return false
}

func findModule(dir string) (string, string, error) {
	for d := dir; ; {
		data, err := os.ReadFile(filepath.Join(d, "go.mod"))
		if err == nil {
			mp := modfile.ModulePath(data)
			if mp == "" {
				return "", "", fmt.Errorf("%s: no module line", filepath.Join(d, "go.mod"))
			}
			return d, mp, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", "", fmt.Errorf("no go.mod found in %s or any parent directory: the base directory must be inside a Go module", dir)
		}
		d = parent
	}
}

func findGroupVersionSpec(files []*ast.File) (*ast.ValueSpec, *ast.File) {
	for _, f := range files {
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, s := range gd.Specs {
				vs := s.(*ast.ValueSpec)
				if len(vs.Names) > 0 && vs.Names[0].Name == "GroupVersion" {
					return vs, f
				}
			}
		}
	}
	return nil, nil
}

func groupVersionLiteral(vs *ast.ValueSpec) *ast.CompositeLit {
	if len(vs.Values) == 0 {
		return nil
	}
	lit, ok := vs.Values[0].(*ast.CompositeLit)
	if !ok {
		return nil
	}
	return lit
}

// packageStrings maps every package-level const or var initialised with a
// string literal to its value, across all files of the package.
func packageStrings(files []*ast.File) map[string]string {
	out := map[string]string{}
	for _, f := range files {
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || (gd.Tok != token.CONST && gd.Tok != token.VAR) {
				continue
			}
			for _, s := range gd.Specs {
				vs := s.(*ast.ValueSpec)
				for i, name := range vs.Names {
					if i >= len(vs.Values) {
						break
					}
					if bl, ok := vs.Values[i].(*ast.BasicLit); ok && bl.Kind == token.STRING {
						if s, err := strconv.Unquote(bl.Value); err == nil {
							out[name.Name] = s
						}
					}
				}
			}
		}
	}
	return out
}

func stringValue(e ast.Expr, consts map[string]string) (string, error) {
	switch x := e.(type) {
	case *ast.BasicLit:
		if x.Kind == token.STRING {
			return strconv.Unquote(x.Value)
		}
	case *ast.Ident:
		if s, ok := consts[x.Name]; ok {
			return s, nil
		}
		return "", fmt.Errorf("%s is not a package-level constant or variable initialised with a string literal", x.Name)
	}
	return "", errors.New("must be a string literal or the name of a package-level string constant")
}

func readDocMarkers(fset *token.FileSet, f *ast.File, v *Version) {
	v.DocLines = map[string]int{}
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			line := strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(c.Text, "//"), "/*"))
			name, value, hasValue := strings.Cut(line, "=")
			if !hasValue {
				continue
			}
			var dst *string
			switch name {
			case "+groupName":
				dst = &v.GroupNameMarker
			case "+openshift:featuregated-schema-gen":
				dst = &v.FeaturegatedSchemaGen
			default:
				continue
			}
			n := fset.Position(c.Pos()).Line
			switch first, seen := v.DocLines[name]; {
			case value == "":
				v.docProblems = append(v.docProblems, diag.Errorf(v.DocFile, n, line, "has no value: write %s=<value>", name))
			case seen && *dst != value:
				v.docProblems = append(v.docProblems, diag.Errorf(v.DocFile, n, line, "contradicts %s=%s on line %d", name, *dst, first))
			}
			if _, seen := v.DocLines[name]; !seen {
				*dst = value
				v.DocLines[name] = n
			}
		}
	}
}

func applyFilter(versions []*Version, filter []string) ([]*Version, error) {
	wanted := map[string]bool{}
	var order []string
	for _, entry := range filter {
		for _, e := range strings.Split(entry, ",") {
			if e = strings.TrimSpace(e); e != "" && !wanted[e] {
				wanted[e] = true
				order = append(order, e)
			}
		}
	}
	matched := map[string]bool{}
	var out []*Version
	for _, v := range versions {
		if wanted[v.Name()] {
			matched[v.Name()] = true
			out = append(out, v)
		}
	}
	var missing []string
	for _, e := range order {
		if !matched[e] {
			missing = append(missing, e)
		}
	}
	if len(missing) > 0 {
		e := &FilterError{Unmatched: missing}
		for _, v := range versions {
			e.Known = append(e.Known, v.Name())
		}
		return nil, e
	}
	return out, nil
}

// FilterError says that entries of Discover's filter match no API
// group-version. It does not name the option that set the filter: the
// caller does (codegen: its --api-group-versions flag).
type FilterError struct {
	// Unmatched are the entries that match nothing, Known the
	// group-versions of the base directory.
	Unmatched, Known []string
}

func (e *FilterError) Error() string {
	known := "known: " + strings.Join(e.Known, ", ")
	if len(e.Known) == 0 {
		known = "the base directory holds no API group-version at all"
	}
	return fmt.Sprintf("%s match(es) no API group-version (entries are <group>/<version>, comma-separated); %s", strings.Join(e.Unmatched, ", "), known)
}

// checkVersion reports broken doc.go markers and records in v.Mismatches a
// +groupName that disagrees with GroupVersion and a package directory that
// is not named after the version.
func checkVersion(v *Version, base string, problems *diag.List) {
	problems.Add(v.docProblems...)
	if v.GroupNameMarker != "" && v.GroupNameMarker != v.Group {
		v.Mismatches = append(v.Mismatches, diag.Errorf(v.DocFile, v.DocLines["+groupName"], "+groupName="+v.GroupNameMarker,
			"does not match GroupVersion's Group %q", v.Group))
	}
	if v.DirName() != v.Version {
		v.Mismatches = append(v.Mismatches, diag.Errorf(v.gvFile, v.gvLine, "GroupVersion",
			"declares version %q but the package directory is %q: the CRD stages name the version after the directory, so they must agree", v.Version, v.DirName()))
	}
}

// relDir renders dir relative to base for messages.
func relDir(base, dir string) string {
	if r, err := filepath.Rel(base, dir); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return dir
}

func groupVersions(versions []*Version, base string) ([]*Group, error) {
	byName := map[string]*Group{}
	var groups []*Group
	for _, v := range versions {
		g := byName[v.Group]
		if g == nil {
			g = &Group{Name: v.Group, Dir: filepath.Dir(v.Dir)}
			byName[v.Group] = g
			groups = append(groups, g)
		}
		if filepath.Dir(v.Dir) != g.Dir {
			return nil, diag.Errorf(v.gvFile, v.gvLine, "GroupVersion",
				"API group %q has versions in different directories (%s and %s): all versions of a group must share one parent directory",
				v.Group, relDir(base, g.Versions[0].Dir), relDir(base, v.Dir))
		}
		g.Versions = append(g.Versions, v)
	}
	sort.Slice(groups, func(i, j int) bool { return groups[i].Name < groups[j].Name })
	return groups, nil
}
