package server

import (
	"context"

	"k8s.io/apiextensions-apiserver/pkg/cmd/server/options"
	genericapiserver "k8s.io/apiserver/pkg/server"
	genericoptions "k8s.io/apiserver/pkg/server/options"
)

// This file holds the calls whose API changed between the supported
// Kubernetes versions. The program of an older version replaces it with
// its own copy (apitest/kubeversion/program/server_<minor>/compat.go), so
// that the rest of the package compiles against every version unchanged.

// setComponentGlobals fixes the process-wide feature gates and emulated
// version at their defaults, as the server command does after parsing its
// flags (Kubernetes 1.31 and later keep them in a registry).
func setComponentGlobals(o *options.CustomResourceDefinitionsServerOptions) error {
	return o.ServerRunOptions.ComponentGlobalsRegistry.Set()
}

// prepareRun prepares a server to run and returns the function that runs
// it until its context ends.
func prepareRun(s *genericapiserver.GenericAPIServer) func(context.Context) error {
	return s.PrepareRun().RunWithContext
}

// applyRecommended applies the recommended options to the server's
// configuration.
func applyRecommended(rec *genericoptions.RecommendedOptions, config *genericapiserver.RecommendedConfig) error {
	return rec.ApplyTo(config)
}
