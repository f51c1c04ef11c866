package openapiv3

import (
	"encoding/json"
	"fmt"
	"path"
	"sort"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/controller/openapi/builder"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/kube-openapi/pkg/spec3"
	"sigs.k8s.io/yaml"
)

// Document is the OpenAPI v3 document of one group-version.
type Document struct {
	GroupVersion schema.GroupVersion
	// Path is the document's path below the output directory, the server's
	// path without /openapi/v3/: apis/<group>/<version>.json.
	Path string
	// JSON is the document as the server encodes it.
	JSON []byte
}

// ParseCRD decodes one CRD manifest strictly and applies the apiextensions
// v1 defaults, so that the builder sees what a server stores.
func ParseCRD(data []byte) (*apiextensionsv1.CustomResourceDefinition, error) {
	crd := &apiextensionsv1.CustomResourceDefinition{}
	if err := yaml.UnmarshalStrict(data, crd); err != nil {
		return nil, err
	}
	if crd.APIVersion != apiextensionsv1.SchemeGroupVersion.String() || crd.Kind != "CustomResourceDefinition" {
		return nil, fmt.Errorf("is a %s %s, not an %s CustomResourceDefinition", crd.APIVersion, crd.Kind, apiextensionsv1.SchemeGroupVersion)
	}
	scheme := runtime.NewScheme()
	if err := apiextensionsv1.AddToScheme(scheme); err != nil {
		return nil, err
	}
	scheme.Default(crd)
	return crd, nil
}

// Build returns the document of every group-version that a served version
// of crds belongs to, sorted by path. Like the server, it skips versions
// that are not served.
func Build(crds []*apiextensionsv1.CustomResourceDefinition) ([]Document, error) {
	specs := map[schema.GroupVersion][]*spec3.OpenAPI{}
	for _, crd := range crds {
		for _, v := range crd.Spec.Versions {
			if !v.Served {
				continue
			}
			// The options of the server's OpenAPI v3 controller; selectable
			// fields are on because CustomResourceFieldSelectors is GA and
			// locked on in the API server this module builds against.
			s, err := builder.BuildOpenAPIV3(crd, v.Name, builder.Options{V2: false, IncludeSelectableFields: true})
			if err != nil {
				return nil, fmt.Errorf("CRD %s version %s: %w", crd.Name, v.Name, err)
			}
			gv := schema.GroupVersion{Group: crd.Spec.Group, Version: v.Name}
			specs[gv] = append(specs[gv], s)
		}
	}
	docs := make([]Document, 0, len(specs))
	for gv, list := range specs {
		merged, err := builder.MergeSpecsV3(list...)
		if err != nil {
			return nil, fmt.Errorf("group-version %s: %w", gv, err)
		}
		data, err := json.Marshal(merged)
		if err != nil {
			return nil, fmt.Errorf("group-version %s: %w", gv, err)
		}
		docs = append(docs, Document{GroupVersion: gv, Path: path.Join("apis", gv.Group, gv.Version+".json"), JSON: data})
	}
	sort.Slice(docs, func(i, j int) bool { return docs[i].Path < docs[j].Path })
	return docs, nil
}
