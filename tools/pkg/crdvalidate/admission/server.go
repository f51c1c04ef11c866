package admission

import (
	"context"
	"fmt"
	"sync"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/install"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// server is the part of the API server that admits a CRD: its scheme,
// which defaults a v1 object and converts it to the internal version, and
// the validation its registry strategy calls on create and update.
type server struct {
	decoder runtime.Decoder
}

// newServer returns the process's server; its decoder is safe for
// concurrent use.
var newServer = sync.OnceValue(func() *server {
	scheme := runtime.NewScheme()
	install.Install(scheme)
	return &server{decoder: serializer.NewCodecFactory(scheme).UniversalDecoder(apiextensions.SchemeGroupVersion)}
})

// decode turns a manifest (YAML or JSON, apiextensions.k8s.io/v1) into the
// internal object the server validates: defaulted, then converted.
func (s *server) decode(data []byte) (*apiextensions.CustomResourceDefinition, error) {
	obj, _, err := s.decoder.Decode(data, nil, nil)
	if err != nil {
		return nil, err
	}
	crd, ok := obj.(*apiextensions.CustomResourceDefinition)
	if !ok {
		return nil, fmt.Errorf("is a %T, not a CustomResourceDefinition", obj)
	}
	return crd, nil
}

// The registry strategy (k8s.io/apiextensions-apiserver/pkg/registry/
// customresourcedefinition) is not imported: its package also holds the
// etcd storage, which would pull etcd, gRPC and OpenTelemetry into the
// tool. What its PrepareForCreate and PrepareForUpdate do to a manifest is
// reproduced by prepare: the status is the server's, and the storage
// version is recorded as stored. (Their dropDisabledFields drops nothing
// with the server's default feature gates, which enable optionalOldSelf,
// selectable fields and observed-generation tracking.)

// prepare puts crd in the state the strategy validates it in.
func prepare(crd *apiextensions.CustomResourceDefinition, status apiextensions.CustomResourceDefinitionStatus) {
	crd.Status = status
	for _, v := range crd.Spec.Versions {
		if v.Storage {
			if !apiextensions.IsStoredVersion(crd, v.Name) {
				crd.Status.StoredVersions = append(crd.Status.StoredVersions, v.Name)
			}
			break
		}
	}
}

// create is what a POST of the CRD runs before it is stored.
func (s *server) create(crd *apiextensions.CustomResourceDefinition) field.ErrorList {
	prepare(crd, apiextensions.CustomResourceDefinitionStatus{})
	crd.Generation = 1
	return validation.ValidateCustomResourceDefinition(context.Background(), crd)
}

// update is what a PUT of crd over the installed old runs. old is first
// brought into the state a created and established CRD is stored in.
func (s *server) update(crd, old *apiextensions.CustomResourceDefinition) field.ErrorList {
	prepare(old, apiextensions.CustomResourceDefinitionStatus{})
	old.Generation = 1
	old.Status.AcceptedNames = old.Spec.Names
	old.Status.Conditions = []apiextensions.CustomResourceDefinitionCondition{{
		Type: apiextensions.Established, Status: apiextensions.ConditionTrue,
	}}
	prepare(crd, old.Status)
	crd.Generation = old.Generation + 1
	crd.ResourceVersion, old.ResourceVersion = "1", "1"
	return validation.ValidateCustomResourceDefinitionUpdate(context.Background(), crd, old)
}
