package manifestmerge

import (
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/client/applyconfiguration"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

func TestExp(t *testing.T) {
	sc := runtime.NewScheme()
	if err := apiextensionsv1.AddToScheme(sc); err != nil {
		t.Fatal(err)
	}
	tc := applyconfiguration.NewTypeConverter(sc)
	tv, err := tc.ObjectToTyped(&unstructured.Unstructured{Object: map[string]any{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(*tv.TypeRef().NamedType, len(tv.Schema().Types))
}
