package discovery

import (
	"bytes"
	"errors"
	"go/ast"
	"go/build"
	"go/parser"
	"go/scanner"
	"go/token"
	"io"
	"os"
	"path"
	"path/filepath"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/internal/workers"
	"github.com/gatedcrd/gatedcrd/tools/pkg/genfiles"
)

// parseMode is how discovery parses a whole file. The syntax trees of the
// selected versions are handed to the package load (Result.Files), so it
// is also what every stage sees: comments are kept for markers; object
// resolution is skipped because go/types, controller-tools and the stages
// resolve identifiers through type information, never ast.Object.
const parseMode = parser.ParseComments | parser.SkipObjectResolution

// gvName is the variable that makes a package an API group-version.
var gvName = []byte("GroupVersion")

// mayDeclareGroupVersion reports whether src has a line that may start the
// declaration of a package-level variable whose first name is GroupVersion
// (the only ones findGroupVersionSpec accepts): "var GroupVersion ...", or
// the name first on a line of a var block. A file without such a line
// cannot make its package an API group-version, so discovery reads only
// its package clause; a false match only costs a whole parse. (Most files
// that merely mention GroupVersion, like a generated OpenAPI table of
// several megabytes, are not parsed.)
func mayDeclareGroupVersion(src []byte) bool {
	for off := 0; ; {
		i := bytes.Index(src[off:], gvName)
		if i < 0 {
			return false
		}
		i += off
		off = i + len(gvName)
		if off < len(src) && isIdentByte(src[off]) {
			continue
		}
		lineStart := bytes.LastIndexByte(src[:i], '\n') + 1
		prefix := bytes.TrimLeft(src[lineStart:i], " \t")
		if rest, ok := bytes.CutPrefix(prefix, []byte("var")); ok {
			prefix = bytes.TrimLeft(bytes.TrimPrefix(bytes.TrimLeft(rest, " \t"), []byte("(")), " \t")
		}
		if len(prefix) == 0 {
			return true
		}
	}
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// goFile is one non-test Go file of a package directory.
type goFile struct {
	name string // absolute path
	src  []byte
	// syntax is the whole file, once parsed (else only its package clause
	// was read).
	syntax *ast.File
}

// parsePackage reads the non-test Go files of dir and returns the
// group-version it declares, or nil. Only files that mention GroupVersion
// are parsed whole (plus the others when the literal names a constant they
// may declare); of the rest only the package clause is read, for the
// one-package-per-directory check. The whole package is parsed later, by
// parseSelected, and only for the versions a run selects.
func parsePackage(pd pkgDir, modDir, modPath string, fset *token.FileSet, problems *diag.List) (*Version, error) {
	dir := pd.path
	clauses := token.NewFileSet()
	var files []*goFile
	var pkgName string
	for _, e := range pd.entries {
		if !isPackageFile(e) {
			continue
		}
		gf := &goFile{name: filepath.Join(dir, e.Name())}
		var err error
		if gf.src, err = os.ReadFile(gf.name); err != nil {
			return nil, err
		}
		f := clauseOrWhole(gf, fset, clauses, problems)
		if f == nil {
			return nil, nil
		}
		if pkgName == "" {
			pkgName = f.Name.Name
		} else if f.Name.Name != pkgName {
			fs := clauses
			if gf.syntax != nil {
				fs = fset
			}
			problems.Add(diag.Errorf(gf.name, fs.Position(f.Name.Pos()).Line, "package "+f.Name.Name,
				"the directory already holds package %s (%s): the go command builds a directory as one package", pkgName, filepath.Base(files[0].name)))
			return nil, nil
		}
		files = append(files, gf)
	}
	spec, file := findGroupVersionSpec(parsedSyntax(files))
	if spec == nil {
		return nil, nil
	}
	pos := fset.Position(spec.Pos())
	lit := groupVersionLiteral(spec)
	if lit == nil {
		problems.Add(diag.Warningf(pos.Filename, pos.Line, "GroupVersion", "is not initialised with a schema.GroupVersion{Group: ..., Version: ...} literal; package ignored"))
		return nil, nil
	}
	v := &Version{Dir: dir, PackageName: file.Name.Name, gvFile: pos.Filename, gvLine: pos.Line, files: files}
	consts := packageStrings(parsedSyntax(files))
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		key, ok := kv.Key.(*ast.Ident)
		if !ok || (key.Name != "Group" && key.Name != "Version") {
			continue
		}
		val, err := stringValue(kv.Value, consts)
		if id, ok := kv.Value.(*ast.Ident); ok && err != nil {
			// The constant may live in a file read only up to its package
			// clause so far: parse those that mention it.
			mentions := func(gf *goFile) bool { return bytes.Contains(gf.src, []byte(id.Name)) }
			if !parseAll(files, mentions, fset, problems) {
				return nil, nil
			}
			consts = packageStrings(parsedSyntax(files))
			val, err = stringValue(kv.Value, consts)
		}
		if err != nil {
			p := fset.Position(kv.Value.Pos())
			problems.Add(diag.Errorf(p.Filename, p.Line, "GroupVersion."+key.Name, "%v", err))
			return nil, nil
		}
		if key.Name == "Group" {
			v.Group = val
		} else {
			v.Version = val
		}
	}
	if v.Version == "" {
		problems.Add(diag.Errorf(pos.Filename, pos.Line, "GroupVersion", "has no Version"))
		return nil, nil
	}
	rel, err := filepath.Rel(modDir, dir)
	if err != nil {
		return nil, err
	}
	v.ImportPath = modPath
	if rel != "." {
		v.ImportPath = path.Join(modPath, filepath.ToSlash(rel))
	}
	return v, nil
}

// clauseOrWhole parses gf whole when it mentions GroupVersion, else only
// its package clause (into clauses, a throw-away file set). A syntax error
// is reported and yields nil.
func clauseOrWhole(gf *goFile, fset, clauses *token.FileSet, problems *diag.List) *ast.File {
	if mayDeclareGroupVersion(gf.src) {
		if !parseWhole(gf, fset, problems) {
			return nil
		}
		return gf.syntax
	}
	f, err := parser.ParseFile(clauses, gf.name, gf.src, parser.PackageClauseOnly)
	if err != nil {
		reportSyntax(gf.name, err, problems)
		return nil
	}
	return f
}

// parseWhole parses gf whole into fset unless it already is. A syntax error
// is reported and yields false: the go command cannot build the package
// either, and skipping it would silently leave an API package without
// manifests.
func parseWhole(gf *goFile, fset *token.FileSet, problems *diag.List) bool {
	if gf.syntax != nil {
		return true
	}
	f, err := parser.ParseFile(fset, gf.name, gf.src, parseMode)
	if err != nil {
		reportSyntax(gf.name, err, problems)
		return false
	}
	gf.syntax = f
	return true
}

func reportSyntax(name string, err error, problems *diag.List) {
	var list scanner.ErrorList
	if errors.As(err, &list) && len(list) > 0 {
		problems.Add(diag.Errorf(name, list[0].Pos.Line, "", "Go syntax error: %s", list[0].Msg))
	} else {
		problems.Add(diag.Errorf(name, 0, "", "cannot parse Go file: %v", err))
	}
}

// parseAll parses whole, in parallel, every file of files that want
// accepts (every file when want is nil), and reports the syntax error of
// the first failing file in directory order. It returns false on an error.
func parseAll(files []*goFile, want func(*goFile) bool, fset *token.FileSet, problems *diag.List) bool {
	errs := make([]*diag.List, len(files))
	workers.Each(len(files), func(i int) {
		gf := files[i]
		if gf.syntax != nil || (want != nil && !want(gf)) {
			return
		}
		errs[i] = &diag.List{}
		parseWhole(gf, fset, errs[i])
	})
	for _, e := range errs {
		if e != nil && e.HasErrors() {
			problems.Add(e.Items()...)
			return false
		}
	}
	return true
}

func parsedSyntax(files []*goFile) []*ast.File {
	var out []*ast.File
	for _, gf := range files {
		if gf.syntax != nil {
			out = append(out, gf.syntax)
		}
	}
	return out
}

// buildContext decides which files the package load compiles: the go
// command's defaults with the tag controller-tools' loader sets
// (ignore_autogenerated, which leaves out deepcopy and swagger-doc files),
// and without cgo, as the load lists packages (goload).
func buildContext() build.Context {
	ctx := build.Default
	ctx.BuildTags = append(append([]string(nil), ctx.BuildTags...), "ignore_autogenerated")
	ctx.CgoEnabled = false
	return ctx
}

// readSources reads the files of the versions whose contents discovery
// has not read yet (those a Memo served), on every core.
func readSources(versions []*Version) error {
	var files []*goFile
	for _, v := range versions {
		for _, gf := range v.files {
			if gf.src == nil {
				files = append(files, gf)
			}
		}
	}
	errs := make([]error, len(files))
	workers.Each(len(files), func(i int) { files[i].src, errs[i] = os.ReadFile(files[i].name) })
	return errors.Join(errs...)
}

// parseSelected parses whole the files of v that the package load
// compiles, and doc.go for its markers, and records them in v.Files. A
// syntax error is reported and yields false. Files the go command leaves
// out under the loader's build tags, and generated code the load leaves
// out (genfiles.Unneeded), are not parsed: no stage reads them; nor are
// those memo saw parse with the same bytes (Memo.parsedBefore).
func parseSelected(v *Version, ctx build.Context, fset *token.FileSet, memo *Memo, problems *diag.List) bool {
	srcs := map[string][]byte{}
	for _, gf := range v.files {
		srcs[gf.name] = gf.src
	}
	ctx.OpenFile = func(p string) (io.ReadCloser, error) {
		if src, ok := srcs[p]; ok {
			return io.NopCloser(bytes.NewReader(src)), nil
		}
		return os.Open(p)
	}
	compiled := func(gf *goFile) bool {
		if filepath.Base(gf.name) == "doc.go" {
			return true
		}
		if genfiles.Unneeded(gf.name, gf.src) {
			return false // the load leaves it out too (goload)
		}
		ok, err := ctx.MatchFile(filepath.Dir(gf.name), filepath.Base(gf.name))
		// A file whose constraints cannot be read is parsed, so that its
		// problem is reported.
		return ok || err != nil
	}
	// Decided on every core first: parseAll asks on every core too,
	// and v.Unparsed keeps the files' order.
	wanted, vouched := make([]bool, len(v.files)), make([]bool, len(v.files))
	workers.Each(len(v.files), func(i int) {
		gf := v.files[i]
		if !compiled(gf) {
			return
		}
		vouched[i] = gf.syntax == nil && filepath.Base(gf.name) != "doc.go" && memo.parsedBefore(gf)
		wanted[i] = !vouched[i]
	})
	index := map[*goFile]int{}
	for i, gf := range v.files {
		index[gf] = i
		if vouched[i] {
			v.Unparsed = append(v.Unparsed, gf.name)
		}
	}
	if !parseAll(v.files, func(gf *goFile) bool { return wanted[index[gf]] }, fset, problems) {
		return false
	}
	v.Files = map[string]*ast.File{}
	for _, gf := range v.files {
		if gf.syntax == nil {
			continue
		}
		memo.noteParsed(gf)
		v.Files[gf.name] = gf.syntax
		if filepath.Base(gf.name) == "doc.go" {
			v.DocFile = gf.name
			readDocMarkers(fset, gf.syntax, v)
		}
	}
	v.files = nil
	return true
}
