package kubeprogram

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestGoMod(t *testing.T) {
	v, err := Lookup("v1.32.4")
	if err != nil {
		t.Fatal(err)
	}
	got := string(GoMod("gatedcrd.invalid/x", v))
	for _, want := range []string{"module gatedcrd.invalid/x\n", "\tk8s.io/apiextensions-apiserver v0.32.1\n", "\tgo.etcd.io/etcd/server/v3 v3.5.16\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("go.mod lacks %q:\n%s", want, got)
		}
	}
	if _, err := Lookup("1.29"); err == nil || !strings.Contains(err.Error(), "1.30, 1.31, 1.32") {
		t.Errorf("Lookup(1.29): %v", err)
	}
}

// TestBuildNamesTheEntry: a program's cache directory and file carry its
// name, so programs of one version do not share an entry.
func TestBuildNamesTheEntry(t *testing.T) {
	dir := t.TempDir()
	goCmd := filepath.Join(dir, "go")
	script := "#!/bin/sh\ncase \"$1\" in\nenv) printf 'go1.26.0\\nlinux\\namd64\\n' ;;\nbuild) echo program > \"$4\" ;;\nesac\n"
	if err := os.WriteFile(goCmd, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	v, _ := Lookup("1.33")
	cache := t.TempDir()
	p := Program{Name: "checker", Description: "the checker", Version: v, Files: map[string][]byte{"go.mod": GoMod("gatedcrd.invalid/checker", v), "main.go": []byte("package main\n")}}
	path, err := Build(context.Background(), p, BuildOptions{CacheDir: cache, Go: goCmd})
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(path) != "checker" || filepath.Dir(filepath.Dir(path)) != filepath.Join(cache, "checker") || !strings.HasPrefix(filepath.Base(filepath.Dir(path)), "1.33-") {
		t.Errorf("program at %s, want <cache>/checker/1.33-<hash>/checker", path)
	}
}

// TestBuildFailureSaysWhatItNeeded: a failed build names the release, the
// go that ran, what it fetches and the release that needs no build; the
// go command's own message (here: too old for the release's go line) stays.
func TestBuildFailureSaysWhatItNeeded(t *testing.T) {
	dir := t.TempDir()
	goCmd := filepath.Join(dir, "go")
	script := "#!/bin/sh\ncase \"$1\" in\nenv) printf 'go1.25.5\\nlinux\\namd64\\n' ;;\n" +
		"build) echo 'go: go.mod requires go >= 1.26.0 (running go 1.25.5; GOTOOLCHAIN=local)' >&2; exit 1 ;;\nesac\n"
	if err := os.WriteFile(goCmd, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	v, _ := Lookup("1.36")
	p := Program{Name: "checker", Description: "the checker", Version: v, Files: map[string][]byte{"go.mod": GoMod("gatedcrd.invalid/checker", v), "main.go": []byte("package main\n")}}
	_, err := Build(context.Background(), p, BuildOptions{CacheDir: t.TempDir(), Go: goCmd})
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"building the checker of Kubernetes 1.36", "requires go >= 1.26.0", "The checker of Kubernetes 1.36 is built once", "go1.25.5", "k8s.io/apiextensions-apiserver v0.36.6", "module proxy", "Kubernetes " + Linked + ", which this tool links, needs no build"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
}
