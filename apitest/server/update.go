package server

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/retry"
)

// UpdateCRD gives the installed CRD of crd's name the spec, labels and
// annotations of crd, and waits until the server validates objects with
// the new definition, as PatchCRD does. It returns the CRD as the server
// then has it.
//
// Updating in place spares what replacing a CRD costs (DeleteCRDs, then
// InstallCRDs with its waits, and the server's delay of creates after a
// CRD becomes Established): the CRD stays Established and keeps its
// accepted names, and the server's handler of custom resources rebuilds
// the resource's storage from the new spec. So crd must keep the names
// and scope of the installed CRD, and every version the CRD has stored
// objects in; the caller checks that (the server rejects a changed scope
// or kind, and a stored version left out).
func (s *Server) UpdateCRD(ctx context.Context, crd *CRD) (*CRD, error) {
	before, err := s.GetCRD(ctx, crd.Name)
	if err != nil {
		return nil, fmt.Errorf("updating CRD %s: %w", crd.Name, err)
	}
	var updated *CRD
	err = s.changeCRD(ctx, before, func(ctx context.Context) (*CRD, error) {
		updated, err = s.replaceDefinition(ctx, before.UID, crd)
		return updated, err
	})
	if err != nil {
		return nil, fmt.Errorf("updating CRD %s: %w", crd.Name, err)
	}
	return updated, nil
}

// replaceDefinition gives the CRD of want's name, which must still be the
// one of the given UID, want's spec, labels and annotations.
func (s *Server) replaceDefinition(ctx context.Context, uid types.UID, want *CRD) (*CRD, error) {
	var updated *CRD
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		crd, err := s.GetCRD(ctx, want.Name)
		if err != nil {
			return err
		}
		if crd.UID != uid {
			return fmt.Errorf("the CRD was replaced (its UID changed)")
		}
		crd.Spec = *want.Spec.DeepCopy()
		crd.Labels = want.DeepCopy().Labels
		crd.Annotations = want.DeepCopy().Annotations
		updated, err = s.crds.ApiextensionsV1().CustomResourceDefinitions().Update(ctx, crd, metav1.UpdateOptions{})
		return err
	})
	return updated, err
}

// HasObjects tells whether any object of the resource of the named CRD
// (installed with the given version) exists, in any namespace.
func (s *Server) HasObjects(ctx context.Context, crd *CRD, version string) (bool, error) {
	list, err := s.dynamic.Resource(Resource(crd, version)).List(ctx, metav1.ListOptions{Limit: 1})
	if apierrors.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("listing the objects of %s: %w", crd.Name, err)
	}
	return len(list.Items) > 0, nil
}
