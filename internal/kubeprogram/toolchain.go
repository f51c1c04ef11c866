package kubeprogram

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
)

// Toolchain returns what of the go command goCmd a program build depends
// on besides its files: its version, GOOS and GOARCH (`go env`), one per
// line; Hash covers it, so that another toolchain builds anew. Asking
// takes tens of milliseconds, and codegen watch looks its validation
// program up in every cycle, so the answer is kept for the process, per go
// binary (its resolved path, size and modification time: an upgraded go
// is asked again) and the environment variables that change it.
func Toolchain(ctx context.Context, goCmd string) (string, error) {
	key, ok := toolchainKey(goCmd)
	if ok {
		toolchains.Lock()
		v, seen := toolchains.of[key]
		toolchains.Unlock()
		if seen {
			return v, nil
		}
	}
	out, err := RunGo(ctx, goCmd, "", "env", "GOVERSION", "GOOS", "GOARCH")
	if err != nil {
		return "", err
	}
	v := strings.TrimSpace(out)
	if !ok {
		return v, nil
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
