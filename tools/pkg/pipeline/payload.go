package pipeline

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/gatedcrd/gatedcrd/features/payload"
	"github.com/gatedcrd/gatedcrd/internal/diag"
)

// payloadOnce holds the payload directory once read.
type payloadOnce struct {
	dir  *payload.Directory
	err  error
	read bool
}

// Payload reads the payload FeatureGate directory once per run, in the
// format of the run's era (Options.Era, else referenceEra of the
// repository configuration, else the repository's pin, else detected from
// the files): strict mode (for gate names) and the merge share the result.
// A run with a Keep parses the files only when they changed since its last
// read.
func (r *Run) Payload() (*payload.Directory, error) {
	if !r.payload.read {
		r.payload.dir, r.payload.err = r.kept().payload.ReadDirEra(r.PayloadDir(), r.era)
		r.payload.read = true
	}
	return r.payload.dir, r.payload.err
}

// PayloadDir is the absolute payload FeatureGate directory of the run.
func (r *Run) PayloadDir() string { return r.resolve(r.Options.PayloadDir) }

// payloadProblems turns an error of Payload into diagnostics, each naming
// the payload file at fault when there is one.
func (r *Run) payloadProblems(err error) []diag.Diagnostic {
	dir := r.PayloadDir()
	switch info, statErr := os.Stat(dir); {
	case statErr != nil:
		return []diag.Diagnostic{diag.Errorf(dir, 0, "", "the payload FeatureGate directory does not exist")}
	case !info.IsDir():
		return []diag.Diagnostic{diag.Errorf(dir, 0, "", "is a file, not the payload FeatureGate directory")}
	}
	// ReadDir wraps what it found in "payload directory <dir>: ".
	if inner := errors.Unwrap(err); inner != nil && strings.HasPrefix(err.Error(), "payload directory ") {
		err = inner
	}
	leaves := []error{err}
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		leaves = joined.Unwrap()
	}
	// A chosen era dictates the format: say which and why, for a pin
	// that does not match the files.
	why := ""
	if r.era != "" {
		why = fmt.Sprintf(" (read in the format of era %s: %s)", r.era, r.eraReason)
	}
	var out []diag.Diagnostic
	for _, leaf := range leaves {
		var fe *payload.FileError
		if errors.As(leaf, &fe) && exists(filepath.Join(dir, fe.FileName)) {
			out = append(out, diag.Errorf(filepath.Join(dir, fe.FileName), 0, "", "%s%s", fe.Err, why))
			continue
		}
		out = append(out, diag.Errorf(dir, 0, "", "%s%s", leaf, why))
	}
	return out
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
