package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/controller/openapi/builder"
	apiextensionsfeatures "k8s.io/apiextensions-apiserver/pkg/features"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
)

// CRD is the type the helpers install.
type CRD = apiextensionsv1.CustomResourceDefinition

// pollInterval is how often the CRD helpers look at the server while they
// wait for it to catch up.
const pollInterval = 50 * time.Millisecond

// establishedCreateDelay is how long after a CRD became Established the
// server makes every create of its resources sleep. The server does this
// (for two seconds, measured from the condition's last transition time)
// so that other members of an HA control plane can catch up; here it only
// costs time, so the install helpers wait it out once for a whole batch.
const establishedCreateDelay = 2 * time.Second

// DecodeCRDs decodes one or more CustomResourceDefinitions from YAML (with
// "---" between documents) or JSON. Empty documents are skipped; documents
// of another kind are an error.
func DecodeCRDs(data []byte) ([]*CRD, error) {
	decoder := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	var crds []*CRD
	for i := 0; ; i++ {
		var raw json.RawMessage
		if err := decoder.Decode(&raw); err != nil {
			if errors.Is(err, io.EOF) {
				return crds, nil
			}
			return nil, fmt.Errorf("document %d: %w", i, err)
		}
		if len(bytes.TrimSpace(raw)) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
			continue
		}
		crd := &CRD{}
		if err := json.Unmarshal(raw, crd); err != nil {
			return nil, fmt.Errorf("document %d: %w", i, err)
		}
		if gvk := crd.GroupVersionKind(); gvk != apiextensionsv1.SchemeGroupVersion.WithKind("CustomResourceDefinition") {
			return nil, fmt.Errorf("document %d: want a %s CustomResourceDefinition, got apiVersion %q kind %q",
				i, apiextensionsv1.SchemeGroupVersion, crd.APIVersion, crd.Kind)
		}
		crds = append(crds, crd)
	}
}

// SingleVersion returns a copy of crd that defines only the named version,
// served and used for storage. The copy carries no conversion settings (a
// single version needs none), no status and no server-set metadata, so it
// can be installed as it is.
func SingleVersion(crd *CRD, version string) (*CRD, error) {
	i := slices.IndexFunc(crd.Spec.Versions, func(v apiextensionsv1.CustomResourceDefinitionVersion) bool {
		return v.Name == version
	})
	if i < 0 {
		return nil, fmt.Errorf("CRD %s has no version %q", crd.Name, version)
	}
	in := crd.DeepCopy()
	out := &CRD{
		TypeMeta:   metav1.TypeMeta{APIVersion: apiextensionsv1.SchemeGroupVersion.String(), Kind: "CustomResourceDefinition"},
		ObjectMeta: metav1.ObjectMeta{Name: in.Name, Labels: in.Labels, Annotations: in.Annotations},
		Spec:       in.Spec,
	}
	v := out.Spec.Versions[i]
	v.Served = true
	v.Storage = true
	out.Spec.Versions = []apiextensionsv1.CustomResourceDefinitionVersion{v}
	out.Spec.Conversion = nil
	return out, nil
}

// Resource returns the resource of crd in the given version.
func Resource(crd *CRD, version string) schema.GroupVersionResource {
	return schema.GroupVersionResource{Group: crd.Spec.Group, Version: version, Resource: crd.Spec.Names.Plural}
}

// InstallCRDs creates all the given CRDs, then waits until the server
// serves every one of them: each is Established, discovery and the OpenAPI
// v3 document list the resource of each served version (without OpenAPI
// waits, see SetOpenAPIWaits: the handler of custom resources has seen
// it), and the server's post-establishment delay of creates (see
// establishedCreateDelay) is over. Waiting for a whole batch at once costs the delay once rather than
// once per CRD.
//
// The CRDs must not exist yet: reinstalling a name needs DeleteCRDs first.
// It returns the CRDs as the server has them, in the order given. When it
// fails, it deletes the CRDs it created, so that a batch is installed
// whole or not at all.
func (s *Server) InstallCRDs(ctx context.Context, crds ...*CRD) (_ []*CRD, err error) {
	var created []string
	defer func() {
		if err != nil && len(created) > 0 {
			cleanup, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
			defer cancel()
			if cleanupErr := s.DeleteCRDs(cleanup, created...); cleanupErr != nil {
				err = errors.Join(err, fmt.Errorf("removing the partly installed batch: %w", cleanupErr))
			}
		}
	}()
	for _, crd := range crds {
		in := crd.DeepCopy()
		in.ResourceVersion = ""
		in.UID = ""
		in.Status = apiextensionsv1.CustomResourceDefinitionStatus{}
		if _, err := s.crds.ApiextensionsV1().CustomResourceDefinitions().Create(ctx, in, metav1.CreateOptions{}); err != nil {
			return nil, fmt.Errorf("creating CRD %s: %w", crd.Name, err)
		}
		created = append(created, crd.Name)
	}
	installed, err := s.waitEstablished(ctx, crds)
	if err != nil {
		return nil, err
	}
	if err := s.waitDiscovery(ctx, installed); err != nil {
		return nil, err
	}
	if err := s.waitServed(ctx, installed); err != nil {
		return nil, err
	}
	var latest time.Time
	for _, crd := range installed {
		if c := findCondition(crd, apiextensionsv1.Established); c != nil && c.LastTransitionTime.After(latest) {
			latest = c.LastTransitionTime.Time
		}
	}
	if err := sleepUntil(ctx, latest.Add(establishedCreateDelay)); err != nil {
		return nil, err
	}
	return installed, nil
}

// InstallCRDsYAML decodes CRDs from the given YAML or JSON documents (see
// DecodeCRDs) and installs them all as one batch (see InstallCRDs).
func (s *Server) InstallCRDsYAML(ctx context.Context, docs ...[]byte) ([]*CRD, error) {
	var crds []*CRD
	for _, doc := range docs {
		decoded, err := DecodeCRDs(doc)
		if err != nil {
			return nil, err
		}
		crds = append(crds, decoded...)
	}
	return s.InstallCRDs(ctx, crds...)
}

// GetCRD returns the named CRD as the server has it.
func (s *Server) GetCRD(ctx context.Context, name string) (*CRD, error) {
	return s.crds.ApiextensionsV1().CustomResourceDefinitions().Get(ctx, name, metav1.GetOptions{})
}

// DeleteCRDs deletes the named CRDs (and with them all their objects) and
// waits until they are gone from the API, from discovery and (unless
// OpenAPI waits are off) from the OpenAPI v3 documents, so that the same
// names can be installed again, with another schema. Names that do not exist are ignored.
func (s *Server) DeleteCRDs(ctx context.Context, names ...string) error {
	var deleted []*CRD
	for _, name := range names {
		crd, err := s.GetCRD(ctx, name)
		if apierrors.IsNotFound(err) {
			continue
		}
		if err != nil {
			return fmt.Errorf("deleting CRD %s: %w", name, err)
		}
		err = s.crds.ApiextensionsV1().CustomResourceDefinitions().Delete(ctx, name, metav1.DeleteOptions{
			Preconditions: &metav1.Preconditions{UID: &crd.UID},
		})
		if err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("deleting CRD %s: %w", name, err)
		}
		deleted = append(deleted, crd)
	}
	for _, crd := range deleted {
		if err := s.waitGone(ctx, crd); err != nil {
			return fmt.Errorf("waiting for CRD %s to be deleted: %w", crd.Name, err)
		}
	}
	for _, crd := range deleted {
		for _, v := range crd.Spec.Versions {
			gv := schema.GroupVersion{Group: crd.Spec.Group, Version: v.Name}
			err := wait.PollUntilContextCancel(ctx, pollInterval, true, func(ctx context.Context) (bool, error) {
				listed, err := s.discoveryLists(gv, crd.Spec.Names.Plural)
				return !listed, err
			})
			if err != nil {
				return fmt.Errorf("waiting for %s to leave discovery: %w", gv.WithResource(crd.Spec.Names.Plural), err)
			}
		}
	}
	if !s.openAPIWaits() {
		return nil
	}
	return s.waitOpenAPIListing(ctx, deleted, false)
}

// SetOpenAPIWaits says whether the CRD helpers (InstallCRDs, DeleteCRDs,
// PatchCRD) wait until the published OpenAPI v3 documents show their
// change, as they do by default. A client that never reads those
// documents, such as the suite runner, turns the waits off: the helpers
// then wait only for the handler of custom resources (see syncHandler),
// which is all that creating and updating objects depends on. That spares
// the server from serializing, and the client from decoding, a
// group-version's whole document on every poll, and the client from
// building the documents of a patched CRD twice to learn whether the
// patch changes them.
func (s *Server) SetOpenAPIWaits(on bool) { s.skipOpenAPI.Store(!on) }

func (s *Server) openAPIWaits() bool { return !s.skipOpenAPI.Load() }

// waitServed waits until the server serves the resources of freshly
// established CRDs: until the OpenAPI documents list them, or, without
// OpenAPI waits, until the handler of custom resources has seen them.
func (s *Server) waitServed(ctx context.Context, installed []*CRD) error {
	if s.openAPIWaits() {
		return s.waitOpenAPIListing(ctx, installed, true)
	}
	return s.syncHandler(ctx)
}

// How long waitGone lets a deleted CRD linger before it nudges the
// server's CRD finalizer, and again between nudges: soon when the
// finalizer has recorded a failure (see finalizerFailed), which is how a
// stall starts, and otherwise only after a while, for stalls that show no
// sign. Every nudge is an update that the server validates like any other,
// compiling every CEL rule of the CRD, so nudging a CRD that is merely
// waiting its turn among a batch being deleted costs CPU and helps nothing.
const (
	nudgeInterval        = 500 * time.Millisecond
	nudgeIntervalNoSigns = 5 * time.Second
)

// nudgeAnnotation is the annotation waitGone sets on a lingering CRD.
const nudgeAnnotation = "apitest.gatedcrd.io/finalizer-nudge"

// waitGone waits until the deleted crd no longer exists (or has been
// replaced by a CRD of the same name).
//
// A deleted CRD is removed by the server's CRD finalizer once it has
// deleted the CRD's objects. That controller can stall: when listing or
// deleting the objects fails (as listing does while the resource's watch
// cache is still initialising, for a server with watch caches) it records
// the failure in the Terminating condition and retries, and when the retry
// then reads its own cache before that cache has seen its previous status
// write, the retry ends in a conflict that it drops, expecting another
// event; the events of its own writes touch only the Terminating
// condition, which it ignores. The CRD then stays until the informer's
// next resync, minutes later. So while a CRD lingers, waitGone changes an
// annotation on it (see nudgeDue): a change the finalizer does not ignore.
func (s *Server) waitGone(ctx context.Context, crd *CRD) error {
	lastNudge := time.Now()
	nudges := 0
	return wait.PollUntilContextCancel(ctx, pollInterval, true, func(ctx context.Context) (bool, error) {
		current, err := s.GetCRD(ctx, crd.Name)
		if apierrors.IsNotFound(err) {
			return true, nil
		}
		if err != nil {
			return false, err
		}
		if current.UID != crd.UID {
			return true, nil
		}
		if nudgeDue(current, time.Since(lastNudge)) {
			nudges++
			patch := fmt.Sprintf(`{"metadata":{"annotations":{%q:"%d"}}}`, nudgeAnnotation, nudges)
			_, err := s.crds.ApiextensionsV1().CustomResourceDefinitions().Patch(ctx, crd.Name, types.MergePatchType, []byte(patch), metav1.PatchOptions{})
			if err != nil && !apierrors.IsNotFound(err) && !apierrors.IsConflict(err) {
				return false, fmt.Errorf("nudging the CRD finalizer: %w", err)
			}
			lastNudge = time.Now()
		}
		return false, nil
	})
}

// nudgeDue tells whether waitGone nudges a lingering deleted CRD that it
// last nudged (or started waiting for) the given time ago.
func nudgeDue(crd *CRD, since time.Duration) bool {
	if finalizerFailed(crd) {
		return since >= nudgeInterval
	}
	return since >= nudgeIntervalNoSigns
}

// finalizerFailed tells whether the CRD finalizer has recorded a failure
// to delete or count a CRD's objects: a Terminating condition whose
// reason is one of those the finalizer of every supported release gives
// a failure (k8s.io/apiextensions-apiserver/pkg/controller/finalizer).
func finalizerFailed(crd *CRD) bool {
	c := findCondition(crd, apiextensionsv1.Terminating)
	return c != nil && (c.Reason == "InstanceDeletionFailed" || c.Reason == "InstanceDeletionCheck")
}

// PatchCRD applies an RFC 6902 JSON patch to the named CRD and waits until
// the server validates objects with the patched definition. It returns a
// function that puts the CRD's spec, labels and annotations back as they
// were before the patch and waits likewise; objects created in between
// stay.
//
// The wait: the server builds the storage of a custom resource (schema,
// CEL rules, subresources) from its CRD when it first needs it and drops
// it when its handler of custom resources sees the spec change, which
// syncHandler waits for. Unless OpenAPI waits are off (SetOpenAPIWaits),
// PatchCRD also waits until the group-version's published OpenAPI v3
// document shows the change, when it changes that document at all
// (printer columns, for example, do not). The document covers a whole
// group-version, so with OpenAPI waits, CRDs of one group-version must not
// be patched concurrently.
func (s *Server) PatchCRD(ctx context.Context, name string, jsonPatch []byte) (revert func(context.Context) error, err error) {
	before, err := s.GetCRD(ctx, name)
	if err != nil {
		return nil, fmt.Errorf("patching CRD %s: %w", name, err)
	}
	err = s.changeCRD(ctx, before, func(ctx context.Context) (*CRD, error) {
		return s.crds.ApiextensionsV1().CustomResourceDefinitions().Patch(ctx, name, types.JSONPatchType, jsonPatch, metav1.PatchOptions{})
	})
	if err != nil {
		return nil, fmt.Errorf("patching CRD %s: %w", name, err)
	}
	revert = func(ctx context.Context) error {
		current, err := s.GetCRD(ctx, name)
		if err != nil {
			return fmt.Errorf("reverting the patch of CRD %s: %w", name, err)
		}
		err = s.changeCRD(ctx, current, func(ctx context.Context) (*CRD, error) {
			return s.replaceDefinition(ctx, before.UID, before)
		})
		if err != nil {
			return fmt.Errorf("reverting the patch of CRD %s: %w", name, err)
		}
		return nil
	}
	return revert, nil
}

// changeCRD runs change, which modifies the CRD whose current state is
// before, and waits until the server serves the result (see PatchCRD).
func (s *Server) changeCRD(ctx context.Context, before *CRD, change func(context.Context) (*CRD, error)) error {
	if !s.openAPIWaits() {
		if _, err := change(ctx); err != nil {
			return err
		}
		return s.syncHandler(ctx)
	}
	hashes, err := s.openAPIHashes(ctx)
	if err != nil {
		return err
	}
	after, err := change(ctx)
	if err != nil {
		return err
	}
	var changed []string
	for _, v := range after.Spec.Versions {
		if !v.Served {
			continue
		}
		differs, err := publishedDocumentDiffers(before, after, v.Name)
		if err != nil {
			return err
		}
		if differs {
			changed = append(changed, openAPIPath(schema.GroupVersion{Group: after.Spec.Group, Version: v.Name}))
		}
	}
	if err := s.waitOpenAPIChanged(ctx, hashes, changed); err != nil {
		return err
	}
	return s.syncHandler(ctx)
}

// publishedDocumentDiffers tells whether the OpenAPI v3 document the server
// publishes for one version of a CRD differs between two states of the
// CRD. It builds both documents the way the server's publisher does,
// which compares them the same way before publishing.
func publishedDocumentDiffers(before, after *CRD, version string) (bool, error) {
	opts := builder.Options{
		IncludeSelectableFields: utilfeature.DefaultFeatureGate.Enabled(apiextensionsfeatures.CustomResourceFieldSelectors),
	}
	if !slices.ContainsFunc(before.Spec.Versions, func(v apiextensionsv1.CustomResourceDefinitionVersion) bool {
		return v.Name == version && v.Served
	}) {
		return true, nil
	}
	old, err := builder.BuildOpenAPIV3(before, version, opts)
	if err != nil {
		return false, fmt.Errorf("building the OpenAPI document of %s %s: %w", before.Name, version, err)
	}
	updated, err := builder.BuildOpenAPIV3(after, version, opts)
	if err != nil {
		return false, fmt.Errorf("building the OpenAPI document of %s %s: %w", after.Name, version, err)
	}
	return !reflect.DeepEqual(old, updated), nil
}

// waitEstablished waits until every CRD is Established and returns them as
// the server has them. A CRD whose names are rejected fails at once.
func (s *Server) waitEstablished(ctx context.Context, crds []*CRD) ([]*CRD, error) {
	out := make([]*CRD, len(crds))
	for i, crd := range crds {
		err := wait.PollUntilContextCancel(ctx, pollInterval, true, func(ctx context.Context) (bool, error) {
			current, err := s.GetCRD(ctx, crd.Name)
			if err != nil {
				return false, err
			}
			if c := findCondition(current, apiextensionsv1.NamesAccepted); c != nil && c.Status == apiextensionsv1.ConditionFalse {
				return false, fmt.Errorf("names not accepted: %s: %s", c.Reason, c.Message)
			}
			if c := findCondition(current, apiextensionsv1.Established); c != nil && c.Status == apiextensionsv1.ConditionTrue {
				out[i] = current
				return true, nil
			}
			return false, nil
		})
		if err != nil {
			return nil, fmt.Errorf("waiting for CRD %s to be established: %w", crd.Name, err)
		}
	}
	return out, nil
}

// waitDiscovery waits until discovery lists the resource of every served
// version of every CRD.
func (s *Server) waitDiscovery(ctx context.Context, crds []*CRD) error {
	for _, crd := range crds {
		for _, v := range crd.Spec.Versions {
			if !v.Served {
				continue
			}
			gv := schema.GroupVersion{Group: crd.Spec.Group, Version: v.Name}
			err := wait.PollUntilContextCancel(ctx, pollInterval, true, func(ctx context.Context) (bool, error) {
				return s.discoveryLists(gv, crd.Spec.Names.Plural)
			})
			if err != nil {
				return fmt.Errorf("waiting for discovery to list %s: %w", gv.WithResource(crd.Spec.Names.Plural), err)
			}
		}
	}
	return nil
}

// discoveryLists tells whether the discovery document of gv lists resource.
// A group-version that discovery does not know lists nothing.
func (s *Server) discoveryLists(gv schema.GroupVersion, resource string) (bool, error) {
	list, err := s.discovery.ServerResourcesForGroupVersion(gv.String())
	if apierrors.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return slices.ContainsFunc(list.APIResources, func(r metav1.APIResource) bool { return r.Name == resource }), nil
}

// waitOpenAPIListing waits until the OpenAPI v3 document of every served
// version of every CRD lists the CRD's resource (want true) or does not
// (want false). The server's OpenAPI publisher and its handler of custom
// resources react to the same CRD informer, so the document shows what
// the handler has seen.
func (s *Server) waitOpenAPIListing(ctx context.Context, crds []*CRD, want bool) error {
	for _, crd := range crds {
		for _, v := range crd.Spec.Versions {
			if !v.Served {
				continue
			}
			gv := schema.GroupVersion{Group: crd.Spec.Group, Version: v.Name}
			err := wait.PollUntilContextCancel(ctx, pollInterval, true, func(ctx context.Context) (bool, error) {
				listed, err := s.openAPIDocumentLists(ctx, gv, crd.Spec.Names.Plural)
				return listed == want, err
			})
			if err != nil {
				return fmt.Errorf("waiting for the OpenAPI document of %s to list %s (%v): %w", gv, crd.Spec.Names.Plural, want, err)
			}
		}
	}
	return nil
}

// openAPIDocumentLists tells whether the published OpenAPI v3 document of
// gv has the paths of resource. Every resource has the path
// /apis/<group>/<version>/<plural>: for a namespaced one it lists across
// namespaces.
func (s *Server) openAPIDocumentLists(ctx context.Context, gv schema.GroupVersion, resource string) (bool, error) {
	hashes, err := s.openAPIHashes(ctx)
	if err != nil {
		return false, err
	}
	url, ok := hashes[openAPIPath(gv)]
	if !ok {
		return false, nil
	}
	path, query, _ := strings.Cut(url, "?")
	request := s.discovery.RESTClient().Get().AbsPath(path)
	if hash, ok := strings.CutPrefix(query, "hash="); ok {
		request = request.Param("hash", hash)
	}
	raw, err := request.Do(ctx).Raw()
	if apierrors.IsNotFound(err) {
		return false, nil // removed since the root was read
	}
	if err != nil {
		return false, fmt.Errorf("reading %s: %w", path, err)
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		// The document of a group-version being removed can be served
		// empty for a moment (seen once in five runs of the example's
		// suites under load): it lists nothing, and a poll asks again.
		return false, nil
	}
	var doc struct {
		Paths map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return false, fmt.Errorf("decoding %s: %w", path, err)
	}
	_, listed := doc.Paths["/apis/"+gv.Group+"/"+gv.Version+"/"+resource]
	return listed, nil
}

// waitOpenAPIChanged waits until the OpenAPI v3 root lists each of paths
// with another document than in before (a path that appears or disappears
// counts as changed). See waitOpenAPIListing for what that shows. before
// must be read when the documents are settled, as they are after every
// helper here has returned.
func (s *Server) waitOpenAPIChanged(ctx context.Context, before map[string]string, paths []string) error {
	if len(paths) == 0 {
		return nil
	}
	err := wait.PollUntilContextCancel(ctx, pollInterval, true, func(ctx context.Context) (bool, error) {
		now, err := s.openAPIHashes(ctx)
		if err != nil {
			return false, err
		}
		for _, path := range paths {
			if now[path] == before[path] {
				return false, nil
			}
		}
		return true, nil
	})
	if err != nil {
		return fmt.Errorf("waiting for the server to publish the changed OpenAPI documents of %s: %w", strings.Join(paths, ", "), err)
	}
	return nil
}

// openAPIPath is the key of a group-version in the OpenAPI v3 root document.
func openAPIPath(gv schema.GroupVersion) string {
	return "apis/" + gv.Group + "/" + gv.Version
}

// openAPIHashes reads the OpenAPI v3 root document and returns, for every
// published path, the URL of its document, which carries a content hash.
func (s *Server) openAPIHashes(ctx context.Context) (map[string]string, error) {
	raw, err := s.discovery.RESTClient().Get().AbsPath("/openapi/v3").Do(ctx).Raw()
	if err != nil {
		return nil, fmt.Errorf("reading /openapi/v3: %w", err)
	}
	var root struct {
		Paths map[string]struct {
			ServerRelativeURL string `json:"serverRelativeURL"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(raw, &root); err != nil {
		return nil, fmt.Errorf("decoding /openapi/v3: %w", err)
	}
	out := make(map[string]string, len(root.Paths))
	for path, doc := range root.Paths {
		out[strings.TrimPrefix(path, "/")] = doc.ServerRelativeURL
	}
	return out, nil
}

func findCondition(crd *CRD, t apiextensionsv1.CustomResourceDefinitionConditionType) *apiextensionsv1.CustomResourceDefinitionCondition {
	for i := range crd.Status.Conditions {
		if crd.Status.Conditions[i].Type == t {
			return &crd.Status.Conditions[i]
		}
	}
	return nil
}

// sleepUntil sleeps until t or until ctx ends.
func sleepUntil(ctx context.Context, t time.Time) error {
	d := time.Until(t)
	if d <= 0 {
		return nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}
