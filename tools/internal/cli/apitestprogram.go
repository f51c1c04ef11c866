package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"

	"github.com/gatedcrd/gatedcrd/internal/kubeprogram"
)

// apitestProgram finds the apitest program codegen watch --suites runs:
// the one given (--apitest), else the one next to codegen (make puts both
// in bin/), else the one on $PATH, else one built with go build from the
// repository this codegen was built from, into the gatedcrd cache.
func apitestProgram(ctx context.Context, given string, progress io.Writer) (string, error) {
	if given != "" {
		return given, nil
	}
	if exe, err := os.Executable(); err == nil {
		if p := filepath.Join(filepath.Dir(exe), "apitest"); isRegularFile(p) {
			return p, nil
		}
	}
	if p, err := exec.LookPath("apitest"); err == nil {
		return p, nil
	}
	return buildAPITest(ctx, progress)
}

// buildAPITest builds apitest from the repository's sources. go build is
// incremental: when the program is current, it costs a few seconds.
func buildAPITest(ctx context.Context, progress io.Writer) (string, error) {
	src, ok := apitestSource()
	if !ok {
		return "", errNoAPITest
	}
	cache, err := kubeprogram.CacheDir()
	if err != nil {
		return "", err
	}
	bin := filepath.Join(cache, "bin", "apitest")
	fmt.Fprintf(progress, "codegen watch: building apitest from %s into %s (the first build takes minutes)\n", src, bin)
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/apitest")
	cmd.Dir = src
	cmd.Stdout, cmd.Stderr = progress, progress
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("building apitest in %s: %w; %w", src, err, errNoAPITest)
	}
	return bin, nil
}

// apitestSource is the apitest module of the repository this codegen was
// built from, found through the path the build recorded for this file
// (none with -trimpath), when it is still there.
func apitestSource() (string, bool) {
	_, file, _, ok := runtime.Caller(0)
	if !ok || !filepath.IsAbs(file) {
		return "", false
	}
	dir := filepath.Clean(filepath.Join(filepath.Dir(file), "..", "..", "..", "apitest"))
	return dir, isRegularFile(filepath.Join(dir, "go.mod"))
}

func isRegularFile(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.Mode().IsRegular()
}
