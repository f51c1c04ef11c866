package watch

import (
	"bytes"
	"os"
	"runtime/pprof"
	"testing"

	"github.com/google/pprof/profile"
)

// saveProfiles records a CPU profile of each save-to-report span of
// BenchmarkSaveToDisk and writes them merged into one file, the one
// GATEDCRD_BENCH_CPUPROFILE names: go test's -cpuprofile also holds the
// tree's preparation, the first, full cycle and what the watcher does
// between saves (parsing the files a cycle wrote), which is not in a
// save's latency but is more CPU than the saves themselves.
type saveProfiles struct {
	b       *testing.B
	path    string
	current bytes.Buffer
	spans   []*profile.Profile
}

// profileSaves returns the recorder of the save spans, which records
// nothing when GATEDCRD_BENCH_CPUPROFILE is not set.
func profileSaves(b *testing.B) *saveProfiles {
	return &saveProfiles{b: b, path: os.Getenv("GATEDCRD_BENCH_CPUPROFILE")}
}

// start starts the profile of one save.
func (p *saveProfiles) start() {
	if p.path == "" {
		return
	}
	p.current.Reset()
	if err := pprof.StartCPUProfile(&p.current); err != nil {
		p.b.Fatal(err)
	}
}

// stop ends the profile of the save that start began.
func (p *saveProfiles) stop() {
	if p.path == "" {
		return
	}
	pprof.StopCPUProfile()
	span, err := profile.Parse(&p.current)
	if err != nil {
		p.b.Fatal(err)
	}
	p.spans = append(p.spans, span)
}

// write merges the profiles of the saves into the file.
func (p *saveProfiles) write() {
	if p.path == "" || len(p.spans) == 0 {
		return
	}
	merged, err := profile.Merge(p.spans)
	if err != nil {
		p.b.Fatal(err)
	}
	f, err := os.Create(p.path)
	if err != nil {
		p.b.Fatal(err)
	}
	if err := merged.Write(f); err != nil {
		p.b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		p.b.Fatal(err)
	}
}
