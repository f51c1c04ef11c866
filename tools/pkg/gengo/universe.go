package gengo

import (
	"fmt"
	"runtime/debug"

	"golang.org/x/tools/go/packages"
	gengov2 "k8s.io/gengo/v2"
	"k8s.io/gengo/v2/generator"
	"k8s.io/gengo/v2/namer"
	"k8s.io/gengo/v2/parser"
	"k8s.io/gengo/v2/types"
)

// Universe is the parsed API packages of one run, shared by every gengo
// generator of the run. Its methods must not be called concurrently:
// gengo's context loads packages into the universe on demand.
type Universe struct {
	// base is the context every generator's context is copied from: it
	// holds the parser and the universe, built once.
	base *generator.Context
}

// Load parses the packages matched by patterns (go/packages patterns,
// resolved in dir, the directory of the module that holds them) and
// everything they import, with the build tag gengo generators exclude
// their own output with, as the reference does.
func Load(dir string, patterns []string) (*Universe, error) {
	p := parser.NewWithOptions(parser.Options{BuildTags: []string{gengov2.StdBuildTag}})
	// gengo's only way to load from a directory other than the process's
	// working directory; it takes the Dir and Env of the config.
	if err := p.LoadPackagesWithConfigForTesting(&packages.Config{Dir: dir}, patterns...); err != nil {
		return nil, fmt.Errorf("loading Go packages for gengo: %w", err)
	}
	c, err := generator.NewContext(p, namer.NameSystems{}, "")
	if err != nil {
		return nil, fmt.Errorf("building the gengo universe: %w", err)
	}
	return &Universe{base: c}, nil
}

// Package returns the universe's package of import path importPath, or
// nil when the load did not include it.
func (u *Universe) Package(importPath string) *types.Package {
	if p, ok := u.base.Universe[importPath]; ok && p.Dir != "" {
		return p
	}
	return nil
}

// context returns a context for one generator: the shared universe,
// inputs and the generator's name systems, with files assembled into
// sink.
func (u *Universe) context(inputs []string, nameSystems namer.NameSystems, defaultSystem string, sink generator.FileType) *generator.Context {
	c := *u.base
	c.Inputs = inputs
	c.Namers = namer.NameSystems{}
	for name, n := range nameSystems {
		c.Namers[name] = n
	}
	c.Order = order(c.Universe, c.Namers, defaultSystem)
	c.FileTypes = map[string]generator.FileType{generator.GoFileType: sink}
	return &c
}

// order is the canonical type order of the default name system, as
// gengo's NewContext computes it; a generator's namers may keep state, so
// each generator gets an order of its own.
func order(u types.Universe, nameSystems namer.NameSystems, defaultSystem string) []*types.Type {
	n, ok := nameSystems[defaultSystem]
	if !ok {
		return nil
	}
	return (&namer.Orderer{Namer: n}).OrderUniverse(u)
}

// LinkedKubeOpenAPI is the k8s.io/kube-openapi version this binary links
// ("" when the build records none): the release whose output OpenAPI
// gives in process.
func LinkedKubeOpenAPI() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	for _, d := range info.Deps {
		if d.Path == "k8s.io/kube-openapi" {
			if d.Replace != nil {
				return d.Replace.Version
			}
			return d.Version
		}
	}
	return ""
}
