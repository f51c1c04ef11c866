package kubeversion

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gatedcrd/gatedcrd/apitest/server"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// TestVersionsEnv lists the Kubernetes versions whose program
// TestProgramServes builds and runs (space-separated, e.g. "1.32 1.35").
// Building a program takes minutes, so none is tested unless asked;
// make test asks for the versions CI needs.
const TestVersionsEnv = "GATEDCRD_TEST_KUBE_VERSIONS"

// TestProgramServes builds the program of each version in
// TestVersionsEnv (or uses the cached one), starts it, installs a CRD,
// checks that the server validates objects against it and stops it,
// which must end the program and remove its directory.
func TestProgramServes(t *testing.T) {
	minors := strings.Fields(os.Getenv(TestVersionsEnv))
	if len(minors) == 0 {
		t.Skipf("set %s to the Kubernetes versions to build and run", TestVersionsEnv)
	}
	crd, err := os.ReadFile(filepath.Join("..", "server", "testdata", "widgets.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, minor := range minors {
		t.Run(minor, func(t *testing.T) {
			v, err := Lookup(minor)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(t.Context(), 60*time.Minute)
			defer cancel()
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp) // where the program keeps its directory
			s, err := Start(ctx, v, Options{})
			if err != nil {
				t.Fatal(err)
			}
			stopped := false
			defer func() {
				if !stopped {
					s.Stop()
				}
			}()
			installed, err := s.InstallCRDsYAML(ctx, crd)
			if err != nil {
				t.Fatalf("installing a CRD: %v", err)
			}
			widgets := s.Objects(server.Resource(installed[0], "v1"), server.DefaultNamespace)
			obj, err := server.DecodeObject([]byte("apiVersion: apitest.gatedcrd.example/v1\nkind: Widget\nspec: {size: Huge}\n"))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := widgets.Create(ctx, obj); !apierrors.IsInvalid(err) {
				t.Errorf("creating a widget of size Huge: %v, want the server's rejection", err)
			}
			stopped = true
			if err := s.Stop(); err != nil {
				t.Errorf("stopping: %v", err)
			}
			if v.Minor == Linked {
				return
			}
			entries, _ := os.ReadDir(tmp)
			for _, e := range entries {
				t.Errorf("the stopped program left %s", e.Name())
			}
		})
	}
}

// TestProgramEnv: a server program gets the collector settings of
// programGC, except those the environment sets itself.
func TestProgramEnv(t *testing.T) {
	got := programEnv([]string{"HOME=/h", "GOGC=50"})
	want := []string{"HOME=/h", "GOGC=50", "GOMEMLIMIT=1536MiB"}
	if !slices.Equal(got, want) {
		t.Errorf("programEnv = %q, want %q", got, want)
	}
	got = programEnv([]string{"HOME=/h"})
	want = []string{"HOME=/h", "GOGC=400", "GOMEMLIMIT=1536MiB"}
	if !slices.Equal(got, want) {
		t.Errorf("programEnv = %q, want %q", got, want)
	}
}
