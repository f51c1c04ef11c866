package compatlevel

import (
	"bytes"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/internal/repoconfig"
	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// Input is what Run needs.
type Input struct {
	Discovery *discovery.Result
	// Tree supplies the Go files and receives the edited ones.
	Tree   *tree.Tree
	Config repoconfig.Compatibility
	// ConfigFile locates the exceptions in problems.
	ConfigFile string
	// Partial says that Discovery covers only some group-versions, so an
	// exception matching no type is not an error.
	Partial bool
	// EnforceLevels makes a level that breaks the level rules (GA
	// types at 1 unless excepted, beta at 2, alpha at 4, internal at 4) an
	// error. Otherwise it is a warning and the level the type gives is
	// written, as the reference does: a repository opts in with
	// a compatibility section in .gatedcrd.yaml.
	EnforceLevels bool
}

// Result says what Run did.
type Result struct {
	// Types counts the types that embed TypeMeta.
	Types int
	// Sources maps each Go file whose content changes (absolute path) to
	// its new content; the same content is written into the tree.
	Sources map[string][]byte
}

// Run checks the compatibility markers of every type embedding TypeMeta in
// the discovered versions and writes the files whose compatibility line
// changes into the tree. On errors nothing is written; warnings come with
// the result.
func Run(in Input) (*Result, []diag.Diagnostic) {
	res := &Result{Sources: map[string][]byte{}}
	r := &run{in: in, hits: map[repoconfig.Pattern]int{}}
	for _, g := range in.Discovery.Groups {
		if g.Config.Compatibility.Disabled {
			continue
		}
		for _, v := range g.Versions {
			r.version(v, res)
		}
	}
	if !in.Partial {
		for _, p := range in.Config.Exceptions {
			if r.hits[p] == 0 {
				r.problems = append(r.problems, diag.Errorf(in.ConfigFile, p.Line, "compatibility.exceptions",
					"%q matches no type that embeds TypeMeta (entries are <package directory>.<Type>, e.g. security/v1.RangeAllocation); fix or remove it", p.Glob))
			}
		}
	}
	if slices.ContainsFunc(r.problems, func(d diag.Diagnostic) bool { return d.Severity == diag.Error }) {
		return nil, r.problems
	}
	paths := make([]string, 0, len(res.Sources))
	for p := range res.Sources {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		in.Tree.WriteFile(p, res.Sources[p])
	}
	return res, r.problems
}

type run struct {
	in       Input
	hits     map[repoconfig.Pattern]int
	problems []diag.Diagnostic
}

func (r *run) errorf(file string, line int, subject, format string, args ...any) {
	r.problems = append(r.problems, diag.Errorf(file, line, subject, format, args...))
}

// version edits every Go file of one version package.
func (r *run) version(v *discovery.Version, res *Result) {
	entries, err := r.in.Tree.ReadDir(v.Dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		r.errorf(v.Dir, 0, "", "cannot be read: %v", err)
		return
	}
	rel, _ := filepath.Rel(r.in.Discovery.BaseDir, v.Dir)
	rel = filepath.ToSlash(rel)
	for _, e := range entries {
		if e.IsDir || !strings.HasSuffix(e.Name, ".go") || strings.HasSuffix(e.Name, "_test.go") {
			continue
		}
		file := filepath.Join(v.Dir, e.Name)
		src, err := r.in.Tree.ReadFile(file)
		if err != nil {
			r.errorf(file, 0, "", "cannot be read: %v", err)
			continue
		}
		out, n := r.file(file, src, rel, v.DirName())
		res.Types += n
		if out != nil {
			res.Sources[file] = out
		}
	}
}

// file returns the new content of one Go file (nil when unchanged) and the
// number of types it declares that embed TypeMeta.
func (r *run) file(file string, src []byte, pkgDir, version string) ([]byte, int) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		r.errorf(file, 0, "", "Go syntax error: %v", err)
		return nil, 0
	}
	var edits []edit
	n := 0
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, s := range gd.Specs {
			ts := s.(*ast.TypeSpec)
			if !embedsTypeMeta(ts) {
				continue
			}
			n++
			t := typeDecl{fset: fset, file: f, src: src, decl: gd, spec: ts}
			level, ok := r.level(t, file, pkgDir, version)
			if ok {
				edits = append(edits, t.edits(Line(level))...)
			}
		}
	}
	if len(edits) == 0 {
		return nil, n
	}
	out := apply(src, edits)
	if bytes.Equal(out, src) {
		return nil, n
	}
	return out, n
}

// level reads the markers of a type and checks them against its version.
func (r *run) level(t typeDecl, file, pkgDir, version string) (int, bool) {
	subject := "type " + t.spec.Name.Name
	var d decision
	levelLine := 0
	for _, c := range t.markerComments() {
		text := commentText(c)
		line := t.fset.Position(c.Pos()).Line
		switch {
		case text == internalMarker:
			d.internal = true
		case strings.HasPrefix(text, levelMarker+"="):
			value := strings.TrimPrefix(text, levelMarker+"=")
			n, err := strconv.Atoi(value)
			if err != nil || n < 1 || n > 4 {
				r.errorf(file, line, text, "the level must be 1, 2, 3 or 4")
				return 0, false
			}
			if d.level != 0 && d.level != n {
				r.errorf(file, line, text, "contradicts %s=%d on line %d", levelMarker, d.level, levelLine)
				return 0, false
			}
			d.level, levelLine = n, line
		case text == levelMarker:
			r.errorf(file, line, text, "needs a value: write %s=<1..4>", levelMarker)
			return 0, false
		}
	}
	key := pkgDir + "." + t.spec.Name.Name
	exception := false
	for _, p := range r.in.Config.Exceptions {
		if ok, _ := path.Match(p.Glob, key); ok {
			r.hits[p]++
			exception = true
		}
	}
	level, msg := allowed(d, version, exception)
	if msg == "" {
		return level, true
	}
	line := t.fset.Position(t.spec.Pos()).Line
	if levelLine != 0 {
		line = levelLine
	}
	if d.level != 0 && !r.in.EnforceLevels {
		// The type says its level; only our rule disagrees.
		r.problems = append(r.problems, diag.Warningf(file, line, subject, "%s", msg))
		return d.level, true
	}
	r.errorf(file, line, subject, "%s", msg)
	return 0, false
}

// embedsTypeMeta reports whether ts is a struct with an embedded TypeMeta
// (metav1.TypeMeta or, inside apimachinery, plain TypeMeta).
func embedsTypeMeta(ts *ast.TypeSpec) bool {
	st, ok := ts.Type.(*ast.StructType)
	if !ok || st.Fields == nil {
		return false
	}
	for _, f := range st.Fields.List {
		if len(f.Names) != 0 {
			continue
		}
		switch t := f.Type.(type) {
		case *ast.Ident:
			if t.Name == "TypeMeta" {
				return true
			}
		case *ast.SelectorExpr:
			if t.Sel.Name == "TypeMeta" {
				return true
			}
		}
	}
	return false
}

// commentText is the text of a // comment without the slashes and the
// one space that conventionally follows them.
func commentText(c *ast.Comment) string {
	text, ok := strings.CutPrefix(c.Text, "//")
	if !ok {
		return ""
	}
	return strings.TrimSpace(text)
}
