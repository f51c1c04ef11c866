package cli

import (
	"encoding/json"
	"time"

	"github.com/gatedcrd/gatedcrd/tools/pkg/pipeline"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// writeStats saves the run's stats as JSON (--stats); an empty path
// disables it.
func writeStats(path string, s *pipeline.Stats, total time.Duration) error {
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
