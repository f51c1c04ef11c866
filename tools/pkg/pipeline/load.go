package pipeline

import (
	"context"
	"fmt"
	"go/ast"
	"maps"
	"runtime/trace"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/compatlevel"
	"github.com/gatedcrd/gatedcrd/tools/pkg/crdvalidate"
	"github.com/gatedcrd/gatedcrd/tools/pkg/goload"
	"github.com/gatedcrd/gatedcrd/tools/pkg/partialschemas"
	"github.com/gatedcrd/gatedcrd/tools/pkg/strictmarkers"
)

// Loaded is the loaded universe: the Go packages of every discovered
// version, loaded once for the whole run. Universe is nil when no selected
// stage needs Go types (crd-manifest-merge alone).
type Loaded struct {
	*Discovered
	Universe *goload.Universe
	// Overlay holds the Go files this run edited before loading (absolute
	// path to content: the compatibility lines of .gatedcrd.yaml's
	// compatibility section); they are loaded from memory and written with
	// the other changes.
	Overlay map[string][]byte

	// existing reads stage 1's existing partial manifests from the start
	// of Load on, while the go command lists the packages; nil when stage
	// 1 was not selected, and once stage 1 took it over.
	existing *partialschemas.Prefetch
	// sources locates schema paths in Universe, once a step asked.
	sources *crdvalidate.Sources
}

// Load loads the Go packages of every discovered version in one
// go/packages call, when a selected stage needs them. When .gatedcrd.yaml
// enables compatibility lines, it first brings them up to date in the tree
// and loads the edited files from memory.
func (d *Discovered) Load() (*Loaded, error) {
	r := d.Run
	defer r.cancelLoad()
	l := &Loaded{Discovered: d}
	if r.Options.Stages&(PartialSchemas|SchemaPatch) == 0 {
		for _, v := range d.Discovery.Versions() {
			v.Files = nil // no stage reads Go
		}
		return l, nil
	}
	if r.Options.Stages&PartialSchemas != 0 && r.Options.Kinds == nil {
		l.existing = partialschemas.StartPrefetch(r.Tree, d.Discovery, r.kept().manifests)
	}
	if err := l.load(); err != nil {
		l.stopReading()
		return nil, err
	}
	if r.Options.OnLoaded != nil {
		r.Options.OnLoaded(l)
	}
	return l, nil
}

// stopReading waits for the reading of stage 1's partial manifests, on
// a path that does not reach stage 1: no read outlives the run.
func (l *Loaded) stopReading() {
	if l.existing != nil {
		l.existing.Wait()
	}
}

// takeExisting hands the reading of stage 1's existing partial manifests
// over to stage 1, which waits for it and keeps what it needs: the files
// read and parsed (old schemas and all, 17 MB of objects on openshift/api)
// would otherwise stay live for the whole run.
func (l *Loaded) takeExisting() *partialschemas.Prefetch {
	p := l.existing
	l.existing = nil
	return p
}

// load is Load once stage 1's reading is under way.
func (l *Loaded) load() error {
	d, r := l.Discovered, l.Run
	if d.Config.Compatibility.Enabled {
		r.timed("compatibility", func() error {
			res, problems := compatlevel.Run(compatlevel.Input{Discovery: d.Discovery, Tree: r.Tree, Config: d.Config.Compatibility, EnforceLevels: d.Config.Compatibility.Configured(),
				ConfigFile: d.Config.File, Partial: len(r.Options.GroupVersions) > 0})
			r.Problems.Add(problems...)
			if res != nil {
				l.Overlay = res.Sources
			}
			return nil
		})
		if err := r.check(nil); err != nil {
			return err
		}
	}
	return r.check(r.timed("load", l.loadPackages))
}

// loadPackages loads the discovered versions' packages, taking over the
// files discovery parsed: the universe owns them from here.
func (l *Loaded) loadPackages() error {
	d, r := l.Discovered, l.Run
	var paths []string
	parsed := map[string]*ast.File{}
	for _, v := range d.Discovery.Versions() {
		paths = append(paths, v.ImportPath)
		maps.Copy(parsed, v.Files)
		v.Files = nil
	}
	opts := goload.Options{Overlay: l.Overlay, Fset: d.Discovery.Fset, Parsed: parsed}
	var u *goload.Universe
	var err error
	if r.Options.LoadUniverse != nil {
		u, err = r.Options.LoadUniverse(d.Discovery.BaseDir, paths, opts)
	} else if r.pending != nil {
		u, err = r.pending.Finish(paths, opts)
		r.pending = nil
	} else {
		u, err = goload.LoadWith(d.Discovery.BaseDir, paths, opts)
	}
	if err != nil {
		return fmt.Errorf("loading Go packages: %w", err)
	}
	l.Universe = u
	r.Stats.PackageLoads = u.Loads()
	r.Stats.PackagesLoaded = u.PackageCount()
	return nil
}

// Sources is the one way from a generated schema path to the Go type,
// field or marker it came from, for every step that reports positions;
// nil when no Go was loaded. It is built on first use and shared.
func (l *Loaded) Sources() *crdvalidate.Sources {
	if l.Universe == nil {
		return nil
	}
	if l.sources == nil {
		l.sources = crdvalidate.NewSources(l.Universe, l.groupVersionPackages())
	}
	return l.sources
}

// Checked is a loaded universe whose markers passed strict mode.
type Checked struct {
	*Loaded
	// typed is closed once the root packages are type-checked (see
	// startTypeCheck); nil when nothing checks them ahead.
	typed <-chan struct{}
}

// CheckMarkers runs strict mode over the loaded packages: marker lines no
// stage understands, misspelled arguments, unknown FeatureGate names (when
// the payload directory can be read). Unless the run is strict (Strict)
// the findings are warnings.
func (l *Loaded) CheckMarkers() (*Checked, error) {
	r := l.Run
	if l.Universe == nil {
		return &Checked{Loaded: l}, nil
	}
	var typed chan struct{}
	if r.Options.Stages&PartialSchemas != 0 {
		// Stage 1 starts with checkTypes, which waits for it.
		typed = l.startTypeCheck()
	}
	r.timed("strict-markers", func() error {
		// The payload directory is read while the marker lines are
		// checked: only their gate names need it.
		scanned := make(chan *strictmarkers.Scanned, 1)
		go func() { scanned <- strictmarkers.ScanWith(l.Universe, r.kept().markerLines) }()
		in := strictmarkers.Input{Universe: l.Universe, PayloadDir: r.Options.PayloadDir}
		if d, err := r.Payload(); err == nil {
			for _, g := range d.Gates() {
				in.KnownGates = append(in.KnownGates, string(g))
			}
		} else if r.Options.Stages&ManifestMerge == 0 {
			// The merge stage reports an unreadable payload directory itself.
			for _, d := range r.payloadProblems(err) {
				d.Severity = diag.Warning
				d.Message = "cannot check FeatureGate names in markers: " + d.Message
				r.Problems.Add(d)
			}
		}
		found := &diag.List{}
		(<-scanned).Report(in, found)
		found.MarkStrict()
		r.Problems.Add(found.Items()...)
		return nil
	})
	if err := r.check(nil); err != nil {
		if typed != nil {
			<-typed // no step of the run outlives it
		}
		l.stopReading()
		return nil, err
	}
	return &Checked{Loaded: l, typed: typed}, nil
}

// startTypeCheck type-checks the root packages on a goroutine of its own
// and returns the channel closed when it is done. It runs while strict
// mode reads the roots' comments: type-checking reads the same syntax and
// parses the packages they import, which strict mode does not read, and
// on a watch cycle type-checking the changed roots (openshift/api's
// config/v1) would otherwise start stage 1 with a core idle. The roots
// get their syntax first, here: controller-tools parses a package on
// first use without a lock, so the two must not both parse one.
func (l *Loaded) startTypeCheck() chan struct{} {
	done := make(chan struct{})
	for _, root := range l.Universe.Roots {
		root.NeedSyntax()
	}
	go func() {
		defer close(done)
		defer trace.StartRegion(context.Background(), "check-types").End()
		for _, root := range l.Universe.Roots {
			l.Universe.Checker.Check(root)
		}
	}()
	return done
}

// checkTypes type-checks every root package (or waits for
// startTypeCheck to have done so), which parses the packages
// their types refer to, and then drops the function bodies of all of them
// before stage 1 collects their markers: strict mode, the one step that
// reads every comment of a root, is done, and the marker collector would
// otherwise walk every statement of every package stage 1 indexes
// (k8s.io/api/core/v1 alone is 2.4 MB of Go, most of it generated method
// bodies), though it associates no marker inside a function.
func (c *Checked) checkTypes() {
	if c.Universe == nil {
		return
	}
	if c.typed != nil {
		<-c.typed
	} else {
		for _, root := range c.Universe.Roots {
			c.Universe.Checker.Check(root)
		}
	}
	c.dropBodies()
}

// dropBodies drops the function bodies of the packages parsed so far
// (goload.Universe.DropFunctionBodies): strict mode, which reads all of a
// root, is done, no later step reads a body, and they are a large part of
// what a run keeps live.
func (l *Loaded) dropBodies() {
	if l.Universe != nil {
		l.Universe.DropFunctionBodies()
	}
}
