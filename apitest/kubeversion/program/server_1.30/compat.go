//go:build ignore

package server

import (
	"context"

	"k8s.io/apiextensions-apiserver/pkg/cmd/server/options"
	genericapiserver "k8s.io/apiserver/pkg/server"
	genericoptions "k8s.io/apiserver/pkg/server/options"
	"k8s.io/client-go/rest"
)

// This is package server's compat.go in the program of Kubernetes 1.30,
// whose libraries predate the calls used there (see that file).

// setComponentGlobals does nothing: Kubernetes 1.30 has no component
// registry and no emulated version; its feature gates are process-wide
// defaults already.
func setComponentGlobals(o *options.CustomResourceDefinitionsServerOptions) error {
	return nil
}

// prepareRun prepares a server to run and returns the function that runs
// it until its context ends (1.30 has Run with a stop channel only).
func prepareRun(s *genericapiserver.GenericAPIServer) func(context.Context) error {
	prepared := s.PrepareRun()
	return func(ctx context.Context) error { return prepared.Run(ctx.Done()) }
}

// applyRecommended applies the recommended options to the server's
// configuration. RecommendedOptions.ApplyTo of 1.30 builds a clientset
// from config.ClientConfig unconditionally (1.31 skips it when there is
// none, as here: the server has no core API), and a nil one panics. The
// clientset is only handed to the options this server turns off
// (priority and fairness, admission), so a placeholder configuration
// serves for the call and is removed after it.
func applyRecommended(rec *genericoptions.RecommendedOptions, config *genericapiserver.RecommendedConfig) error {
	config.ClientConfig = &rest.Config{Host: "https://127.0.0.1"}
	defer func() { config.ClientConfig = nil }()
	return rec.ApplyTo(config)
}
