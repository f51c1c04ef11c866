package openapiera

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/mod/modfile"
)

// ModulePatterns resolves the wildcard patterns of inputs that name
// packages outside the module at moduleDir the way the go command
// resolves them in a module with a vendor directory: a wildcard there
// matches only vendored packages, those the module's packages and their
// tests import, directly or not. Each such pattern is replaced, in place,
// by the packages of that import graph it matches, sorted as the go
// command lists them, or by nothing; every other input is kept.
//
// The reference runs in the openshift/api repository, which vendors its
// requirements: its k8s.io/apimachinery/pkg/version/... input matches
// nothing until an API package imports k8s.io/apimachinery/pkg/version.
// A tree without its vendor directory (a module zip) would match the
// package in the module cache and generate its types; resolving the
// pattern here gives the vendored answer either way. (The vendor
// directory holds the imports of every platform and build tag; the graph
// here is the current platform's, which only differs for packages
// imported under a constraint.)
func ModulePatterns(ctx context.Context, moduleDir string, inputs []string) ([]string, error) {
	var wild []string
	for _, in := range inputs {
		if isForeignWildcard(in, "") {
			wild = append(wild, in)
		}
	}
	if len(wild) == 0 {
		return inputs, nil
	}
	modPath, err := modulePath(moduleDir)
	if err != nil {
		return nil, err
	}
	var graph []string
	out := make([]string, 0, len(inputs))
	for _, in := range inputs {
		if !isForeignWildcard(in, modPath) {
			out = append(out, in)
			continue
		}
		if graph == nil {
			if graph, err = importGraph(ctx, moduleDir); err != nil {
				return nil, err
			}
		}
		match := matcher(in)
		for _, p := range graph {
			if match(p) {
				out = append(out, p)
			}
		}
	}
	return out, nil
}

// isForeignWildcard reports whether pattern is a wildcard import path
// pattern outside module modPath ("" when not yet known: any module).
func isForeignWildcard(pattern, modPath string) bool {
	if !strings.Contains(pattern, "...") || strings.HasPrefix(pattern, ".") || filepath.IsAbs(pattern) {
		return false
	}
	if modPath == "" {
		return true
	}
	prefix, _, _ := strings.Cut(pattern, "...")
	prefix = strings.TrimSuffix(prefix, "/")
	return !(prefix == modPath || strings.HasPrefix(prefix, modPath+"/") || strings.HasPrefix(modPath, prefix))
}

// matcher returns the go command's match of a wildcard import path
// pattern: "..." matches any string, and a pattern ending in /... also
// matches the path without it.
func matcher(pattern string) func(string) bool {
	parts := strings.Split(pattern, "...")
	return func(p string) bool {
		if strings.HasSuffix(pattern, "/...") && p == strings.TrimSuffix(pattern, "/...") {
			return true
		}
		if !strings.HasPrefix(p, parts[0]) {
			return false
		}
		rest := p[len(parts[0]):]
		for i, part := range parts[1:] {
			if i == len(parts)-2 {
				return strings.HasSuffix(rest, part)
			}
			j := strings.Index(rest, part)
			if j < 0 {
				return false
			}
			rest = rest[j+len(part):]
		}
		return true
	}
}

// modulePath returns the module path of moduleDir/go.mod.
func modulePath(moduleDir string) (string, error) {
	path := filepath.Join(moduleDir, "go.mod")
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	if p := modfile.ModulePath(data); p != "" {
		return p, nil
	}
	return "", fmt.Errorf("%s has no module line", path)
}

// importGraph lists the packages outside the standard library that the
// packages of the module at moduleDir and their tests import, directly or
// not, with the user's go environment (as the program's package loading
// has).
func importGraph(ctx context.Context, moduleDir string) ([]string, error) {
	cmd := exec.CommandContext(ctx, "go", "list", "-e", "-deps", "-test", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "./...")
	cmd.Dir = moduleDir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("listing the imports of the module in %s: %w\n%s", moduleDir, err, strings.TrimSpace(stderr.String()))
	}
	seen := map[string]bool{}
	var graph []string
	for _, line := range strings.Split(string(out), "\n") {
		// -test lists test variants as "p [p.test]" and test mains as
		// p.test; a variant imports what its package does.
		p, _, _ := strings.Cut(strings.TrimSpace(line), " ")
		if p == "" || strings.HasSuffix(p, ".test") || seen[p] {
			continue
		}
		seen[p] = true
		graph = append(graph, p)
	}
	sort.Strings(graph)
	return graph, nil
}
