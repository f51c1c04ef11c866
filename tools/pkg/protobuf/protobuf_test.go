package protobuf

import (
	"bytes"
	"context"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bufbuild/protocompile"
	"google.golang.org/protobuf/proto"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

const fixtureImportBase = "github.com/gatedcrd/gatedcrd/tools/pkg/protobuf/testdata/"

func fixturePackage(t *testing.T, rel string) Package {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return Package{Dir: dir, ImportPath: fixtureImportBase + rel}
}

// TestFixture generates for small API packages that resolve their imports
// through the tools module and compares every output with
// testdata/golden/<package>/<file>.golden. Run with -update to rewrite the
// goldens. importer/v1 imports fixture/v1, so it is generated from a
// context of its own while fixture/v1 uses the shared one.
func TestFixture(t *testing.T) {
	pkgs := []Package{fixturePackage(t, "fixture/v1"), fixturePackage(t, "importer/v1")}
	out, err := Generate(pkgs, Options{Header: []byte("// Fixture header.\n")})
	if err != nil {
		t.Fatal(err)
	}

	testdata, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	goldenDir := filepath.Join("testdata", "golden")
	got := map[string][]byte{}
	for path, content := range out {
		rel, err := filepath.Rel(testdata, path)
		if err != nil || strings.HasPrefix(rel, "..") {
			t.Fatalf("output %s is outside testdata", path)
		}
		got[filepath.ToSlash(rel)+".golden"] = content
	}
	for _, name := range []string{
		"fixture/v1/" + protoFileName, "fixture/v1/" + goFileName, "fixture/v1/types.go",
		"importer/v1/" + protoFileName, "importer/v1/" + goFileName, "importer/v1/types.go",
	} {
		if _, ok := got[name+".golden"]; !ok {
			t.Errorf("no %s in the output (have %v)", name, sortedKeys(got))
		}
	}
	if _, ok := got["fixture/v1/doc.go.golden"]; ok {
		t.Errorf("doc.go has no struct tags to add and should not be in the output")
	}

	if *update {
		if err := os.RemoveAll(goldenDir); err != nil {
			t.Fatal(err)
		}
		for name, content := range got {
			path := filepath.Join(goldenDir, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, content, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}

	err = filepath.WalkDir(goldenDir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(goldenDir, path)
		if err != nil {
			return err
		}
		if _, ok := got[filepath.ToSlash(rel)]; !ok {
			t.Errorf("golden %s was not generated", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range sortedKeys(got) {
		want, err := os.ReadFile(filepath.Join(goldenDir, filepath.FromSlash(name)))
		if err != nil {
			t.Errorf("no golden for %s (run with -update): %v", name, err)
			continue
		}
		if !bytes.Equal(got[name], want) {
			t.Errorf("%s differs from the golden file (run with -update to accept):\n%s", name, unifiedDiff(string(want), string(got[name])))
		}
	}

	// Nothing may have been written next to the fixtures.
	for _, pkg := range pkgs {
		for _, name := range []string{protoFileName, goFileName} {
			if _, err := os.Stat(filepath.Join(pkg.Dir, name)); err == nil {
				t.Errorf("%s was written into %s", name, pkg.Dir)
			}
		}
	}
}

// TestBadInput checks that inputs the upstream generator rejects (with a
// process exit in the reference) come back as errors.
func TestBadInput(t *testing.T) {
	for _, tc := range []struct {
		pkg  string
		want string
	}{
		{"bad/chanfield", "cannot be converted to protobuf"},
		{"bad/tagvalue", `must be true or false, found "maybe"`},
		{"bad/nullable", "not boolean"},
	} {
		t.Run(tc.pkg, func(t *testing.T) {
			pkg := fixturePackage(t, tc.pkg)
			out, err := Generate([]Package{pkg}, Options{})
			if err == nil {
				t.Fatalf("no error; generated %v", sortedKeys(out))
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q does not mention %q", err, tc.want)
			}
			t.Logf("error: %v", err)
		})
	}

	t.Run("no import path", func(t *testing.T) {
		if _, err := Generate([]Package{{Dir: "testdata"}}, Options{}); err == nil {
			t.Fatal("no error for a package without an import path")
		}
	})
}

// TestBuiltinGogoProto checks the fallback used when a module has no copy of
// gogo.proto: the descriptor compiled into the gogo library, under the
// import path go-to-protobuf writes, must let gogo options be interpreted.
func TestBuiltinGogoProto(t *testing.T) {
	fdp, err := builtinGogoProto()
	if err != nil {
		t.Fatal(err)
	}
	if fdp.GetName() != gogoProtoImport {
		t.Fatalf("name %q, want %q", fdp.GetName(), gogoProtoImport)
	}
	src := `syntax = "proto2";
package example;
import "` + gogoProtoImport + `";
option (gogoproto.marshaler_all) = true;
message M {
  optional string a = 1 [(gogoproto.nullable) = false];
}
`
	compiler := protocompile.Compiler{Resolver: protocompile.WithStandardImports(protocompile.ResolverFunc(func(name string) (protocompile.SearchResult, error) {
		switch name {
		case "example.proto":
			return protocompile.SearchResult{Source: strings.NewReader(src)}, nil
		case gogoProtoImport:
			return protocompile.SearchResult{Proto: fdp}, nil
		}
		return protocompile.SearchResult{}, fs.ErrNotExist
	}))}
	files, err := compiler.Compile(context.Background(), "example.proto")
	if err != nil {
		t.Fatal(err)
	}
	opts := files[0].Messages().Get(0).Fields().Get(0).Options()
	if b, err := proto.Marshal(opts); err != nil || len(b) == 0 {
		t.Fatalf("field options not interpreted: %v %v", b, err)
	}
}
