package server

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/client-go/dynamic"
	"sigs.k8s.io/yaml"
)

// DefaultNamespace is the namespace objects of namespaced resources are
// usually created in. It need not exist: the server runs no namespace
// admission (see newAPIExtensionsServer).
const DefaultNamespace = "default"

// Objects reads and writes the objects of one resource in one namespace
// (none for cluster-scoped resources).
type Objects struct {
	gvr       schema.GroupVersionResource
	namespace string
	client    dynamic.ResourceInterface
}

// Objects returns the objects of resource gvr in namespace. Pass "" as the
// namespace for a cluster-scoped resource.
func (s *Server) Objects(gvr schema.GroupVersionResource, namespace string) *Objects {
	var client dynamic.ResourceInterface = s.dynamic.Resource(gvr)
	if namespace != "" {
		client = s.dynamic.Resource(gvr).Namespace(namespace)
	}
	return &Objects{gvr: gvr, namespace: namespace, client: client}
}

// prepare fills in what an object written through o must carry anyway:
// the namespace, and the apiVersion when it is missing.
func (o *Objects) prepare(obj *unstructured.Unstructured) *unstructured.Unstructured {
	obj = obj.DeepCopy()
	if o.namespace != "" {
		obj.SetNamespace(o.namespace)
	}
	if obj.GetAPIVersion() == "" {
		obj.SetAPIVersion(o.gvr.GroupVersion().String())
	}
	return obj
}

// Create creates obj. An object without name or generateName gets a
// generateName derived from the resource, so the server picks a fresh
// name.
func (o *Objects) Create(ctx context.Context, obj *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	obj = o.prepare(obj)
	if obj.GetName() == "" && obj.GetGenerateName() == "" {
		obj.SetGenerateName(o.gvr.Resource + "-")
	}
	return o.client.Create(ctx, obj, metav1.CreateOptions{})
}

// Update replaces the object (not its status, when the resource has a
// status subresource). obj must carry the name and, for an optimistic
// update, the resourceVersion of the stored object.
func (o *Objects) Update(ctx context.Context, obj *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	return o.client.Update(ctx, o.prepare(obj), metav1.UpdateOptions{})
}

// UpdateStatus replaces the status of the object through the status
// subresource.
func (o *Objects) UpdateStatus(ctx context.Context, obj *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	return o.client.UpdateStatus(ctx, o.prepare(obj), metav1.UpdateOptions{})
}

// Get returns the stored object.
func (o *Objects) Get(ctx context.Context, name string) (*unstructured.Unstructured, error) {
	return o.client.Get(ctx, name, metav1.GetOptions{})
}

// Delete deletes the object.
func (o *Objects) Delete(ctx context.Context, name string) error {
	return o.client.Delete(ctx, name, metav1.DeleteOptions{})
}

// DecodeObject decodes one object from YAML or JSON text, as test suites
// write them.
func DecodeObject(text []byte) (*unstructured.Unstructured, error) {
	data, err := yaml.YAMLToJSON(text)
	if err != nil {
		return nil, fmt.Errorf("decoding object: %w", err)
	}
	// k8s.io/apimachinery's json keeps integers as int64, as the server's
	// responses have them, instead of turning every number into float64.
	var content map[string]any
	if err := utiljson.Unmarshal(data, &content); err != nil {
		return nil, fmt.Errorf("decoding object: %w", err)
	}
	if content == nil {
		return nil, fmt.Errorf("decoding object: the text holds no object")
	}
	return &unstructured.Unstructured{Object: content}, nil
}
