package kubeversion

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/apitest/server"
)

func TestModuleFiles(t *testing.T) {
	v, err := Lookup("1.32")
	if err != nil {
		t.Fatal(err)
	}
	files, err := moduleFiles(v)
	if err != nil {
		t.Fatal(err)
	}
	goMod := string(files["go.mod"])
	for _, want := range []string{"module " + modulePath + "\n", "\tk8s.io/apiextensions-apiserver v0.32.1\n", "\tgo.etcd.io/etcd/server/v3 v3.5.16\n"} {
		if !strings.Contains(goMod, want) {
			t.Errorf("go.mod lacks %q:\n%s", want, goMod)
		}
	}
	if strings.Contains(string(files["main.go"]), "go:build") {
		t.Error("main.go still carries a build constraint")
	}
	for _, name := range []string{"server/server.go", "server/apiserver.go", "server/etcd.go", "server/crds.go"} {
		if files[name] == nil {
			t.Errorf("the module lacks %s", name)
		}
	}
	fset := token.NewFileSet()
	for name, data := range files {
		if strings.HasSuffix(name, "_test.go") {
			t.Errorf("the module holds the test file %s", name)
		}
		if !strings.HasSuffix(name, ".go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, data, parser.ImportsOnly)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		want := "server"
		if name == "main.go" {
			want = "main"
		}
		if f.Name.Name != want {
			t.Errorf("%s is package %s, want %s", name, f.Name.Name, want)
		}
		for _, imp := range f.Imports {
			if strings.Contains(imp.Path.Value, "github.com/gatedcrd/") {
				t.Errorf("%s imports %s, which the program module cannot resolve", name, imp.Path.Value)
			}
		}
	}
}

// TestOlderVersionsReplaceCompat checks that the program of 1.30 carries
// its own compat.go, and the programs of later versions package server's.
func TestOlderVersionsReplaceCompat(t *testing.T) {
	own, err := server.Source()
	if err != nil {
		t.Fatal(err)
	}
	for _, minor := range []string{"1.30", "1.31", "1.36"} {
		v, err := Lookup(minor)
		if err != nil {
			t.Fatal(err)
		}
		files, err := moduleFiles(v)
		if err != nil {
			t.Fatal(err)
		}
		compat := string(files["server/compat.go"])
		replaced := compat != string(own["compat.go"])
		if replaced != (minor == "1.30") || strings.Contains(compat, "go:build") || !strings.Contains(compat, "func prepareRun(") {
			t.Errorf("%s: compat.go replaced %v, want %v:\n%s", minor, replaced, minor == "1.30", compat)
		}
	}
}

func TestModuleHash(t *testing.T) {
	v32, _ := Lookup("1.32")
	v33, _ := Lookup("1.33")
	f32, err := moduleFiles(v32)
	if err != nil {
		t.Fatal(err)
	}
	f33, err := moduleFiles(v33)
	if err != nil {
		t.Fatal(err)
	}
	base := moduleHash(f32, "go1.26.0\nlinux\namd64")
	if again := moduleHash(f32, "go1.26.0\nlinux\namd64"); again != base {
		t.Errorf("the hash is not stable: %s, then %s", base, again)
	}
	if moduleHash(f32, "go1.26.1\nlinux\namd64") == base {
		t.Error("another toolchain gives the same hash")
	}
	if moduleHash(f33, "go1.26.0\nlinux\namd64") == base {
		t.Error("another version gives the same hash")
	}
	changed := map[string][]byte{}
	for name, data := range f32 {
		changed[name] = data
	}
	changed["server/server.go"] = append([]byte("// changed\n"), changed["server/server.go"]...)
	if moduleHash(changed, "go1.26.0\nlinux\namd64") == base {
		t.Error("a changed server file gives the same hash")
	}
}
