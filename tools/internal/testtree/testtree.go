// Package testtree helps tests run stages on small API trees.
//
// Go packages of a test tree must belong to a module for go/packages to load
// them. The tools module serves: a fixture is copied below the calling
// package's testdata/ directory (ignored by "./..." patterns but loadable by
// import path), so its packages import k8s.io/apimachinery through the tools
// module's own go.mod. Copies are removed when the test ends.
package testtree

import (
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// Update is set by `go test ... -update` and makes Golden rewrite golden files.
var Update = flag.Bool("update", false, "rewrite golden files instead of comparing")

// Copy copies the directory src (relative to the test's working directory)
// to a fresh directory testdata/run-*/ and returns its absolute path. The
// copy is removed when the test ends.
func Copy(t testing.TB, src string) string {
	t.Helper()
	if err := os.MkdirAll("testdata", 0o755); err != nil {
		t.Fatal(err)
	}
	dst, err := os.MkdirTemp("testdata", "run-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dst) })
	if err := copyDir(src, dst); err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs(dst)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// Write creates a tree from a map of relative path to content below a fresh
// testdata/run-*/ directory and returns its absolute path.
func Write(t testing.TB, files map[string]string) string {
	t.Helper()
	if err := os.MkdirAll("testdata", 0o755); err != nil {
		t.Fatal(err)
	}
	dst, err := os.MkdirTemp("testdata", "run-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dst) })
	Add(t, dst, files)
	abs, err := filepath.Abs(dst)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// Add writes files (relative path → content) into the existing tree dir,
// creating directories as needed.
func Add(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func copyDir(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}

// Snapshot returns every regular file below dir as relative path → content.
func Snapshot(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Paths returns the sorted keys of a snapshot.
func Paths(snap map[string]string) []string {
	out := make([]string, 0, len(snap))
	for p := range snap {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// Golden compares got with the golden file at path, or rewrites the file
// when the test runs with -update.
func Golden(t testing.TB, path string, got []byte) {
	t.Helper()
	if *Update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading golden file (run with -update to create it): %v", err)
	}
	if string(want) != string(got) {
		t.Errorf("%s differs from golden file (run with -update to accept):\n%s", path, FirstDifference(string(want), string(got)))
	}
}

// GoldenDir compares every file below dir with the golden directory, both
// ways (missing and extra files fail), or replaces the golden directory with
// -update.
func GoldenDir(t testing.TB, goldenDir, dir string) {
	t.Helper()
	got := Snapshot(t, dir)
	if *Update {
		_ = os.RemoveAll(goldenDir)
		for rel, content := range got {
			Golden(t, filepath.Join(goldenDir, filepath.FromSlash(rel)), []byte(content))
		}
		return
	}
	want := Snapshot(t, goldenDir)
	for _, rel := range Paths(want) {
		if _, ok := got[rel]; !ok {
			t.Errorf("missing output %s", rel)
		}
	}
	for _, rel := range Paths(got) {
		if _, ok := want[rel]; !ok {
			t.Errorf("unexpected output %s", rel)
			continue
		}
		if got[rel] != want[rel] {
			t.Errorf("%s differs from golden:\n%s", rel, FirstDifference(want[rel], got[rel]))
		}
	}
}

// FirstDifference describes the first line where got differs from want.
func FirstDifference(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return "line " + strconv.Itoa(i+1) + ":\n  want: " + w + "\n  got:  " + g
		}
	}
	return "(no line differs; lengths differ)"
}
