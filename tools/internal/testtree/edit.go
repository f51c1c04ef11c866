package testtree

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// ToggleDoc edits the description of the first field of the first struct
// of a Go file, or undoes that edit, saving by rename as editors do: the
// edit benchmarks of codegen watch make on every iteration.
func ToggleDoc(t testing.TB, p string) {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	const mark = "Edited by the benchmark. "
	if strings.Contains(s, mark) {
		s = strings.Replace(s, mark, "", 1)
	} else {
		s = strings.Replace(s, "struct {\n\t// ", "struct {\n\t// "+mark, 1)
	}
	SaveByRename(t, p, s)
}

// ToggleField adds field (Go source, one or more whole lines) at the top
// of the struct named typeName in a Go file, or removes it when it is
// there, saving by rename: the type edits of the benchmarks that change
// a CRD's schema.
func ToggleField(t testing.TB, p, typeName, field string) {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	decl := "type " + typeName + " struct {\n"
	switch {
	case strings.Contains(s, field):
		s = strings.Replace(s, field, "", 1)
	case strings.Contains(s, decl):
		s = strings.Replace(s, decl, decl+field, 1)
	default:
		t.Fatalf("%s: no %q", p, decl)
	}
	SaveByRename(t, p, s)
}

// SaveByRename writes content to a new file and renames it over p, as
// editors save.
func SaveByRename(t testing.TB, p, content string) {
	t.Helper()
	tmp := p + ".new"
	if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, p); err != nil {
		t.Fatal(err)
	}
}

// RealTree fetches module and prepares it as make conformance does
// (hack/real-tree.sh fetch, the script given relative to the test's
// working directory), with its generated files, in a fresh directory.
func RealTree(t testing.TB, script, module string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "tree")
	if out, err := exec.Command(script, "fetch", module, dir).CombinedOutput(); err != nil {
		t.Fatalf("%s fetch %s: %v\n%s", script, module, err, out)
	}
	return dir
}
