package kubeversion

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// CacheEnv names the environment variable that overrides the cache
// directory (default: gatedcrd below the user's cache directory, e.g.
// ~/.cache/gatedcrd).
const CacheEnv = "GATEDCRD_CACHE"

// CacheDir returns the directory below which programs are built and kept:
// $GATEDCRD_CACHE, or else gatedcrd in os.UserCacheDir().
func CacheDir() (string, error) {
	if dir := os.Getenv(CacheEnv); dir != "" {
		return filepath.Abs(dir)
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory (set %s): %w", CacheEnv, err)
	}
	return filepath.Join(dir, "gatedcrd"), nil
}

// programName is the file name of the built program in its cache entry.
const programName = "apiserver"

// BuildOptions configure Build.
type BuildOptions struct {
	// CacheDir is where programs are kept (default CacheDir()).
	CacheDir string
	// Go is the go command (default "go" from PATH).
	Go string
	// Progress receives a line when a program must be built, and how long
	// it took; nil discards them.
	Progress io.Writer
}

// Build returns the path of the server program of v, building it first
// unless the cache has it. The program's module is
// <cache>/apiserver/<minor>-<hash>/, where hash covers the module's files
// and the toolchain (see moduleHash), and the program is the file
// apiserver in it.
//
// Building resolves the module's requirements through the module proxy
// (GOPROXY, GOFLAGS and the rest of the go environment apply) and
// compiles it; the entry appears only once complete, so an interrupted
// build leaves nothing that a later run would trust. Builds are
// serialised by a lock file, across processes too: they are heavy, and a
// second process waiting for the same version then finds it built.
func Build(ctx context.Context, v Version, opts BuildOptions) (string, error) {
	if opts.Go == "" {
		opts.Go = "go"
	}
	if opts.CacheDir == "" {
		dir, err := CacheDir()
		if err != nil {
			return "", err
		}
		opts.CacheDir = dir
	}
	files, err := moduleFiles(v)
	if err != nil {
		return "", err
	}
	toolchain, err := goEnv(ctx, opts.Go, "GOVERSION", "GOOS", "GOARCH")
	if err != nil {
		return "", err
	}
	root := filepath.Join(opts.CacheDir, "apiserver")
	entry := filepath.Join(root, v.Minor+"-"+moduleHash(files, toolchain))
	program := filepath.Join(entry, programName)
	if isFile(program) {
		return program, nil
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", err
	}
	unlock, err := lockFile(ctx, filepath.Join(root, ".build.lock"))
	if err != nil {
		return "", err
	}
	defer unlock()
	if isFile(program) { // built by another process while this one waited
		return program, nil
	}
	start := time.Now()
	if opts.Progress != nil {
		fmt.Fprintf(opts.Progress, "building the API server of Kubernetes %s (k8s.io/apiextensions-apiserver %s, etcd %s) into %s; later runs reuse it\n",
			v.Minor, v.APIExtensions, v.Etcd, entry)
	}
	if err := buildEntry(ctx, opts.Go, root, entry, files); err != nil {
		return "", fmt.Errorf("building the API server of Kubernetes %s: %w", v.Minor, err)
	}
	if opts.Progress != nil {
		fmt.Fprintf(opts.Progress, "built the API server of Kubernetes %s in %v\n", v.Minor, time.Since(start).Round(time.Second))
	}
	return program, nil
}

// buildEntry writes the module into a fresh directory of root, builds the
// program there and renames the directory to entry.
func buildEntry(ctx context.Context, goCmd, root, entry string, files map[string][]byte) error {
	if err := os.RemoveAll(entry); err != nil { // an incomplete entry of an old layout
		return err
	}
	tmp, err := os.MkdirTemp(root, ".build-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	for name, data := range files {
		path := filepath.Join(tmp, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return err
		}
	}
	// -mod=mod lets the go command complete go.mod and go.sum from the two
	// pinned requirements. The flags are the go command's defaults
	// otherwise, so the compiled Kubernetes packages come from the go build
	// cache whenever another build has compiled the same versions.
	if _, err := runGo(ctx, goCmd, tmp, "build", "-mod=mod", "-o", programName, "."); err != nil {
		return err
	}
	return os.Rename(tmp, entry)
}

// goEnv returns the values of go env variables, one per line.
func goEnv(ctx context.Context, goCmd string, names ...string) (string, error) {
	out, err := runGo(ctx, goCmd, "", append([]string{"env"}, names...)...)
	return strings.TrimSpace(out), err
}

// runGo runs the go command in dir. The program module is not part of any
// workspace, and it is built with the local toolchain: the go line of a
// Kubernetes release never asks for a newer one than the toolchain that
// builds this module.
func runGo(ctx context.Context, goCmd, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, goCmd, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOTOOLCHAIN=local")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%s %s: %w\n%s", goCmd, strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
}

func isFile(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular()
}
