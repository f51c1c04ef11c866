package kubeversion

import (
	"os/exec"
	"syscall"
)

// setParentDeathSignal has the kernel send SIGTERM to the program when
// the thread that started it ends, so that a killed parent leaves no
// server behind even before the program sees its standard input close.
func setParentDeathSignal(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}
