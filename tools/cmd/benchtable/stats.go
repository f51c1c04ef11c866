package main

import (
	"encoding/json"
	"fmt"
	"os"
)

// stats is the file `codegen crd-manifests --stats F` writes. Every key is
// optional: a missing one is shown as "–".
type stats struct {
	Stages []struct {
		Name    string   `json:"name"`
		Seconds *float64 `json:"seconds"`
	} `json:"stages"`
	PackagesLoaded   *int     `json:"packagesLoaded"`
	CRDs             *int     `json:"crds"`
	PartialManifests *int     `json:"partialManifests"`
	SchemasGenerated *int     `json:"schemasGenerated"`
	GateSets         *int     `json:"gateSets"`
	MergesComputed   *int     `json:"mergesComputed"`
	Tuples           *int     `json:"tuples"`
	FilesWritten     *int     `json:"filesWritten"`
	FilesUnchanged   *int     `json:"filesUnchanged"`
	FilesRemoved     *int     `json:"filesRemoved"`
	TotalSeconds     *float64 `json:"totalSeconds"`
}

func readStats(path string) (*stats, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var s stats
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &s, nil
}

// stageSeconds returns the seconds of the stages whose names are in names,
// summed, and whether any was present.
func (s *stats) stageSeconds(names ...string) (float64, bool) {
	if s == nil {
		return 0, false
	}
	var sum float64
	found := false
	for _, st := range s.Stages {
		for _, n := range names {
			if st.Name == n && st.Seconds != nil {
				sum += *st.Seconds
				found = true
			}
		}
	}
	return sum, found
}
