package pipeline_test

import (
	"fmt"

	"github.com/gatedcrd/gatedcrd/tools/pkg/pipeline"
)

// Example runs the whole pipeline from Go over this repository's example
// API group, as codegen crd-manifests --verify does: discovery, one package
// load, strict mode, the three stages and the checks of the merged output,
// then compares the result with the files on disk without writing.
func Example() {
	r := pipeline.New(pipeline.Options{BaseDir: "../../..", PayloadDir: pipeline.DefaultPayloadDir})
	changes, err := r.Generate()
	if err != nil {
		fmt.Println(err)
		fmt.Println(r.Problems.Err())
		return
	}
	fmt.Println(r.Stats.Counts())
	fmt.Println("out of date:", changes.Stale())
	// changes.Write() would write the files atomically.

	// Output:
	// 2 CRD(s), 6 partial manifest(s), 5 gate set(s), 140 tuple(s) from 4 merge(s) into 6 file(s)
	// out of date: false
}
