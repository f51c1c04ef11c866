package schemapatch

import (
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/gatedcrd/gatedcrd/internal/workers"
)

// converter turns generated schemas into the generic maps manifests are
// serialised from, on goroutines of their own: generation, which must run
// on one goroutine, goes on with the next schema meanwhile. A converted
// schema is read only; the flattened schema it comes from belongs to one
// parser entry (controller-tools deep-copies when flattening and never
// touches a stored flattened schema again), so reading it concurrently is
// safe.
type converter struct {
	pool *workers.Background
}

func newConverter() *converter {
	return &converter{pool: workers.NewBackground()}
}

// start converts schema into ks.schema (or ks.err) in the background.
func (c *converter) start(ks *kindSchema, schema apiextensionsv1.JSONSchemaProps) {
	c.pool.Go(func() { ks.schema, ks.err = schemaToMap(&schema) })
}

// wait returns once every conversion started is done.
func (c *converter) wait() { c.pool.Wait() }
