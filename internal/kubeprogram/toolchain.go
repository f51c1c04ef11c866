package kubeprogram

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"sync"
)

// goToolchain returns what of the go command goCmd a program build depends
// on besides its files: its version, GOOS and GOARCH (`go env`). Asking
// takes tens of milliseconds, and codegen watch looks its validation
// program up in every cycle, so the answer is kept for the process, per go
// binary (its resolved path, size and modification time: an upgraded go
// is asked again) and the environment variables that change it.
func goToolchain(ctx context.Context, goCmd string) (string, error) {
	key, ok := toolchainKey(goCmd)
	if ok {
		toolchains.Lock()
		v, seen := toolchains.of[key]
		toolchains.Unlock()
		if seen {
			return v, nil
		}
	}
	v, err := goEnv(ctx, goCmd, "GOVERSION", "GOOS", "GOARCH")
	if err != nil || !ok {
		return v, err
	}
	toolchains.Lock()
	toolchains.of[key] = v
	toolchains.Unlock()
	return v, nil
}

var toolchains = struct {
	sync.Mutex
	of map[string]string
}{of: map[string]string{}}

// toolchainKey identifies the go binary goCmd and its settings from the
// environment; ok is false when goCmd cannot be found (then `go env` says
// why).
func toolchainKey(goCmd string) (key string, ok bool) {
	path, err := exec.LookPath(goCmd)
	if err != nil {
		return "", false
	}
	info, err := os.Stat(path)
	if err != nil {
		return "", false
	}
	key = fmt.Sprintf("%s %d %d", path, info.Size(), info.ModTime().UnixNano())
	for _, name := range []string{"GOROOT", "GOOS", "GOARCH", "GOENV"} {
		key += fmt.Sprintf(" %s=%q", name, os.Getenv(name))
	}
	return key, true
}
