package manifestmerge

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// OutputFiles lists the merged CRD manifests of version v as t holds them:
// the absolute paths of the *.yaml files of its OutputDirName directory,
// in name order. A missing directory has none. The checks that read the
// final manifests (required annotations, payload copies) share it.
func OutputFiles(t *tree.Tree, v *discovery.Version) ([]string, error) {
	dir := filepath.Join(v.Dir, OutputDirName)
	entries, err := t.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir && strings.HasSuffix(e.Name, ".yaml") {
			out = append(out, filepath.Join(dir, e.Name))
		}
	}
	return out, nil
}
