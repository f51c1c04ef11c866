package suite

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/apitest/server"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// request is a run of the pairs of some CRD files, as apitest --serve
// gets one.
type request struct {
	name  string
	files []string // base names of CRD files
}

// TestInstalledAgreesWithOneShot runs a sequence of requests on one server
// keeping the CRDs installed between them (feature set A, then B, then A
// again, then everything), and checks that every request reports what a
// run of the same pairs that installs and removes its CRDs reports, test
// by test; that the switch between feature sets updated the CRD in place
// (its UID stays) and the repeated feature set reused it.
func TestInstalledAgreesWithOneShot(t *testing.T) {
	srv, err := server.Shared()
	if err != nil {
		t.Fatalf("starting the shared API server: %v", err)
	}
	base := copyTree(t, "testdata/run")
	t.Run("testdata", func(t *testing.T) {
		checkInstalledAgrees(t, srv, Options{BaseDir: base, PayloadDir: payloadDir},
			"widgets.suite.gatedcrd.example", "widgets-Default.crd.yaml", "widgets-TechPreviewNoUpgrade.crd.yaml")
	})
	t.Run("example", func(t *testing.T) {
		checkInstalledAgrees(t, srv, Options{BaseDir: "../../example", PayloadDir: "../../payload-manifests/featuregates"},
			"stableconfigtypes.example.openshift.io",
			"0000_50_my-operator_01_stableconfigtypes-Default.crd.yaml", "0000_50_my-operator_01_stableconfigtypes-TechPreviewNoUpgrade.crd.yaml")
	})
}

// checkInstalledAgrees runs the requests of files a, b, a and every file
// with and without Installed and compares the results; crdName is the
// CRD of a and b, whose specs must differ.
func checkInstalledAgrees(t *testing.T, srv *server.Server, opts Options, crdName, a, b string) {
	plan, err := Prepare(opts)
	if err != nil {
		t.Fatal(err)
	}
	opts.Server = srv
	requests := []request{{"A", []string{a}}, {"B", []string{b}}, {"A again", []string{a}}, {"all", nil}}
	oneShot := make([]map[string]string, len(requests))
	for i, req := range requests {
		oneShot[i] = runRequest(t, plan, req, opts)
	}
	in := NewInstalled()
	defer func() {
		if err := in.Remove(context.Background(), srv); err != nil {
			t.Errorf("removing the CRDs left installed: %v", err)
		}
	}()
	opts.Installed = in
	var uids []string
	var stats []Stats
	for i, req := range requests {
		opts.Stats = &Stats{}
		got := runRequest(t, plan, req, opts)
		stats = append(stats, *opts.Stats)
		if !maps.Equal(got, oneShot[i]) {
			t.Errorf("request %s: the results with the CRDs kept installed\n%s\ndiffer from those of a run that installs them\n%s",
				req.name, showResults(got), showResults(oneShot[i]))
		}
		crd, err := srv.GetCRD(t.Context(), crdName)
		if err != nil {
			t.Fatalf("after request %s: %v", req.name, err)
		}
		uids = append(uids, string(crd.UID))
	}
	if stats[1].Updated != 1 || stats[2].Updated != 1 || stats[2].Kept != 0 {
		t.Errorf("switching feature sets: stats %+v then %+v, want one update in place each", stats[1], stats[2])
	}
	if stats[3].Kept == 0 {
		t.Errorf("the last request found nothing installed: %+v", stats[3])
	}
	if uids[0] != uids[1] || uids[1] != uids[2] {
		t.Errorf("the CRD was replaced between the requests (UIDs %v), want it updated in place", uids)
	}
}

// runRequest runs the pairs of the request's files (all when none) and
// returns the outcome of each test by full name (see testOutcomes).
func runRequest(t *testing.T, plan *Plan, req request, opts Options) map[string]string {
	t.Helper()
	selected := plan.Select(func(v *Variant, _ *Suite) bool {
		return len(req.files) == 0 || slices.Contains(req.files, filepath.Base(v.File.Path))
	})
	if selected.Suites() == 0 {
		t.Fatalf("request %s selects nothing", req.name)
	}
	r := newFakeReporter(t)
	RunPlan(r, selected, opts)
	return testOutcomes(r.rec)
}

// generatedName matches the names the server generates for objects
// without one (generateName "<plural>-").
var generatedName = regexp.MustCompile(`\b([a-z]+)-[a-z0-9]{5}\b`)

// testOutcomes renders what was reported about each test: "ok", the
// skip reason, or the errors (generated object names masked).
func testOutcomes(rec *record) map[string]string {
	out := map[string]string{}
	for _, name := range rec.tests {
		if strings.Count(name, "/") >= 3 { // Run/<pair>/<kind>/<test>
			out[name] = "ok"
		}
	}
	for _, s := range rec.skipped {
		out[s.test] = "skipped: " + s.msg
	}
	for _, e := range rec.errors {
		msg := generatedName.ReplaceAllString(e.msg, "$1-xxxxx")
		if out[e.test] == "ok" || out[e.test] == "" {
			out[e.test] = "failed:"
		}
		out[e.test] += "\n" + msg
	}
	return out
}

func showResults(results map[string]string) string {
	var lines []string
	for _, name := range slices.Sorted(maps.Keys(results)) {
		lines = append(lines, fmt.Sprintf("\t%s: %s", name, results[name]))
	}
	return strings.Join(lines, "\n")
}

// TestInstalledReplacesWhatItCannotTrust checks the two cases where a kept
// CRD is not reused: one whose spec something else changed (an
// initialCRDPatches left unreverted) is replaced before the next run, and
// one whose tests left an object behind is deleted after its batch, so
// that the object reaches no later test.
func TestInstalledReplacesWhatItCannotTrust(t *testing.T) {
	srv, err := server.Shared()
	if err != nil {
		t.Fatalf("starting the shared API server: %v", err)
	}
	base := copyTree(t, "testdata/run")
	plan, err := Prepare(Options{BaseDir: base, PayloadDir: payloadDir})
	if err != nil {
		t.Fatal(err)
	}
	req := request{"Default", []string{"widgets-Default.crd.yaml"}}
	in := NewInstalled()
	defer func() {
		if err := in.Remove(context.Background(), srv); err != nil {
			t.Errorf("removing the CRDs left installed: %v", err)
		}
	}()
	opts := Options{Server: srv, Installed: in}
	want := runRequest(t, plan, req, opts)
	const name = "widgets.suite.gatedcrd.example"
	first, err := srv.GetCRD(t.Context(), name)
	if err != nil {
		t.Fatal(err)
	}

	// A patch nobody reverted: the CRD is replaced.
	if _, err := srv.PatchCRD(t.Context(), name, []byte(`[{"op": "add", "path": "/spec/versions/0/schema/openAPIV3Schema/properties/spec/maxProperties", "value": 0}]`)); err != nil {
		t.Fatal(err)
	}
	opts.Stats = &Stats{}
	if got := runRequest(t, plan, req, opts); !maps.Equal(got, want) {
		t.Errorf("after an unreverted patch:\n%s\nwant\n%s", showResults(got), showResults(want))
	}
	second, err := srv.GetCRD(t.Context(), name)
	if err != nil {
		t.Fatal(err)
	}
	if second.UID == first.UID || opts.Stats.Kept+opts.Stats.Updated != 0 {
		t.Errorf("the patched CRD was reused (stats %+v)", opts.Stats)
	}

	// An object left behind: the CRD goes after the batch.
	v := plan.Batches[0][0]
	leftover := &unstructured.Unstructured{Object: map[string]any{"kind": v.CRD.Spec.Names.Kind, "metadata": map[string]any{"name": "leftover"}}}
	objects := srv.Objects(server.Resource(v.CRD, v.Version), server.DefaultNamespace)
	if _, err := objects.Create(t.Context(), leftover); err != nil {
		t.Fatal(err)
	}
	if err := in.settle(t.Context(), srv, []*Variant{v}); err != nil {
		t.Fatal(err)
	}
	if names := in.Names(); len(names) != 0 {
		t.Errorf("CRDs %v kept with an object left", names)
	}
	if _, err := objects.Get(t.Context(), "leftover"); err == nil {
		t.Errorf("the object left behind survived")
	}
}
