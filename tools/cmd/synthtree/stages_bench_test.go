package main

import (
	"testing"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/pipeline"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// BenchmarkStages times each step of the pipeline on the full-size
// synthetic tree (seed 1), for regression tracking with benchstat:
//
//	go test -run '^$' -bench Stages -count 6 ./cmd/synthtree | tee new.txt
//	benchstat old.txt new.txt
//
// Every stage runs against the run's in-memory overlay tree: stage 2 and 3
// see the previous stage's output without anything being written to disk.
func BenchmarkStages(b *testing.B) {
	dir := b.TempDir()
	if _, err := generate(dir, 1, 25, ""); err != nil {
		b.Fatal(err)
	}
	opts := pipeline.Options{BaseDir: dir, PayloadDir: pipeline.DefaultPayloadDir}
	must := func(err error) {
		if err != nil {
			b.Fatal(err)
		}
	}
	b.Run("discovery", func(b *testing.B) {
		for b.Loop() {
			_, err := pipeline.New(opts).Discover()
			must(err)
		}
	})
	r := pipeline.New(opts)
	d, err := r.Discover()
	must(err)
	b.Run("load", func(b *testing.B) {
		for b.Loop() {
			_, err := d.Load()
			must(err)
		}
	})

	// The stages share one universe, as in a real run; each iteration
	// starts from an empty overlay.
	l, err := d.Load()
	must(err)
	c, err := l.CheckMarkers()
	must(err)
	stage1 := func() *pipeline.Partials {
		r.Tree, r.Problems = tree.New(), &diag.List{}
		p, err := c.PartialManifests()
		must(err)
		return p
	}
	stage2 := func(p *pipeline.Partials) *pipeline.Schemas {
		s, err := p.Schemas()
		must(err)
		return s
	}
	stage3 := func(s *pipeline.Schemas) *pipeline.Merged {
		m, err := s.Merge()
		must(err)
		return m
	}
	b.Run("empty-partial-schemas", func(b *testing.B) {
		for b.Loop() {
			stage1()
		}
	})
	b.Run("schemapatch", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			p := stage1()
			b.StartTimer()
			stage2(p)
		}
	})
	b.Run("crd-manifest-merge", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			s := stage2(stage1())
			b.StartTimer()
			stage3(s)
		}
	})
	b.Run("changes", func(b *testing.B) {
		v, err := stage3(stage2(stage1())).Validate()
		must(err)
		d, err := v.GateDocs()
		must(err)
		for b.Loop() {
			_, err := d.Changes()
			must(err)
		}
	})
}
