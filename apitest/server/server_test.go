package server

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/wait"
)

func TestMain(m *testing.M) { os.Exit(RunTests(m)) }

// sharedServer returns the shared server, failing the test if it cannot
// start. Its start-up time is logged once.
func sharedServer(t *testing.T) *Server {
	t.Helper()
	start := time.Now()
	s, err := Shared()
	if err != nil {
		t.Fatalf("starting the shared API server: %v", err)
	}
	if d := time.Since(start); d > 100*time.Millisecond {
		t.Logf("shared API server started in %v", d.Round(time.Millisecond))
	}
	return s
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func readTestdata(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func mustDecodeObject(t *testing.T, text string) *unstructured.Unstructured {
	t.Helper()
	obj, err := DecodeObject([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return obj
}

// wantInvalid checks that err is the server's rejection of an invalid
// object and that its message contains every fragment.
func wantInvalid(t *testing.T, err error, fragments ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("want an Invalid error containing %q, got success", fragments)
	}
	if !apierrors.IsInvalid(err) {
		t.Fatalf("want an Invalid error, got %v", err)
	}
	for _, f := range fragments {
		if !strings.Contains(err.Error(), f) {
			t.Errorf("error %q does not contain %q", err, f)
		}
	}
}

func TestWidgetLifecycle(t *testing.T) {
	widgetLifecycle(t, sharedServer(t))
}

// TestWidgetLifecycleWithoutOpenAPIWaits runs the lifecycle with the CRD
// helpers waiting only for the handler of custom resources, as the suite
// runner has them: every install, patch, revert and reinstall must still
// take effect before the helper returns.
func TestWidgetLifecycleWithoutOpenAPIWaits(t *testing.T) {
	s := sharedServer(t)
	s.SetOpenAPIWaits(false)
	t.Cleanup(func() { s.SetOpenAPIWaits(true) })
	widgetLifecycle(t, s)
}

func widgetLifecycle(t *testing.T, s *Server) {
	ctx := testContext(t)

	start := time.Now()
	installed, err := s.InstallCRDsYAML(ctx, readTestdata(t, "widgets.yaml"))
	returned := time.Now()
	if err != nil {
		t.Fatalf("installing the CRD: %v", err)
	}
	t.Logf("CRD installed and served in %v", returned.Sub(start).Round(time.Millisecond))
	crd := installed[0]
	// Creates must not be delayed any more once InstallCRDs has returned:
	// it must not return before the server's post-establishment delay is
	// over. Compared on the clock, not as a duration, so a slow machine
	// cannot fail it.
	established := findCondition(crd, apiextensionsv1.Established)
	if established == nil {
		t.Fatalf("the installed CRD has no Established condition: %+v", crd.Status.Conditions)
	}
	if over := established.LastTransitionTime.Add(establishedCreateDelay); returned.Before(over) {
		t.Errorf("InstallCRDs returned at %v, before the post-establishment delay of creates ended at %v", returned, over)
	}
	t.Cleanup(func() {
		if err := s.DeleteCRDs(context.Background(), crd.Name); err != nil {
			t.Errorf("cleaning up: %v", err)
		}
	})
	widgets := s.Objects(Resource(crd, "v1"), DefaultNamespace)

	// An object that passes validation.
	start = time.Now()
	created, err := widgets.Create(ctx, mustDecodeObject(t, `
apiVersion: apitest.gatedcrd.example/v1
kind: Widget
spec:
  size: Small
  replicas: 1
  maxReplicas: 3
`))
	if err != nil {
		t.Fatalf("creating a valid widget: %v", err)
	}
	t.Logf("first create answered in %v", time.Since(start).Round(time.Millisecond))
	if !strings.HasPrefix(created.GetName(), "widgets-") || created.GetNamespace() != DefaultNamespace {
		t.Errorf("created %s/%s, want a generated name in namespace %s", created.GetNamespace(), created.GetName(), DefaultNamespace)
	}
	if got, _, _ := unstructured.NestedInt64(created.Object, "spec", "replicas"); got != 1 {
		t.Errorf("stored spec.replicas = %d, want 1", got)
	}

	// Objects that fail the enum and the CEL rule.
	_, err = widgets.Create(ctx, mustDecodeObject(t, `
apiVersion: apitest.gatedcrd.example/v1
kind: Widget
spec:
  size: Medium
`))
	wantInvalid(t, err, `spec.size: Unsupported value: "Medium"`, `"Small"`, `"Large"`)

	invalidCEL := `
apiVersion: apitest.gatedcrd.example/v1
kind: Widget
spec:
  replicas: 5
  maxReplicas: 3
`
	_, err = widgets.Create(ctx, mustDecodeObject(t, invalidCEL))
	wantInvalid(t, err, "replicas must not exceed maxReplicas")

	// Status goes through the status subresource only.
	created.Object["status"] = map[string]any{"phase": "Ready"}
	updated, err := widgets.UpdateStatus(ctx, created)
	if err != nil {
		t.Fatalf("updating the status: %v", err)
	}
	if phase, _, _ := unstructured.NestedString(updated.Object, "status", "phase"); phase != "Ready" {
		t.Errorf("status.phase = %q after the status update, want Ready", phase)
	}
	updated.Object["status"] = map[string]any{"phase": "Exploded"}
	_, err = widgets.UpdateStatus(ctx, updated)
	wantInvalid(t, err, `status.phase: Unsupported value: "Exploded"`)

	spec := updated.DeepCopy()
	spec.Object["status"] = map[string]any{"phase": "Pending"}
	if err := unstructured.SetNestedField(spec.Object, "Large", "spec", "size"); err != nil {
		t.Fatal(err)
	}
	afterSpec, err := widgets.Update(ctx, spec)
	if err != nil {
		t.Fatalf("updating the spec: %v", err)
	}
	if phase, _, _ := unstructured.NestedString(afterSpec.Object, "status", "phase"); phase != "Ready" {
		t.Errorf("a main-resource update changed status.phase to %q", phase)
	}
	got, err := widgets.Get(ctx, created.GetName())
	if err != nil {
		t.Fatal(err)
	}
	if size, _, _ := unstructured.NestedString(got.Object, "spec", "size"); size != "Large" {
		t.Errorf("spec.size = %q after the update, want Large", size)
	}

	// A patch that drops the CEL rule lets the object in; reverting it
	// brings the rule back.
	start = time.Now()
	revert, err := s.PatchCRD(ctx, crd.Name, []byte(`[
		{"op": "remove", "path": "/spec/versions/0/schema/openAPIV3Schema/properties/spec/x-kubernetes-validations"}
	]`))
	if err != nil {
		t.Fatalf("patching the CRD: %v", err)
	}
	t.Logf("CRD patched and served in %v", time.Since(start).Round(time.Millisecond))
	grandfathered, err := widgets.Create(ctx, mustDecodeObject(t, invalidCEL))
	if err != nil {
		t.Fatalf("creating with the CEL rule patched away: %v", err)
	}
	if err := revert(ctx); err != nil {
		t.Fatalf("reverting the patch: %v", err)
	}
	_, err = widgets.Create(ctx, mustDecodeObject(t, invalidCEL))
	wantInvalid(t, err, "replicas must not exceed maxReplicas")
	// Ratcheting: an update that leaves spec alone passes the rule the
	// stored object breaks; one that touches spec does not.
	grandfathered.SetLabels(map[string]string{"touched": "yes"})
	grandfathered, err = widgets.Update(ctx, grandfathered)
	if err != nil {
		t.Errorf("an update leaving the invalid spec alone was rejected: %v", err)
	} else {
		if err := unstructured.SetNestedField(grandfathered.Object, "Small", "spec", "size"); err != nil {
			t.Fatal(err)
		}
		_, err = widgets.Update(ctx, grandfathered)
		wantInvalid(t, err, "replicas must not exceed maxReplicas")
	}

	// The same name again, with another schema.
	start = time.Now()
	if err := s.DeleteCRDs(ctx, crd.Name); err != nil {
		t.Fatalf("deleting the CRD: %v", err)
	}
	t.Logf("CRD deleted in %v", time.Since(start).Round(time.Millisecond))
	if _, err := s.InstallCRDsYAML(ctx, readTestdata(t, "widgets-v2.yaml")); err != nil {
		t.Fatalf("installing the second variant: %v", err)
	}
	_, err = widgets.Create(ctx, mustDecodeObject(t, `
apiVersion: apitest.gatedcrd.example/v1
kind: Widget
spec:
  size: Small
`))
	wantInvalid(t, err, `spec.size: Unsupported value: "Small"`, `spec.colour: Required value`)
	if _, err := widgets.Create(ctx, mustDecodeObject(t, `
apiVersion: apitest.gatedcrd.example/v1
kind: Widget
spec:
  size: Huge
  colour: blue
`)); err != nil {
		t.Fatalf("creating a widget valid for the second variant: %v", err)
	}
	if _, err := widgets.Get(ctx, created.GetName()); !apierrors.IsNotFound(err) {
		t.Errorf("an object of the deleted CRD survived: %v", err)
	}
}

// TestStartStop runs a second, private server next to the shared one and
// checks that Start sweeps stale directories and Stop removes its own.
func TestStartStop(t *testing.T) {
	sharedServer(t) // a second server must coexist with the shared one
	root := t.TempDir()
	stale := filepath.Join(root, fmt.Sprintf("%s%d-1", tempDirPrefix, deadPID(t)))
	if err := os.MkdirAll(filepath.Join(stale, "certs"), 0o700); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	s, err := Start(testContext(t), Options{TempRoot: root})
	if err != nil {
		t.Fatalf("starting: %v", err)
	}
	t.Logf("private API server started in %v", time.Since(start).Round(time.Millisecond))
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("Start left the stale directory %s (stat: %v)", stale, err)
	}
	dir := s.Dir()
	if filepath.Dir(dir) != root {
		t.Errorf("server directory %s is not in %s", dir, root)
	}
	if pid, ok := ownerPID(filepath.Base(dir)); !ok || pid != os.Getpid() {
		t.Errorf("server directory %s does not name this process", dir)
	}
	for _, sub := range []string{"etcd", "certs"} {
		if _, err := os.Stat(filepath.Join(dir, sub)); err != nil {
			t.Errorf("server directory lacks %s: %v", sub, err)
		}
	}
	if shared, _ := Shared(); shared.EtcdPrefix() == s.EtcdPrefix() {
		t.Errorf("two servers share the etcd prefix %s", s.EtcdPrefix())
	}

	if _, err := s.InstallCRDsYAML(testContext(t), readTestdata(t, "widgets.yaml")); err != nil {
		t.Fatalf("installing a CRD: %v", err)
	}

	start = time.Now()
	if err := s.Stop(); err != nil {
		t.Errorf("stopping: %v", err)
	}
	t.Logf("private API server stopped in %v", time.Since(start).Round(time.Millisecond))
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("server directory %s still exists after Stop (stat: %v)", dir, err)
	}
	if err := s.Stop(); err != nil {
		t.Errorf("a second Stop: %v", err)
	}
}

// TestInstallIsAllOrNothing installs a batch whose second CRD the server
// rejects and checks that the first one is removed again.
func TestInstallIsAllOrNothing(t *testing.T) {
	s := sharedServer(t)
	ctx := testContext(t)
	crds, err := DecodeCRDs(readTestdata(t, "widgets.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	broken := crds[0].DeepCopy()
	broken.Name = "gadgets.apitest.gatedcrd.example"
	broken.Spec.Names = apiextensionsv1.CustomResourceDefinitionNames{Plural: "gadgets", Kind: "Gadget", ListKind: "GadgetList", Singular: "gadget"}
	broken.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"].XValidations[0].Rule = "self.replicas <"

	_, err = s.InstallCRDs(ctx, crds[0], broken)
	if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), "compilation failed") {
		t.Fatalf("want the server to reject the broken CEL rule, got %v", err)
	}
	if strings.Contains(err.Error(), "partly installed") {
		t.Errorf("removing the rest of the batch failed: %v", err)
	}
	if _, err := s.GetCRD(ctx, crds[0].Name); !apierrors.IsNotFound(err) {
		t.Errorf("the valid CRD of the failed batch is still installed: %v", err)
	}
}

// TestFailedStartCleansUp checks that a Start that cannot finish leaves no
// directory behind.
func TestFailedStartCleansUp(t *testing.T) {
	sharedServer(t) // keep the shared server's logging set-up first
	root := t.TempDir()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if s, err := Start(ctx, Options{TempRoot: root}); err == nil {
		s.Stop()
		t.Fatal("Start succeeded with a cancelled context")
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 0 {
		t.Errorf("a failed Start left %d entries in its temporary root, e.g. %s", len(entries), entries[0].Name())
	}
}

// TestDeleteNudgesLingeringCRD holds a deleted CRD back with a finalizer of
// its own and checks that DeleteCRDs nudges it and returns once the
// finalizer is gone. (The stall the nudge is for cannot be provoked at
// will.)
func TestDeleteNudgesLingeringCRD(t *testing.T) {
	s := sharedServer(t)
	ctx := testContext(t)
	crds, err := DecodeCRDs(readTestdata(t, "widgets.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	crd := crds[0]
	crd.Name = "sprockets.apitest.gatedcrd.example"
	crd.Spec.Names = apiextensionsv1.CustomResourceDefinitionNames{Plural: "sprockets", Kind: "Sprocket", ListKind: "SprocketList", Singular: "sprocket"}
	crd.Finalizers = []string{"apitest.gatedcrd.io/test-hold"}
	if _, err := s.InstallCRDs(ctx, crd); err != nil {
		t.Fatal(err)
	}

	deleted := make(chan error, 1)
	go func() { deleted <- s.DeleteCRDs(ctx, crd.Name) }()

	err = wait.PollUntilContextCancel(ctx, pollInterval, true, func(ctx context.Context) (bool, error) {
		current, err := s.GetCRD(ctx, crd.Name)
		if err != nil {
			return false, err
		}
		return current.Annotations[nudgeAnnotation] != "", nil
	})
	if err != nil {
		t.Fatalf("waiting for the nudge: %v", err)
	}
	select {
	case err := <-deleted:
		t.Fatalf("DeleteCRDs returned while the CRD was held: %v", err)
	default:
	}
	current, err := s.GetCRD(ctx, crd.Name)
	if err != nil {
		t.Fatal(err)
	}
	current.Finalizers = slices.DeleteFunc(current.Finalizers, func(f string) bool { return f == "apitest.gatedcrd.io/test-hold" })
	if _, err := s.crds.ApiextensionsV1().CustomResourceDefinitions().Update(ctx, current, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("releasing the CRD: %v", err)
	}
	if err := <-deleted; err != nil {
		t.Errorf("DeleteCRDs: %v", err)
	}
}
