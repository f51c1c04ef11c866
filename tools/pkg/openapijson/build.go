// Package openapijson builds the openapi/openapi.json of an API repository
// from its OpenAPI definitions file, as the reference's openapi generator
// does from July 2026 on.
//
// The reference compiles the generated definitions package into a small
// program that calls its GetOpenAPIDefinitions, keeps each definition's
// schema (or the OpenAPI v2 schema the definition embeds under
// common.ExtensionV2Schema, when it does), puts the schemas into a
// swagger 2.0 document titled "OpenShift API", version "unversioned", and
// prints it with encoding/json: two-space indentation, no HTML escaping,
// one trailing newline.
//
// Build does the same without writing into the tree: one go run in the
// repository's module directory, with an overlay (go help build, -overlay)
// that puts the given definitions in place of the file on disk and adds
// the program as a package of the module, in a directory the tree does not
// have. The program thus compiles against the module's own requirements,
// through its vendor directory when it has one, and needs neither a
// temporary module nor the network.
package openapijson

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/mod/modfile"
)

// DefinitionsFile is the name of the definitions file in its package
// directory.
const DefinitionsFile = "zz_generated.openapi.go"

// programDir is the base name of the directory, relative to the module
// directory, that the overlay adds the program in. A tree that has a
// directory of that name gets a numbered variant.
const programDir = "zz_gatedcrd_openapijson"

// Build returns the openapi.json bytes the reference writes for the
// definitions file `definitions` (the content of
// <pkgDir>/zz_generated.openapi.go as generated, which may differ from the
// file on disk, e.g. under --verify), compiling them against the API
// repository at moduleDir with the go command goCmd ("go" when empty).
// pkgDir is the definitions package's directory, absolute or relative to
// moduleDir, inside the module; the other files of that directory are
// compiled as they are. Nothing is written into the tree.
//
// The go command runs with the environment's GOFLAGS (so the tree's own
// -mod default applies, vendor mode with a vendor directory), GOWORK=off
// and GOTOOLCHAIN=local. A failure to compile or run the program comes
// back as an error holding the go command's standard error.
func Build(ctx context.Context, goCmd, moduleDir, pkgDir string, definitions []byte) ([]byte, error) {
	if goCmd == "" {
		goCmd = "go"
	}
	moduleDir, err := filepath.Abs(moduleDir)
	if err != nil {
		return nil, err
	}
	if !filepath.IsAbs(pkgDir) {
		pkgDir = filepath.Join(moduleDir, pkgDir)
	}
	pkgDir = filepath.Clean(pkgDir)
	rel, err := filepath.Rel(moduleDir, pkgDir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil, fmt.Errorf("openapi.json: the definitions package %s is not inside the module directory %s", pkgDir, moduleDir)
	}
	gomod, err := os.ReadFile(filepath.Join(moduleDir, "go.mod"))
	if err != nil {
		return nil, fmt.Errorf("openapi.json: %w", err)
	}
	modPath := modfile.ModulePath(gomod)
	if modPath == "" {
		return nil, fmt.Errorf("openapi.json: %s has no module path", filepath.Join(moduleDir, "go.mod"))
	}
	importPath := modPath
	if rel != "." {
		importPath = path.Join(modPath, filepath.ToSlash(rel))
	}
	mainDir, err := freeDir(moduleDir)
	if err != nil {
		return nil, err
	}

	tmp, err := os.MkdirTemp("", "gatedcrd-openapijson-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	defsFile := filepath.Join(tmp, DefinitionsFile)
	mainFile := filepath.Join(tmp, "main.go")
	overlayFile := filepath.Join(tmp, "overlay.json")
	replace := map[string]string{
		filepath.Join(pkgDir, DefinitionsFile):       defsFile,
		filepath.Join(moduleDir, mainDir, "main.go"): mainFile,
	}
	overlay, err := json.Marshal(struct{ Replace map[string]string }{replace})
	if err != nil {
		return nil, err
	}
	for _, f := range []struct {
		name string
		data []byte
	}{{defsFile, definitions}, {mainFile, program(importPath)}, {overlayFile, overlay}} {
		if err := os.WriteFile(f.name, f.data, 0o644); err != nil {
			return nil, err
		}
	}

	cmd := exec.CommandContext(ctx, goCmd, "run", "-overlay", overlayFile, "./"+mainDir)
	cmd.Dir = moduleDir
	cmd.Env = append(cmd.Environ(), "GOWORK=off", "GOTOOLCHAIN=local")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("openapi.json: %w", ctx.Err())
		}
		report := stderr.String()
		// The compiler names the overlay's files by their temporary
		// copies: name them as in the tree.
		for inTree, tmpPath := range replace {
			report = strings.ReplaceAll(report, tmpPath, inTree)
		}
		return nil, fmt.Errorf("openapi.json: compiling and running the definitions of %s (go run in %s): %w\n%s", importPath, moduleDir, err, strings.TrimRight(report, "\n"))
	}
	if stdout.Len() == 0 {
		return nil, fmt.Errorf("openapi.json: the program for %s printed nothing\n%s", importPath, strings.TrimRight(stderr.String(), "\n"))
	}
	return stdout.Bytes(), nil
}

// freeDir returns a directory name, relative to moduleDir, that does not
// exist there.
func freeDir(moduleDir string) (string, error) {
	for i := 0; i < 100; i++ {
		name := programDir
		if i > 0 {
			name += strconv.Itoa(i)
		}
		_, err := os.Lstat(filepath.Join(moduleDir, name))
		if errors.Is(err, os.ErrNotExist) {
			return name, nil
		}
		if err != nil {
			return "", err
		}
	}
	return "", fmt.Errorf("openapi.json: %s holds every directory name %s tried for its program", moduleDir, programDir)
}

// program returns the main package that prints the swagger document of
// the definitions package importPath.
func program(importPath string) []byte {
	return []byte(`package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"

	definitions ` + strconv.Quote(importPath) + `
	"k8s.io/kube-openapi/pkg/common"
	"k8s.io/kube-openapi/pkg/validation/spec"
)

func main() {
	ref := func(name string) spec.Ref {
		return spec.MustCreateRef("#/definitions/" + name)
	}
	defs := definitions.GetOpenAPIDefinitions(ref)
	schemas := make(map[string]spec.Schema, len(defs))
	for name, def := range defs {
		schema := def.Schema
		if v2, ok := def.Schema.Extensions[common.ExtensionV2Schema].(spec.Schema); ok {
			schema = v2
		}
		schemas[name] = schema
	}
	doc := &spec.Swagger{SwaggerProps: spec.SwaggerProps{
		Swagger:     "2.0",
		Info:        &spec.Info{InfoProps: spec.InfoProps{Title: "OpenShift API", Version: "unversioned"}},
		Definitions: schemas,
	}}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		fmt.Fprintln(os.Stderr, "encoding the swagger document:", err)
		os.Exit(1)
	}
	if _, err := os.Stdout.Write(out.Bytes()); err != nil {
		fmt.Fprintln(os.Stderr, "writing the swagger document:", err)
		os.Exit(1)
	}
}
`)
}
