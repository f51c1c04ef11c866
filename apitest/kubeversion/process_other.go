//go:build !linux

package kubeversion

import "os/exec"

// setParentDeathSignal does nothing here: the program stops when its
// standard input closes, which also happens when the parent dies.
func setParentDeathSignal(cmd *exec.Cmd) {}
