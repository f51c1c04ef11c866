//go:build ignore

package server

import (
	"context"

	"k8s.io/apiextensions-apiserver/pkg/cmd/server/options"
	genericapiserver "k8s.io/apiserver/pkg/server"
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
