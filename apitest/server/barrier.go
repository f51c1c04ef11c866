package server

import (
	"context"
	"fmt"
	"sync"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/util/retry"
)

// barrierGroup is the API group of the probe CRDs of syncHandler. .invalid
// is reserved for names that resolve nowhere, so it clashes with no real
// API.
const barrierGroup = "barrier.apitest.gatedcrd.invalid"

// barriers holds the probe CRDs of syncHandler that are not in use. Each
// caller takes one, so concurrent callers never share a probe.
type barriers struct {
	mu     sync.Mutex
	idle   []string
	nextID int
}

// syncHandler waits until the server's handler of custom resources has
// processed every change of a CRD that the server stored before the call.
//
// That handler keeps the storage it built for a CRD (schema validators,
// CEL rules) until its informer event handler sees the CRD's spec change,
// and serves requests with the kept storage until then. The handler runs
// on its own goroutine, so nothing else the server publishes (the stored
// CRD, discovery, the OpenAPI documents) proves that it has seen a change:
// while it is busy, for example building the storage of another large
// CRD, requests are validated with the previous schema. But the handler is
// also the only component that hands a CRD whose names were accepted to
// the controller that marks it Established, and it processes the CRD
// events in the order the server stored them. So syncHandler takes a probe
// CRD, marks it not Established, and waits until it is Established again:
// by then the handler has processed that change, and every change stored
// before it.
func (s *Server) syncHandler(ctx context.Context) error {
	name, err := s.takeProbe(ctx)
	if err != nil {
		return err
	}
	err = retry.RetryOnConflict(retry.DefaultRetry, func() error {
		probe, err := s.GetCRD(ctx, name)
		if err != nil {
			return err
		}
		setCondition(probe, apiextensionsv1.CustomResourceDefinitionCondition{
			Type:    apiextensionsv1.Established,
			Status:  apiextensionsv1.ConditionFalse,
			Reason:  "Barrier",
			Message: "marked not established to learn when the custom resource handler has caught up",
		})
		_, err = s.crds.ApiextensionsV1().CustomResourceDefinitions().UpdateStatus(ctx, probe, metav1.UpdateOptions{})
		return err
	})
	if err == nil {
		err = s.waitProbeEstablished(ctx, name)
	}
	if err != nil {
		return fmt.Errorf("waiting for the server's handler of custom resources to catch up: %w", err)
	}
	s.barriers.mu.Lock()
	s.barriers.idle = append(s.barriers.idle, name)
	s.barriers.mu.Unlock()
	return nil
}

// takeProbe returns an idle probe CRD, creating one when none is idle.
func (s *Server) takeProbe(ctx context.Context) (string, error) {
	b := &s.barriers
	b.mu.Lock()
	if n := len(b.idle); n > 0 {
		name := b.idle[n-1]
		b.idle = b.idle[:n-1]
		b.mu.Unlock()
		return name, nil
	}
	b.nextID++
	id := b.nextID
	b.mu.Unlock()
	plural, kind := fmt.Sprintf("probe%ds", id), fmt.Sprintf("Probe%d", id)
	preserve := true
	probe := &CRD{
		ObjectMeta: metav1.ObjectMeta{Name: plural + "." + barrierGroup},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: barrierGroup,
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: plural, Kind: kind},
			Scope: apiextensionsv1.ClusterScoped,
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
				Name: "v1", Served: true, Storage: true,
				Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
					Type: "object", XPreserveUnknownFields: &preserve,
				}},
			}},
		},
	}
	if _, err := s.crds.ApiextensionsV1().CustomResourceDefinitions().Create(ctx, probe, metav1.CreateOptions{}); err != nil {
		return "", fmt.Errorf("creating the probe CRD %s: %w", probe.Name, err)
	}
	if err := s.waitProbeEstablished(ctx, probe.Name); err != nil {
		return "", err
	}
	return probe.Name, nil
}

func (s *Server) waitProbeEstablished(ctx context.Context, name string) error {
	return wait.PollUntilContextCancel(ctx, pollInterval/5, true, func(ctx context.Context) (bool, error) {
		probe, err := s.GetCRD(ctx, name)
		if err != nil {
			return false, err
		}
		c := findCondition(probe, apiextensionsv1.Established)
		return c != nil && c.Status == apiextensionsv1.ConditionTrue, nil
	})
}

// setCondition sets a condition of crd, replacing the one of its type.
func setCondition(crd *CRD, c apiextensionsv1.CustomResourceDefinitionCondition) {
	c.LastTransitionTime = metav1.Now()
	for i := range crd.Status.Conditions {
		if crd.Status.Conditions[i].Type == c.Type {
			crd.Status.Conditions[i] = c
			return
		}
	}
	crd.Status.Conditions = append(crd.Status.Conditions, c)
}
