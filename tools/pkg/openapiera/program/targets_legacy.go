//go:build ignore

package main

import (
	"k8s.io/gengo/v2/generator"
	"k8s.io/kube-openapi/cmd/openapi-gen/args"
	"k8s.io/kube-openapi/pkg/generators"
)

// targets returns openapi-gen's targets, for a kube-openapi release
// before GetOpenAPITargets: GetTargets builds the same boilerplate itself.
func targets(c *generator.Context, a *args.Args, _ []byte) []generator.Target {
	return generators.GetTargets(c, a)
}
