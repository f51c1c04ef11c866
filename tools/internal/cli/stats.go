package cli

import (
	"encoding/json"
	"fmt"

	"time"

	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// runStats is what --stats FILE records: a machine-readable account of one
// run, used by the benchmark harness (tools/cmd/benchtable).
type runStats struct {
	Stages           []stageTiming `json:"stages"`
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

type stageTiming struct {
	Name    string  `json:"name"`
	Seconds float64 `json:"seconds"`
}

func (s *runStats) addStage(name string, d time.Duration) {
	s.Stages = append(s.Stages, stageTiming{Name: name, Seconds: d.Seconds()})
}

// counts renders the work counters for the progress summary line.
func (s *runStats) counts() string {
	return fmt.Sprintf("%d CRD(s), %d partial manifest(s), %d gate set(s), %d tuple(s) from %d merge(s) into %d file(s)",
		s.CRDs, s.PartialManifests, s.GateSets, s.Tuples, s.MergesComputed, s.MergedFiles)
}

func (s *runStats) setFiles(st tree.Stats) {
	s.FilesWritten, s.FilesUnchanged, s.FilesRemoved = st.Written, st.Unchanged, st.Removed
}

// write saves the stats as JSON; an empty path disables it.
func (s *runStats) write(path string, total time.Duration) error {
	if path == "" {
		return nil
	}
	s.TotalSeconds = total.Seconds()
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return tree.WriteFileAtomic(path, append(data, '\n'))
}
