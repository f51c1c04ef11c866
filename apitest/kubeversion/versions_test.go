package kubeversion

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestLookup(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"1.32", "v0.32.1"},
		{"v1.33", "v0.33.13"},
		{"1.37.2", "v0.37.0"},
		{" 1.36 ", "v0.36.6"},
	} {
		v, err := Lookup(tc.in)
		if err != nil || v.APIExtensions != tc.want {
			t.Errorf("Lookup(%q) = %+v, %v; want apiextensions-apiserver %s", tc.in, v, err, tc.want)
		}
	}
	for _, in := range []string{"1.29", "1.38", "", "one"} {
		if _, err := Lookup(in); err == nil || !strings.Contains(err.Error(), "supported are 1.30, 1.31, 1.32, 1.33, 1.34, 1.35, 1.36, 1.37") {
			t.Errorf("Lookup(%q) error %v, want one listing the supported versions", in, err)
		}
	}
}

// TestVersionsCoverEveryMinor checks the table: every minor from 1.30 to
// the linked one, in order, each pinning a release of its own minor.
func TestVersionsCoverEveryMinor(t *testing.T) {
	vs := Versions()
	for i, v := range vs {
		minor := strings.TrimPrefix(v.Minor, "1.")
		if !strings.HasPrefix(v.APIExtensions, "v0."+minor+".") {
			t.Errorf("%s pins k8s.io/apiextensions-apiserver %s of another minor", v.Minor, v.APIExtensions)
		}
		if want := "1." + strconv.Itoa(30+i); v.Minor != want {
			t.Errorf("entry %d is %s, want %s", i, v.Minor, want)
		}
	}
	if vs[len(vs)-1].Minor != Linked {
		t.Errorf("the newest version %s is not the linked one %s", vs[len(vs)-1].Minor, Linked)
	}
}

// TestLinkedVersionIsTheLinkedModule checks that the table's entry for
// Linked names the apiextensions-apiserver release this module requires.
func TestLinkedVersionIsTheLinkedModule(t *testing.T) {
	goMod, err := os.ReadFile(filepath.Join("..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	v, err := Lookup(Linked)
	if err != nil {
		t.Fatal(err)
	}
	if want := "\tk8s.io/apiextensions-apiserver " + v.APIExtensions + "\n"; !strings.Contains(string(goMod), want) {
		t.Errorf("the apitest module does not require k8s.io/apiextensions-apiserver %s, which the table pins for %s", v.APIExtensions, Linked)
	}
}
