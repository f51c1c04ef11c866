package openapiv3

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"k8s.io/client-go/discovery"

	"github.com/gatedcrd/gatedcrd/apitest/server"
)

func TestMain(m *testing.M) { os.Exit(server.RunTests(m)) }

// variant is the one the test installs: the example group's Default CRDs.
var variant = []string{"--cluster-profile", "SelfManagedHA", "--feature-set", "Default"}

// TestOfflineDocumentsEqualServed writes the documents offline, installs
// the very CRD files they were built from in a real server, and requires
// each served /openapi/v3/apis/<group>/<version> to be the same bytes.
func TestOfflineDocumentsEqualServed(t *testing.T) {
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	args := append([]string{"-C", filepath.Join(repo, "tools"), "run", "./cmd/codegen", "openapi-v3", "--base-dir", repo,
		"--api-group-versions", "example.openshift.io/v1,example.openshift.io/v1alpha1", "--out", out}, variant...)
	cmd := exec.Command("go", args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	docs := readDocuments(t, out)
	if _, ok := docs["apis/example.openshift.io/v1"]; !ok || len(docs) != 1 {
		t.Fatalf("documents written: %v, want exactly apis/example.openshift.io/v1 (v1alpha1 is not in Default)", keys(docs))
	}

	srv, err := server.Shared()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	data, err := os.ReadFile(filepath.Join(repo, "example/v1/zz_generated.crd-manifests/0000_50_my-operator_01_stableconfigtypes-Default.crd.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := srv.InstallCRDsYAML(ctx, data); err != nil {
		t.Fatal(err)
	}
	client, err := discovery.NewDiscoveryClientForConfig(srv.RESTConfig())
	if err != nil {
		t.Fatal(err)
	}
	for path, offline := range docs {
		served, err := client.RESTClient().Get().AbsPath("/openapi/v3/" + path).Do(ctx).Raw()
		if err != nil {
			t.Fatalf("GET /openapi/v3/%s: %v", path, err)
		}
		var a, b any
		if err := json.Unmarshal(offline, &a); err != nil {
			t.Fatalf("offline %s: %v", path, err)
		}
		if err := json.Unmarshal(served, &b); err != nil {
			t.Fatalf("served %s: %v", path, err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: the offline document differs from the served one\noffline: %.2000s\nserved:  %.2000s", path, offline, served)
			continue
		}
		if !bytes.Equal(offline, served) {
			t.Errorf("%s: equal as JSON but not byte for byte (%d vs %d bytes)", path, len(offline), len(served))
		}
	}
}

// readDocuments returns the files below dir by path without ".json".
func readDocuments(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	docs := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		docs[strings.TrimSuffix(filepath.ToSlash(rel), ".json")] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return docs
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
