// Package generator is the one contract of codegen's generators: each
// sub-command that writes files (compatibility, deepcopy, go-to-protobuf,
// modelname, swaggerdocs, the CRD stages, openapi) is a Generator, and a
// bare `codegen` runs the list the command registers, in order (Run),
// against one Context.
//
// The model is controller-tools' genall.Generator: a generator gets the
// run's shared state and records what it would write; it never writes
// itself. The Context holds what every generator reads (the discovered
// API groups with their .codegen.yaml, the tree of pending files, the
// run's diagnostics) and the Go packages loaded once per loader for all of
// them (Gengo: gengo's universe; the CRD stages keep controller-tools'
// loader in the pipeline). After the last generator, the caller commits
// the tree or, under --verify, reports every file that differs and
// writes nothing.
package generator

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
	"github.com/gatedcrd/gatedcrd/tools/pkg/gencache"
	"github.com/gatedcrd/gatedcrd/tools/pkg/gengo"
	"github.com/gatedcrd/gatedcrd/tools/pkg/openapiera"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// Generator is one generator of codegen.
type Generator interface {
	// Name is the generator's sub-command, e.g. "deepcopy".
	Name() string
	// Generate records the generator's files for every API group of ctx
	// in ctx.Tree. Problems with a position go to ctx.Problems (errors
	// among them fail the run); the error result is for a failure that
	// has none, such as a package that does not load.
	Generate(ctx *Context) error
}

// Context is the state a run's generators share.
type Context struct {
	// Discovery holds the API groups and versions the run covers, each
	// group with its .codegen.yaml.
	Discovery *discovery.Result
	// Tree receives every file generated; it also reads the files as the
	// generators before have left them.
	Tree *tree.Tree
	// Verify says the files will be compared, not written; a generator
	// whose checks only the reference's --verify makes (swaggerdocs'
	// comment policy) reads it.
	Verify bool
	// Partial says the run covers only some group-versions
	// (--api-group-versions).
	Partial bool
	// Problems collects the run's diagnostics.
	Problems *diag.List
	// Log receives progress lines (the reference's -v 1 lines); nil
	// discards them.
	Log io.Writer
	// Cache, when set, keeps the files of Cached generators between runs.
	Cache *gencache.Cache
	// GengoPatterns, when not nil, are the packages Gengo loads instead
	// of every API package and the Kubernetes packages: codegen watch
	// regenerates the files of a few packages from a universe of those
	// and of what they import that a whole load would request too.
	GengoPatterns []string

	gengoOnce sync.Once
	universe  *gengo.Universe
	gengoErr  error
	kubeOnce  sync.Once
	kube      []string
	kubeErr   error
	inputOnce sync.Once
	inputs    *gencache.Inputs
	wholeOnce sync.Once
	whole     *discovery.Result
	wholeErr  error
}

// Whole is the discovery of every group-version: Discovery itself, or
// in a partial run (--api-group-versions) a discovery without the filter,
// for a generator whose one file covers every group (openapi).
func (c *Context) Whole() (*discovery.Result, error) {
	if !c.Partial {
		return c.Discovery, nil
	}
	c.wholeOnce.Do(func() {
		var problems *diag.List
		c.whole, problems, c.wholeErr = discovery.Discover(c.Discovery.BaseDir, nil)
		if c.wholeErr != nil && problems != nil {
			c.Problems.Add(problems.Items()...)
		}
	})
	return c.whole, c.wholeErr
}

// Cached runs generate, a generator of Go files whose output depends only
// on the module's Go inputs, its options and headers (see gencache), into
// a tree of its own, and records what it wrote in c.Tree. When the cache
// holds the files of a run with the same key, it records those instead
// and generate does not run: nothing is loaded. Warnings generate would
// have reported are not repeated on such a run.
func (c *Context) Cached(name, options string, headers []string, generate func(t *tree.Tree) error) error {
	key := c.CacheKey(name, options, headers)
	if files, ok := c.Recall(key); ok {
		c.record(files)
		c.Logf("%s: %d file(s) from the cache (unchanged Go inputs and options)", name, len(files))
		return nil
	}
	t := tree.New()
	if err := generate(t); err != nil {
		return err
	}
	files := t.Written()
	c.record(files)
	c.Keep(key, files)
	return nil
}

// record puts files into the run's tree.
func (c *Context) record(files map[string][]byte) {
	for p, data := range files {
		c.Tree.Put(p, data)
	}
}

// Recall returns the files kept for key (by absolute path); "" and a miss
// return false.
func (c *Context) Recall(key string) (map[string][]byte, bool) {
	if key == "" {
		return nil, false
	}
	return c.Cache.Get(key, c.Discovery.ModuleDir)
}

// Keep keeps files (by absolute path below the module) for key, unless
// key is "".
func (c *Context) Keep(key string, files map[string][]byte) {
	if key == "" {
		return
	}
	if err := c.Cache.Put(key, c.Discovery.ModuleDir, files); err != nil {
		c.Logf("generated files not cached: %v", err)
	}
}

// CacheKey is the cache key of a run of generator name with options and
// header files over the module's Go inputs, "" when nothing is cached.
func (c *Context) CacheKey(name, options string, headers []string) string {
	if c.Cache == nil {
		return ""
	}
	c.inputOnce.Do(func() {
		in, err := gencache.ReadInputs(c.Discovery.ModuleDir)
		if err != nil {
			c.Logf("generated files are not cached: %v", err)
		}
		c.inputs = in
	})
	if c.inputs == nil {
		return ""
	}
	key, err := c.inputs.Key(name, options, headers...)
	if err != nil {
		return ""
	}
	return key
}

// KubernetesPackages are gengo.OpenAPIKubernetesPackages with their
// patterns resolved as in a checkout that vendors its requirements (see
// openapiera.ModulePatterns): the import paths the reference loads and
// documents.
func (c *Context) KubernetesPackages() ([]string, error) {
	c.kubeOnce.Do(func() {
		c.kube, c.kubeErr = openapiera.ModulePatterns(context.Background(), c.Discovery.ModuleDir, gengo.OpenAPIKubernetesPackages)
	})
	return c.kube, c.kubeErr
}

// Logf prints a progress line.
func (c *Context) Logf(format string, args ...any) {
	if c.Log != nil {
		fmt.Fprintf(c.Log, format+"\n", args...)
	}
}

// Gengo returns the run's gengo universe: every API package (of the whole
// tree, also in a partial run: openapi documents them all) and the
// Kubernetes packages OpenAPI documents, or GengoPatterns when set,
// parsed on the first call and shared by every later one.
func (c *Context) Gengo() (*gengo.Universe, error) {
	c.gengoOnce.Do(func() {
		if c.GengoPatterns != nil {
			c.universe, c.gengoErr = gengo.Load(c.Discovery.ModuleDir, c.GengoPatterns)
			return
		}
		kube, err := c.KubernetesPackages()
		if err != nil {
			c.gengoErr = err
			return
		}
		whole, err := c.Whole()
		if err != nil {
			c.gengoErr = err
			return
		}
		patterns := append([]string{}, kube...)
		for _, v := range whole.Versions() {
			patterns = append(patterns, v.ImportPath)
		}
		c.universe, c.gengoErr = gengo.Load(c.Discovery.ModuleDir, patterns)
	})
	return c.universe, c.gengoErr
}

// Starter is a generator that can begin work before its turn, in another
// process or on data no other generator touches. Start records nothing;
// Generate finishes the work.
type Starter interface {
	Start(ctx *Context)
}

// Start starts every Starter of gens: a bare run calls it with every
// generator first, so that openapi's program runs while the generators
// before it do.
func Start(ctx *Context, gens ...Generator) {
	for _, g := range gens {
		if s, ok := g.(Starter); ok {
			s.Start(ctx)
		}
	}
}

// Run runs gens in order against ctx. A generator's error does not stop
// the ones after it, as with the reference, which reports every failing
// generator; the errors are returned together.
func Run(ctx *Context, gens ...Generator) error {
	var errs []error
	for _, g := range gens {
		if err := g.Generate(ctx); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", g.Name(), err))
		}
	}
	return errors.Join(errs...)
}
