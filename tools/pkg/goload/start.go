package goload

import (
	"context"
	"go/token"
	"slices"

	"sigs.k8s.io/controller-tools/pkg/loader"
)

// Pending is a load started before the run knows everything LoadWith
// takes (Start): the go command lists the packages, its longest part,
// while discovery parses the selected packages' files.
type Pending struct {
	dir    string
	fset   *token.FileSet
	paths  []string
	cancel context.CancelFunc
	done   chan struct{}
	roots  []*loader.Package
	err    error
}

// Start starts loading importPaths with dir as the working directory of
// the go command, positioning files by fset, without an overlay. Finish
// or Cancel it.
func Start(dir string, fset *token.FileSet, importPaths []string) *Pending {
	ctx, cancel := context.WithCancel(context.Background())
	p := &Pending{dir: dir, fset: fset, paths: importPaths, cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(p.done)
		cfg := packagesConfig(dir, fset, nil)
		cfg.Context = ctx
		p.roots, p.err = loader.LoadRootsWithConfig(cfg, importPaths...)
		if p.err == nil {
			leaveOutInert(p.roots, nil, nil)
		}
	}()
	return p
}

// Cancel stops the load (the go command is killed) and waits for it.
func (p *Pending) Cancel() {
	p.cancel()
	<-p.done
}

// Finish completes the load as LoadWith(dir, importPaths, opts) would,
// dir being Start's. The started load serves when importPaths are among
// the ones Start was given, opts.Fset is Start's file set and there is no
// overlay; otherwise Finish cancels it and loads anew (Universe.Loads does
// not count the cancelled call).
func (p *Pending) Finish(importPaths []string, opts Options) (*Universe, error) {
	if !p.serves(importPaths, opts) {
		p.Cancel()
		return LoadWith(p.dir, importPaths, opts)
	}
	<-p.done
	p.cancel()
	if p.err != nil {
		return nil, p.err
	}
	u, err := newUniverse(p.fset)
	if err != nil {
		return nil, err
	}
	u.loads++
	if err := u.adopt(p.roots, importPaths, opts); err != nil {
		return nil, err
	}
	return u, nil
}

func (p *Pending) serves(importPaths []string, opts Options) bool {
	if len(importPaths) == 0 || opts.Fset != p.fset || len(opts.Overlay) > 0 {
		return false
	}
	for _, ip := range importPaths {
		if !slices.Contains(p.paths, ip) {
			return false
		}
	}
	return true
}
