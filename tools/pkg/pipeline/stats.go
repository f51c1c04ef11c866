package pipeline

import (
	"fmt"
	"time"

	"github.com/gatedcrd/gatedcrd/tools/pkg/partialschemas"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// Stats is the account of one run: what codegen --stats FILE writes as
// JSON, read by the benchmark harness (tools/cmd/benchtable).
type Stats struct {
	Stages           []StageTiming `json:"stages"`
	PackageLoads     int           `json:"packageLoads"`
	PackagesLoaded   int           `json:"packagesLoaded"`
	CRDs             int           `json:"crds"`
	PartialManifests int           `json:"partialManifests"`
	PartialUnchanged int           `json:"partialUnchanged"`
	GateSets         int           `json:"gateSets"`
	SchemasGenerated int           `json:"schemasGenerated"`
	Tuples           int           `json:"tuples"`
	MergesComputed   int           `json:"mergesComputed"`
	MergedFiles      int           `json:"mergedFiles"`
	FilesWritten     int           `json:"filesWritten"`
	FilesUnchanged   int           `json:"filesUnchanged"`
	FilesRemoved     int           `json:"filesRemoved"`
	TotalSeconds     float64       `json:"totalSeconds"`
}

// StageTiming is the wall time of one step.
type StageTiming struct {
	Name    string  `json:"name"`
	Seconds float64 `json:"seconds"`
}

func (s *Stats) addStage(name string, d time.Duration) {
	s.Stages = append(s.Stages, StageTiming{Name: name, Seconds: d.Seconds()})
}

// addPartials counts stage 1's CRDs and partial manifests.
func (s *Stats) addPartials(res *partialschemas.Result) {
	for _, v := range res.Versions {
		s.CRDs += len(v.CRDs)
		for _, c := range v.CRDs {
			s.PartialManifests += len(c.Manifests)
			for _, m := range c.Manifests {
				if m.Action == partialschemas.Unchanged {
					s.PartialUnchanged++
				}
			}
		}
	}
}

func (s *Stats) setFiles(st tree.Stats) {
	s.FilesWritten, s.FilesUnchanged, s.FilesRemoved = st.Written, st.Unchanged, st.Removed
}

// Counts renders the work counters for a progress summary line.
func (s *Stats) Counts() string {
	return fmt.Sprintf("%d CRD(s), %d partial manifest(s), %d gate set(s), %d tuple(s) from %d merge(s) into %d file(s)",
		s.CRDs, s.PartialManifests, s.GateSets, s.Tuples, s.MergesComputed, s.MergedFiles)
}

// Timings renders the duration of every step so far, "name 12ms".
func (s *Stats) Timings() []string {
	var out []string
	for _, st := range s.Stages {
		out = append(out, fmt.Sprintf("%s %s", st.Name, time.Duration(st.Seconds*float64(time.Second)).Round(time.Millisecond)))
	}
	return out
}
