package gengo

import (
	"bytes"
	"fmt"
	"go/format"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/imports"
	"k8s.io/gengo/v2/generator"
	"k8s.io/gengo/v2/namer"

	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// Run is one gengo generator's execution: the packages it reads and the
// targets it builds from them.
type Run struct {
	// Inputs are the import paths the generator generates for.
	Inputs []string
	// NameSystems and DefaultSystem are the generator's namers; the
	// default one orders the types.
	NameSystems   namer.NameSystems
	DefaultSystem string
	// Targets returns the generator's targets for the context.
	Targets func(*generator.Context) []generator.Target
	// Place, when set, maps the path gengo would write a file to onto
	// the path the run records it at: a generator whose output directory
	// may not exist yet gets an existing one from Target (see OutputDir).
	Place func(path string) string
}

// Execute runs r over the universe and records every file its targets
// generate in t; it returns the recorded paths, sorted. Nothing is
// written to disk.
func (u *Universe) Execute(t *tree.Tree, r Run) ([]string, error) {
	s := &sink{tree: t, place: r.Place}
	c := u.context(r.Inputs, r.NameSystems, r.DefaultSystem, s)
	targets := r.Targets(c)
	if err := c.ExecuteTargets(targets); err != nil {
		return nil, err
	}
	sort.Strings(s.paths)
	return s.paths, nil
}

// sink is the gengo file type that assembles a Go file in memory, formats
// it as gengo's own file type does, and records it in a tree.
type sink struct {
	tree  *tree.Tree
	place func(string) string
	paths []string
}

// AssembleFile implements generator.FileType.
func (s *sink) AssembleFile(f *generator.File, path string) error {
	var b bytes.Buffer
	assembleGoFile(&b, f)
	out, err := formatGo(b.Bytes())
	if err != nil {
		return fmt.Errorf("formatting generated file %s: %w", path, err)
	}
	if s.place != nil {
		path = s.place(path)
	}
	s.tree.Put(path, out)
	s.paths = append(s.paths, filepath.Clean(path))
	return nil
}

// assembleGoFile lays out a generated file the way gengo's Go file type
// does: header, package clause, imports, package variables and constants,
// then the body.
func assembleGoFile(b *bytes.Buffer, f *generator.File) {
	b.Write(f.Header)
	fmt.Fprintf(b, "package %v\n\n", f.PackageName)
	if len(f.Imports) > 0 {
		b.WriteString("import (\n")
		for _, imp := range sortedImports(f.Imports) {
			if strings.Contains(imp, `"`) {
				fmt.Fprintf(b, "\t%s\n", imp)
			} else {
				fmt.Fprintf(b, "\t%q\n", imp)
			}
		}
		b.WriteString(")\n\n")
	}
	if f.Vars.Len() > 0 {
		b.WriteString("var (\n")
		b.Write(f.Vars.Bytes())
		b.WriteString(")\n\n")
	}
	if f.Consts.Len() > 0 {
		b.WriteString("const (\n")
		b.Write(f.Consts.Bytes())
		b.WriteString(")\n\n")
	}
	b.Write(f.Body.Bytes())
}

// sortedImports lists a file's imports in a fixed order; goimports sorts
// them again, so only determinism matters here.
func sortedImports(m map[string]struct{}) []string {
	out := make([]string, 0, len(m))
	for imp := range m {
		out = append(out, imp)
	}
	sort.Strings(out)
	return out
}

// formatGo formats generated code as gengo does: goimports in format-only
// mode, then gofmt's layout. gengo also runs a gofmt binary with -s when
// one is on PATH; the generators used here emit nothing -s would simplify,
// and running in process keeps the bytes independent of PATH.
func formatGo(src []byte) ([]byte, error) {
	out, err := imports.Process("", src, &imports.Options{Comments: true, TabIndent: true, TabWidth: 8, FormatOnly: true})
	if err != nil {
		return nil, err
	}
	return format.Source(out)
}
