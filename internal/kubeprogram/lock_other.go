//go:build !unix

package kubeprogram

import "context"

// lockFile cannot lock on this platform: builds of concurrent processes
// are not serialised, and each completes its own entry.
func lockFile(ctx context.Context, path string) (func(), error) {
	return func() {}, nil
}
