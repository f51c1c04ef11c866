package main

import (
	"path/filepath"
	"testing"

	"github.com/gatedcrd/gatedcrd/features/payload"
	"github.com/gatedcrd/gatedcrd/tools/pkg/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
	"github.com/gatedcrd/gatedcrd/tools/pkg/goload"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifestmerge"
	"github.com/gatedcrd/gatedcrd/tools/pkg/partialschemas"
	"github.com/gatedcrd/gatedcrd/tools/pkg/schemapatch"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// BenchmarkStages times each stage of the pipeline on the full-size
// synthetic tree (seed 1), for regression tracking with benchstat:
//
//	go test -run '^$' -bench Stages -count 6 ./cmd/synthtree | tee new.txt
//	benchstat old.txt new.txt
//
// Every stage runs against an in-memory overlay tree: stage 2 and 3 see
// the previous stage's output without anything being written to disk.
func BenchmarkStages(b *testing.B) {
	dir := b.TempDir()
	if _, err := generate(dir, 1, 25, ""); err != nil {
		b.Fatal(err)
	}
	disc, _, err := discovery.Discover(dir, nil)
	if err != nil {
		b.Fatal(err)
	}
	var paths []string
	for _, v := range disc.Versions() {
		paths = append(paths, v.ImportPath)
	}
	pd, err := payload.ReadDir(filepath.Join(dir, "payload-manifests/featuregates"))
	if err != nil {
		b.Fatal(err)
	}

	b.Run("discovery", func(b *testing.B) {
		for b.Loop() {
			if _, _, err := discovery.Discover(dir, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("load", func(b *testing.B) {
		for b.Loop() {
			if _, err := goload.Load(dir, paths); err != nil {
				b.Fatal(err)
			}
		}
	})

	// The stages share one universe, as in a real run.
	u, err := goload.Load(dir, paths)
	if err != nil {
		b.Fatal(err)
	}
	stage1 := func(t *tree.Tree) {
		p := &diag.List{}
		if _, err := partialschemas.Run(partialschemas.Input{Discovery: disc, Universe: u, Tree: t, Problems: p}); err != nil || p.HasErrors() {
			b.Fatalf("stage 1: %v %v", err, p.Err())
		}
	}
	stage2 := func(t *tree.Tree) {
		p := &diag.List{}
		if _, err := schemapatch.Run(schemapatch.Input{Discovery: disc, Universe: u, Tree: t, Problems: p}); err != nil || p.HasErrors() {
			b.Fatalf("stage 2: %v %v", err, p.Err())
		}
	}
	stage3 := func(t *tree.Tree) {
		p := &diag.List{}
		if _, err := manifestmerge.Run(manifestmerge.Input{Discovery: disc, Tree: t, Problems: p, Payload: pd}); err != nil || p.HasErrors() {
			b.Fatalf("stage 3: %v %v", err, p.Err())
		}
	}
	b.Run("empty-partial-schemas", func(b *testing.B) {
		for b.Loop() {
			stage1(tree.New())
		}
	})
	b.Run("schemapatch", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			t := tree.New()
			stage1(t)
			b.StartTimer()
			stage2(t)
		}
	})
	b.Run("crd-manifest-merge", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			t := tree.New()
			stage1(t)
			stage2(t)
			b.StartTimer()
			stage3(t)
		}
	})
	b.Run("changes", func(b *testing.B) {
		t := tree.New()
		stage1(t)
		stage2(t)
		stage3(t)
		for b.Loop() {
			if _, _, err := t.Changes(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
