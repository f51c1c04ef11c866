package main

import (
	"context"

	"k8s.io/client-go/rest"
)

// warningRouter is client-go's default warning handler in apitest: it
// hands each warning the API server sends (a Warning header of code 299,
// such as `unknown field "spec.x"`) to the report node whose request
// received it (its context carries the node), instead of logging it
// through klog, whose lines would land between the progress lines, of
// every version at once. A warning on a request without a node (server
// start-up) is dropped.
type warningRouter struct{}

func (warningRouter) HandleWarningHeaderWithContext(ctx context.Context, code int, _ string, text string) {
	if code != 299 || text == "" {
		return
	}
	if n, ok := ctx.Value(nodeKey{}).(*node); ok {
		n.warn(text)
	}
}

// routeWarnings installs warningRouter for every client that has no
// handler of its own (the clients of package server have none).
func routeWarnings() { rest.SetDefaultWarningHandlerWithContext(warningRouter{}) }
