package openapijson

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
)

const (
	fixtureDir  = "testdata/fixture"
	fixturePkg  = "generated_openapi"
	goldenFile  = "testdata/fixture.golden.json"
	treeEnvName = "GATEDCRD_OPENAPIJSON_TREE"
)

func readFixtureDefinitions(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtureDir, fixturePkg, DefinitionsFile))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// listTree returns every path below dir with its size and mode, to check
// that Build writes nothing there.
func listTree(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		b.WriteString(p + " " + info.Mode().String())
		if !d.IsDir() {
			b.WriteString(" " + info.ModTime().String())
		}
		b.WriteString("\n")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func definitionNames(t *testing.T, out []byte) []string {
	t.Helper()
	var doc struct {
		Definitions map[string]json.RawMessage `json:"definitions"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	var names []string
	for n := range doc.Definitions {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func TestBuildGolden(t *testing.T) {
	before := listTree(t, fixtureDir)
	got, err := Build(context.Background(), "", fixtureDir, fixturePkg, readFixtureDefinitions(t))
	if err != nil {
		t.Fatal(err)
	}
	if after := listTree(t, fixtureDir); after != before {
		t.Errorf("Build changed the fixture:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	if *testtree.Update {
		if err := os.WriteFile(goldenFile, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(goldenFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("Build output differs from %s (go test -update rewrites it):\n%s", goldenFile, got)
	}
	// What the golden file is expected to show, in case it was updated
	// carelessly: the v2 schema replaces the definition's own, HTML
	// characters are kept, and the document ends in one newline.
	for _, s := range []string{`"Gadget in its OpenAPI v2 form."`, `<angle> & ampersand`, `"$ref": "#/definitions/example.com/api/v1.Gadget"`, `"title": "OpenShift API"`, `"version": "unversioned"`, `"swagger": "2.0"`} {
		if !bytes.Contains(got, []byte(s)) {
			t.Errorf("output lacks %s", s)
		}
	}
	if bytes.Contains(got, []byte("OpenAPI v3 form")) {
		t.Error("output holds the v3 schema the v2 extension replaces")
	}
	if !bytes.HasSuffix(got, []byte("}\n")) || bytes.HasSuffix(got, []byte("\n\n")) {
		t.Error("output does not end in exactly one newline")
	}
}

func TestBuildCompilesOverlay(t *testing.T) {
	defs := readFixtureDefinitions(t)
	// A third definition, in the given content only.
	third := strings.Replace(string(defs),
		`"example.com/api/v1.Gadget": schemaGadget(ref),`,
		`"example.com/api/v1.Gadget": schemaGadget(ref),
		"example.com/api/v1.Sprocket": {Schema: spec.Schema{SchemaProps: spec.SchemaProps{Description: "only in the overlay", Type: []string{"object"}}}},`, 1)
	if third == string(defs) {
		t.Fatal("fixture definitions changed: the test's edit does not apply")
	}
	before := listTree(t, fixtureDir)
	got, err := Build(context.Background(), "go", fixtureDir, fixturePkg, []byte(third))
	if err != nil {
		t.Fatal(err)
	}
	if after := listTree(t, fixtureDir); after != before {
		t.Errorf("Build changed the fixture:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	want := []string{"example.com/api/v1.Gadget", "example.com/api/v1.Sprocket", "example.com/api/v1.Widget"}
	if names := definitionNames(t, got); strings.Join(names, " ") != strings.Join(want, " ") {
		t.Errorf("definitions = %q, want %q", names, want)
	}
	if !bytes.Contains(got, []byte("only in the overlay")) {
		t.Error("output lacks the overlay's definition")
	}

	// An absolute package directory names the same package.
	abs, err := filepath.Abs(filepath.Join(fixtureDir, fixturePkg))
	if err != nil {
		t.Fatal(err)
	}
	again, err := Build(context.Background(), "go", fixtureDir, abs, []byte(third))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, got) {
		t.Error("an absolute package directory gives other output")
	}
}

func TestBuildSyntaxError(t *testing.T) {
	defs := readFixtureDefinitions(t)
	broken := bytes.Replace(defs, []byte("func GetOpenAPIDefinitions("), []byte("func GetOpenAPIDefinitions(("), 1)
	before := listTree(t, fixtureDir)
	_, err := Build(context.Background(), "", fixtureDir, fixturePkg, broken)
	if err == nil {
		t.Fatal("Build of a definitions file with a syntax error succeeded")
	}
	// The error carries the go command's report, which names the file.
	if !strings.Contains(err.Error(), DefinitionsFile) {
		t.Errorf("error does not carry the go command's report:\n%v", err)
	}
	if after := listTree(t, fixtureDir); after != before {
		t.Errorf("Build changed the fixture:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

func TestBuildOutsideModule(t *testing.T) {
	if _, err := Build(context.Background(), "", fixtureDir, "../elsewhere", nil); err == nil {
		t.Error("Build accepted a package directory outside the module")
	}
}

// TestBuildVendor builds the fixture with a vendor directory (vendor
// mode, the go command's default then) and with a directory of the
// program's name already in the tree.
func TestBuildVendor(t *testing.T) {
	dir := testtree.Copy(t, fixtureDir)
	cmd := exec.Command("go", "mod", "vendor")
	cmd.Dir = dir
	cmd.Env = append(cmd.Environ(), "GOWORK=off", "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod", "GOPROXY=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("go mod vendor (from the module cache only): %v\n%s", err, out)
	}
	// A directory named as the program's own is left alone.
	if err := os.Mkdir(filepath.Join(dir, programDir), 0o755); err != nil {
		t.Fatal(err)
	}
	// Without its go.sum, the fixture builds only in vendor mode.
	if err := os.Remove(filepath.Join(dir, "go.sum")); err != nil {
		t.Fatal(err)
	}
	before := listTree(t, dir)
	got, err := Build(context.Background(), "", dir, fixturePkg, readFixtureDefinitions(t))
	if err != nil {
		t.Fatal(err)
	}
	if after := listTree(t, dir); after != before {
		t.Errorf("Build changed the tree:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	want, err := os.ReadFile(goldenFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("vendor-mode output differs from %s:\n%s", goldenFile, got)
	}
}

// TestRealTree checks, in the checkout $GATEDCRD_OPENAPIJSON_TREE of an
// API repository whose openapi/openapi.json the reference generated, that
// Build of its openapi/generated_openapi/zz_generated.openapi.go gives
// that file byte for byte.
func TestRealTree(t *testing.T) {
	tree := os.Getenv(treeEnvName)
	if tree == "" {
		t.Skip(treeEnvName + " names no API repository checkout")
	}
	pkg := filepath.Join("openapi", "generated_openapi")
	defs, err := os.ReadFile(filepath.Join(tree, pkg, DefinitionsFile))
	if err != nil {
		t.Skipf("the tree has no definitions file: %v", err)
	}
	want, err := os.ReadFile(filepath.Join(tree, "openapi", "openapi.json"))
	if err != nil {
		t.Skipf("the tree has no openapi.json: %v", err)
	}
	before := listTree(t, tree)
	for i := 1; i <= 2; i++ {
		start := time.Now()
		got, err := Build(context.Background(), "", tree, pkg, defs)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("Build %d: %v, %d bytes", i, time.Since(start).Round(time.Millisecond), len(got))
		if !bytes.Equal(got, want) {
			out := "(not kept)"
			if f, err := os.CreateTemp("", "openapijson-*.json"); err == nil {
				_, _ = f.Write(got)
				_ = f.Close()
				out = f.Name()
			}
			t.Fatalf("Build output (%d bytes) differs from openapi/openapi.json (%d bytes); output kept in %s", len(got), len(want), out)
		}
	}
	if after := listTree(t, tree); after != before {
		t.Error("Build changed the tree")
	}
}
