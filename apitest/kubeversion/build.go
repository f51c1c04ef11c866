package kubeversion

import (
	"context"

	"github.com/gatedcrd/gatedcrd/internal/kubeprogram"
)

// CacheEnv names the environment variable that overrides the cache
// directory (default: gatedcrd below the user's cache directory, e.g.
// ~/.cache/gatedcrd).
const CacheEnv = kubeprogram.CacheEnv

// CacheDir returns the directory below which programs are built and kept:
// $GATEDCRD_CACHE, or else gatedcrd in os.UserCacheDir().
func CacheDir() (string, error) { return kubeprogram.CacheDir() }

// programName is the file name of the built program in its cache entry.
const programName = "apiserver"

// BuildOptions configure Build.
type BuildOptions = kubeprogram.BuildOptions

// Build returns the path of the server program of v, building it first
// unless the cache has it: <cache>/apiserver/<minor>-<hash>/apiserver (see
// kubeprogram.Build, which also serialises builds by a lock file).
func Build(ctx context.Context, v Version, opts BuildOptions) (string, error) {
	files, err := moduleFiles(v)
	if err != nil {
		return "", err
	}
	return kubeprogram.Build(ctx, kubeprogram.Program{Name: programName, Description: "the API server", Version: v, Files: files}, opts)
}
