package kubeversion

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// fakeGo writes a go command that answers go env and, for go build,
// writes the -o file after logging its arguments; it fails builds while
// the file fail exists next to it.
func fakeGo(t *testing.T) (goCmd, log string) {
	t.Helper()
	dir := t.TempDir()
	goCmd = filepath.Join(dir, "go")
	log = filepath.Join(dir, "log")
	script := `#!/bin/sh
case "$1" in
env) printf 'go1.26.0\nlinux\namd64\n' ;;
build)
  echo "$PWD $*" >> ` + log + `
  if [ -e ` + filepath.Join(dir, "fail") + ` ]; then echo "cannot compile" >&2; exit 1; fi
  test -f go.mod && test -f main.go && test -f server/server.go || { echo "module incomplete" >&2; exit 1; }
  echo program > apiserver ;;
*) exit 2 ;;
esac
`
	if err := os.WriteFile(goCmd, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return goCmd, log
}

func builds(t *testing.T, log string) []string {
	t.Helper()
	data, err := os.ReadFile(log)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(data)), "\n")
}

func TestBuildCachesThePrograms(t *testing.T) {
	goCmd, log := fakeGo(t)
	cache := t.TempDir()
	v, _ := Lookup("1.32")
	var progress bytes.Buffer
	opts := BuildOptions{CacheDir: cache, Go: goCmd, Progress: &progress}

	// Concurrent callers build once: the lock serialises them and the
	// later ones find the program.
	paths := make([]string, 3)
	var wg sync.WaitGroup
	for i := range paths {
		wg.Go(func() {
			path, err := Build(context.Background(), v, opts)
			if err != nil {
				t.Error(err)
			}
			paths[i] = path
		})
	}
	wg.Wait()
	if n := len(builds(t, log)); n != 1 {
		t.Fatalf("%d builds, want 1: %q", n, builds(t, log))
	}
	if !strings.Contains(builds(t, log)[0], "build -mod=mod -o apiserver .") {
		t.Errorf("build command %q", builds(t, log)[0])
	}
	for _, path := range paths {
		if path != paths[0] {
			t.Errorf("paths differ: %q", paths)
		}
	}
	entry := filepath.Dir(paths[0])
	if filepath.Dir(entry) != filepath.Join(cache, "apiserver") || !strings.HasPrefix(filepath.Base(entry), "1.32-") {
		t.Errorf("program %s is not in <cache>/apiserver/1.32-<hash>/", paths[0])
	}
	if !strings.Contains(progress.String(), "building the API server of Kubernetes 1.32") {
		t.Errorf("no build progress reported: %q", progress.String())
	}

	// Another version is another entry.
	v33, _ := Lookup("1.33")
	other, err := Build(context.Background(), v33, opts)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(other) == entry || len(builds(t, log)) != 2 {
		t.Errorf("1.33 shares 1.32's entry or was not built: %s, %d builds", other, len(builds(t, log)))
	}
	// Nothing but the entries and the lock remain.
	entries, _ := os.ReadDir(filepath.Join(cache, "apiserver"))
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if len(names) != 3 {
		t.Errorf("cache holds %q, want two entries and the lock", names)
	}
}

func TestBuildFailureLeavesNoEntry(t *testing.T) {
	goCmd, _ := fakeGo(t)
	if err := os.WriteFile(filepath.Join(filepath.Dir(goCmd), "fail"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	v, _ := Lookup("1.34")
	_, err := Build(context.Background(), v, BuildOptions{CacheDir: cache, Go: goCmd})
	if err == nil || !strings.Contains(err.Error(), "cannot compile") || !strings.Contains(err.Error(), "Kubernetes 1.34") {
		t.Fatalf("error %v, want the compiler's message", err)
	}
	entries, _ := os.ReadDir(filepath.Join(cache, "apiserver"))
	for _, e := range entries {
		if e.Name() != ".build.lock" {
			t.Errorf("a failed build left %s", e.Name())
		}
	}
}

func TestCacheDir(t *testing.T) {
	t.Setenv(CacheEnv, "/somewhere/else")
	if dir, err := CacheDir(); err != nil || dir != "/somewhere/else" {
		t.Errorf("CacheDir() = %q, %v with %s set", dir, err, CacheEnv)
	}
	t.Setenv(CacheEnv, "")
	t.Setenv("XDG_CACHE_HOME", "/xdg")
	if dir, err := CacheDir(); err != nil || dir != filepath.Join("/xdg", "gatedcrd") {
		t.Errorf("CacheDir() = %q, %v, want below the user cache directory", dir, err)
	}
}
