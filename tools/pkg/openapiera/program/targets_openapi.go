//go:build ignore

package main

import (
	"k8s.io/gengo/v2/generator"
	"k8s.io/kube-openapi/cmd/openapi-gen/args"
	"k8s.io/kube-openapi/pkg/generators"
)

// targets returns openapi-gen's targets, for a kube-openapi release that
// has GetOpenAPITargets (September 2025 and later).
func targets(c *generator.Context, a *args.Args, boilerplate []byte) []generator.Target {
	return generators.GetOpenAPITargets(c, a, boilerplate)
}
