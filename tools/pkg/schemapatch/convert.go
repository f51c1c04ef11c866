package schemapatch

import (
	"context"
	"maps"
	"runtime/trace"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/controller-tools/pkg/crd"

	"github.com/gatedcrd/gatedcrd/internal/workers"
)

// converter finishes generated schemas on goroutines of their own, while
// generation, which must run on one goroutine, goes on with the next
// schema: it folds the embedded fields of a schema whose references are
// flattened (controller-tools' FlattenEmbedded, the second half of
// Parser.NeedFlattenedSchemaFor), reduces properties.metadata and turns
// the result into the generic map manifests are serialised from.
//
// Both halves are upstream's. The first (Flattener.FlattenType) reads and
// writes the parser, so it stays on the generation's goroutine; the
// second only reads the schema the first returned, which is a deep copy
// whose maps the flattener's cache shares but never modifies again
// (FlattenType deep-copies what it edits, and a cached type it meets again
// is copied into place without being walked), and it deep-copies that
// schema before editing it. Reading it concurrently is therefore safe.
// The errors FlattenEmbedded reports are kept with the schema and added
// to the package on the generation's goroutine (converted), in the order
// the schemas were started.
type converter struct {
	pool *workers.Background
	// started are the schemas handed over, in order; only the
	// generation's goroutine appends to it.
	started []*kindSchema
}

func newConverter() *converter {
	return &converter{pool: workers.NewBackground()}
}

// startEmbedding finishes ks in the background from partial, the schema
// Flattener.FlattenType returned, whose embedded fields are still allOf
// branches.
func (c *converter) startEmbedding(ks *kindSchema, partial *apiextensionsv1.JSONSchemaProps) {
	c.started = append(c.started, ks)
	c.pool.Go(func() {
		defer region("schemapatch.convert").End()
		var rec recordedErrors
		flat := crd.FlattenEmbedded(partial, &rec)
		ks.embedErrors = rec
		schema := withPlainMetadata(*flat)
		ks.schema, ks.err = schemaToMap(&schema)
	})
}

// start finishes ks in the background from flat, a fully flattened schema.
func (c *converter) start(ks *kindSchema, flat apiextensionsv1.JSONSchemaProps) {
	c.started = append(c.started, ks)
	c.pool.Go(func() {
		schema := withPlainMetadata(flat)
		ks.schema, ks.err = schemaToMap(&schema)
	})
}

// wait returns once every schema started is finished, and adds the errors
// their embedding reported to their packages, in the order the schemas
// were started: as many, and in the same words, as
// Parser.NeedFlattenedSchemaFor would have added.
func (c *converter) wait() {
	c.pool.Wait()
	for _, ks := range c.started {
		for _, err := range ks.embedErrors {
			ks.id.Package.AddError(err)
		}
		ks.embedErrors = nil
	}
	c.started = nil
}

// withPlainMetadata returns schema with properties.metadata reduced to
// {type: object}. schema may share its maps with the parser's: the copy
// gets a properties map of its own.
func withPlainMetadata(schema apiextensionsv1.JSONSchemaProps) apiextensionsv1.JSONSchemaProps {
	if _, ok := schema.Properties["metadata"]; ok {
		schema.Properties = maps.Clone(schema.Properties)
		schema.Properties["metadata"] = apiextensionsv1.JSONSchemaProps{Type: "object"}
	}
	return schema
}

// recordedErrors is the crd.ErrorRecorder of an embedding that runs off
// the generation's goroutine: loader packages are not safe for concurrent
// use, so the errors wait there for converter.wait.
type recordedErrors []error

func (r *recordedErrors) AddError(err error) { *r = append(*r, err) }

// region starts a region of an execution trace (runtime/trace) on the
// calling goroutine, for a phase whose wall time and use of the cores a
// trace of a run shows (codegen watch's benchmark records one).
func region(name string) *trace.Region {
	return trace.StartRegion(context.Background(), name)
}
