package crdvalidate

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/crdvalidate/admission"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifestmerge"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// countingServer is the linked release under another identity, counting
// the requests that reach it.
type countingServer struct {
	id    string
	calls atomic.Int32
}

func (s *countingServer) ID() string { return s.id }

func (s *countingServer) Validate(r admission.Request) (admission.Outcome, error) {
	s.calls.Add(1)
	return linked{}.Validate(r)
}

// TestVerdictsCache: an unchanged CRD is answered from the cache; a
// changed CRD, another server or a damaged entry is validated again, so a
// stale verdict is never reused.
func TestVerdictsCache(t *testing.T) {
	cache := OpenVerdicts(t.TempDir())
	valid := crd("            type: object\n            x-kubernetes-validations:\n            - rule: self == self\n")
	broken := crd("            type: object\n            x-kubernetes-validations:\n            - rule: self.nope()\n")
	dir := t.TempDir()
	path := filepath.Join(dir, "things.crd.yaml")
	run := func(server *countingServer, data []byte) (calls int32, findings int) {
		t.Helper()
		tr := tree.New()
		tr.WriteFile(path, data)
		before := server.calls.Load()
		res, err := Run(Input{Tree: tr, BaseDir: dir, Files: []string{path}, Problems: &diag.List{}, Server: server, Verdicts: cache})
		if err != nil {
			t.Fatal(err)
		}
		calls = server.calls.Load() - before
		if int(calls)+res.Cached != 1 {
			t.Errorf("%d validation(s) and %d verdict(s) from the cache for one CRD", calls, res.Cached)
		}
		return calls, res.Findings
	}
	a := &countingServer{id: "a"}
	steps := []struct {
		name      string
		server    *countingServer
		data      []byte
		wantCalls int32
		findings  int
	}{
		{"first run", a, valid, 1, 0},
		{"nothing changed", a, valid, 0, 0},
		{"CRD changed", a, broken, 1, 1},
		{"changed CRD again", a, broken, 0, 1},
		{"changed back", a, valid, 0, 0},
		{"another server", &countingServer{id: "b"}, valid, 1, 0},
	}
	for _, s := range steps {
		if calls, findings := run(s.server, s.data); calls != s.wantCalls || findings != s.findings {
			t.Errorf("%s: %d validation(s) and %d finding(s), want %d and %d", s.name, calls, findings, s.wantCalls, s.findings)
		}
	}
	// A damaged entry is a miss, and is replaced.
	entries, _ := filepath.Glob(filepath.Join(cache.dir, "a", "*.json"))
	if len(entries) != 2 {
		t.Fatalf("cache entries of server a: %v", entries)
	}
	for _, e := range entries {
		os.WriteFile(e, []byte("{"), 0o644)
	}
	if calls, findings := run(a, broken); calls != 1 || findings != 1 {
		t.Errorf("damaged entry: %d validation(s), %d finding(s)", calls, findings)
	}
	// A server without an identity is never cached.
	tr := tree.New()
	tr.WriteFile(path, valid)
	if _, err := Run(Input{Tree: tr, BaseDir: dir, Files: []string{path}, Problems: &diag.List{}, Server: anonymous{}, Verdicts: cache}); err != nil {
		t.Fatal(err)
	}
	if dirs, _ := os.ReadDir(cache.dir); len(dirs) != 2 {
		t.Errorf("cache directories %v, want a and b only", dirs)
	}
}

type anonymous struct{}

func (anonymous) Validate(r admission.Request) (admission.Outcome, error) {
	return linked{}.Validate(r)
}

// TestLinkedID: the linked release's verdicts are cached under an
// identity naming its release.
func TestLinkedID(t *testing.T) {
	if id := (linked{}).ID(); !strings.HasPrefix(id, "linked-"+LinkedKubeVersion+"-") {
		t.Errorf("linked ID %q", id)
	}
}

// TestMergedAsFiles: manifests handed over by the merge (objects, sent as
// JSON) get exactly the findings of the same manifests read from files.
func TestMergedAsFiles(t *testing.T) {
	specs := []string{
		"            type: object\n            x-kubernetes-validations:\n            - rule: self.nope()\n",
		"            type: object\n            properties:\n              count:\n                type: integer\n                maximum: 5\n                default: 7\n",
		"            type: object\n            properties:\n              l:\n                type: array\n                maxItems: 3.5\n                items:\n                  type: string\n",
		"            type: string\n            x-kubernetes-validations:\n            - rule: self.size() > 1.5\n              message: x\n",
	}
	dir := t.TempDir()
	tr := tree.New()
	var files []string
	var merged []*manifestmerge.Output
	for i, spec := range specs {
		data := crd(spec)
		path := filepath.Join(dir, fmt.Sprintf("f%d.crd.yaml", i))
		tr.WriteFile(path, data)
		files = append(files, path)
		obj, err := manifest.Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		merged = append(merged, &manifestmerge.Output{Path: path, Object: obj, Data: data})
	}
	fromFiles, fromMerged := &diag.List{}, &diag.List{}
	if _, err := Run(Input{Tree: tr, BaseDir: dir, Files: files, Problems: fromFiles}); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(Input{Tree: tree.New(), BaseDir: dir, Merged: merged, Problems: fromMerged}); err != nil {
		t.Fatal(err)
	}
	a, b := fmt.Sprint(fromFiles.Items()), fmt.Sprint(fromMerged.Items())
	if a != b || fromFiles.ErrorCount() != 3 {
		t.Errorf("from files:\n%s\nhanded over:\n%s", a, b)
	}
}
