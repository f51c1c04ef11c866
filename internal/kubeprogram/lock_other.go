//go:build !unix

package kubeprogram

import "context"

// LockFile cannot lock on this platform: builds of concurrent processes
// are not serialised, and each completes its own entry (BuildModule; the
// last rename wins). The returned release does nothing.
func LockFile(ctx context.Context, path string) (func(), error) {
	return func() {}, nil
}
