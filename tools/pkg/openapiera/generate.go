package openapiera

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Request is one generation of the OpenAPI definitions file.
type Request struct {
	// ModuleDir is the API repository's module root: the program's
	// working directory, where Inputs are resolved.
	ModuleDir string
	// Inputs are the import paths and patterns of the packages to load
	// and generate for, in the reference's order: the Kubernetes packages,
	// then the API packages.
	Inputs []string
	// OutputDir is the generated package's directory as given on the
	// command line, relative to ModuleDir (the reference uses it as the
	// package's import path too; its last element is the package name).
	OutputDir string
	// OutputFile is the generated file's base name.
	OutputFile string
	// HeaderFile is the boilerplate header file, relative to the current
	// directory or absolute; "" for none (the reference then passes an
	// empty file).
	HeaderFile string
}

// Generate returns the bytes of the file kube-openapi version generates
// for req, and the API rule violations it reports (openapi-gen's report,
// one per line), through the program Build makes for version; progress
// receives build progress (nil discards it). Nothing is written into the
// tree.
func Generate(ctx context.Context, version string, req Request, progress io.Writer) (content []byte, violations string, err error) {
	return generate(ctx, version, req, BuildOptions{Progress: progress})
}

func generate(ctx context.Context, version string, req Request, opts BuildOptions) ([]byte, string, error) {
	switch {
	case req.ModuleDir == "":
		return nil, "", errors.New("openapi: no module directory")
	case req.OutputDir == "":
		return nil, "", errors.New("openapi: no output directory")
	case req.OutputFile == "":
		return nil, "", errors.New("openapi: no output file")
	case len(req.Inputs) == 0:
		return nil, "", errors.New("openapi: no input packages")
	}
	program, err := Build(ctx, version, opts)
	if err != nil {
		return nil, "", err
	}
	inputs, err := ModulePatterns(ctx, req.ModuleDir, req.Inputs)
	if err != nil {
		return nil, "", err
	}
	scratch, err := os.MkdirTemp("", "gatedcrd-openapi-")
	if err != nil {
		return nil, "", err
	}
	defer os.RemoveAll(scratch)
	header := filepath.Join(scratch, "header.txt")
	if req.HeaderFile != "" {
		if header, err = filepath.Abs(req.HeaderFile); err != nil {
			return nil, "", err
		}
	} else if err := os.WriteFile(header, nil, 0o644); err != nil {
		return nil, "", err
	}
	report := filepath.Join(scratch, "violations.txt")
	args := append([]string{
		"-output-dir", req.OutputDir,
		"-output-file", req.OutputFile,
		"-header-file", header,
		"-report-file", report,
		"--",
	}, inputs...)
	cmd := exec.CommandContext(ctx, program, args...)
	cmd.Dir = req.ModuleDir
	cmd.Env = programEnv()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, "", fmt.Errorf("generating %s with %s %s: %w\n%s", filepath.Join(req.OutputDir, req.OutputFile), KubeOpenAPI, version, err, strings.TrimSpace(stderr.String()))
	}
	v, err := os.ReadFile(report)
	if err != nil {
		return nil, "", fmt.Errorf("reading the API rule violations: %w", err)
	}
	return stdout.Bytes(), string(v), nil
}

// programGOGC is the collector's target the program runs with unless the
// caller's environment sets GOGC: openapi-gen allocates through the whole
// universe for every type it writes, and at Go's default a third of its
// time goes to collecting (openshift/api: about 14 s at GOGC=100, a
// third less at 400, for twice the peak memory).
const programGOGC = "400"

func programEnv() []string {
	env := os.Environ()
	if os.Getenv("GOGC") == "" {
		env = append(env, "GOGC="+programGOGC)
	}
	return env
}
