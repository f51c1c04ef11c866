package suite

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/gatedcrd/gatedcrd/features/crdvariant"
	"github.com/gatedcrd/gatedcrd/features/featuregate"
	"github.com/gatedcrd/gatedcrd/features/payload"
	"github.com/gatedcrd/gatedcrd/internal/realtrees"
)

// TestReadingAgreesWithTheMergeExample reads every generated file of the
// example as apitest does; tools/pkg/manifestmerge's agreement test shows
// the same decoder selects, on the same trees, the CRD the merge wrote for
// each tuple.
func TestReadingAgreesWithTheMergeExample(t *testing.T) {
	checkReading(t, filepath.Join("..", ".."))
}

// TestReadingAgreesWithTheMergeRealTrees does the same on the real trees
// of realtrees.Env, skipped without it.
func TestReadingAgreesWithTheMergeRealTrees(t *testing.T) {
	realtrees.Each(t, checkReading)
}

// checkReading checks, for every zz_generated.crd-manifests directory
// below base: apitest's reading of each file is the shared decoder's;
// per CRD, no tuple of the payload is covered by two files (the merge
// writes one per tuple); and the payload manifest apitest picks for a
// file is one of the file's tuples.
func checkReading(t *testing.T, base string) {
	d, err := payload.ReadDir(filepath.Join(base, "payload-manifests", "featuregates"))
	if err != nil {
		t.Fatal(err)
	}
	tuples := payloadTuples(d)
	dirs, err := generatedDirs(base)
	if err != nil {
		t.Fatal(err)
	}
	files := 0
	for _, dir := range dirs {
		crdFiles, err := ReadCRDDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		files += len(crdFiles)
		owner := map[string]string{} // CRD name and tuple -> file
		for _, f := range crdFiles {
			want, err := crdvariant.Decode(f.CRD.Annotations)
			if err != nil || !reflect.DeepEqual(f.Variants, want) {
				t.Errorf("%s: apitest reads %+v, the decoder %+v (%v)", f.Path, f.Variants, want, err)
			}
			for _, tu := range tuples {
				if !f.Variants.Covers(tu) {
					continue
				}
				key := f.CRD.Name + " " + tu.String()
				if other, dup := owner[key]; dup {
					t.Errorf("%s: %s is covered by %s and %s", dir, key, filepath.Base(other), filepath.Base(f.Path))
				}
				owner[key] = f.Path
			}
			checkSelection(t, f, d)
		}
	}
	if files == 0 {
		t.Fatal("no generated file")
	}
	t.Logf("%d files, %d tuples", files, len(tuples))
}

// checkSelection checks that the manifest deciding for a file with
// profiles, if any, is of a tuple the file covers.
func checkSelection(t *testing.T, f *CRDFile, d *payload.Directory) {
	t.Helper()
	if len(f.Variants.Profiles) == 0 || slices.Contains(f.Variants.FeatureSets, featuregate.CustomNoUpgrade) {
		return
	}
	m, ok := selectPayload(f, d)
	if !ok {
		if f.Variants.Gates == nil {
			t.Errorf("%s: no payload manifest decides for it", f.Path)
		}
		return
	}
	if !slices.ContainsFunc(manifestTuples(m, f), f.Variants.Covers) {
		t.Errorf("%s: decided by %s, none of whose tuples it covers", f.Path, m.FileName)
	}
}

// payloadTuples are the tuples of the payload's manifests and the
// CustomNoUpgrade tuple of every profile and version among them.
func payloadTuples(d *payload.Directory) []featuregate.TupleGates {
	var out []featuregate.TupleGates
	custom := map[featuregate.Tuple]bool{}
	for _, m := range d.Manifests {
		for _, tu := range manifestTuples(m, &CRDFile{}) {
			out = append(out, tu)
			c := featuregate.Tuple{Version: tu.Version, ClusterProfile: tu.ClusterProfile, FeatureSet: featuregate.CustomNoUpgrade}
			if !custom[c] {
				custom[c] = true
				out = append(out, featuregate.TupleGates{Tuple: c})
			}
		}
	}
	return out
}

// manifestTuples are the tuples of m that may concern f.
func manifestTuples(m payload.Manifest, f *CRDFile) []featuregate.TupleGates {
	var out []featuregate.TupleGates
	for _, v := range candidateVersions(f, m) {
		out = append(out, featuregate.TupleGates{
			Tuple:     featuregate.Tuple{Version: v, ClusterProfile: m.ClusterProfile, FeatureSet: m.FeatureSet},
			GateLists: featuregate.GateLists{Enabled: m.Enabled, Disabled: m.Disabled},
		})
	}
	return out
}

// generatedDirs lists the zz_generated.crd-manifests directories below
// base, in walk order.
func generatedDirs(base string) ([]string, error) {
	var dirs []string
	err := filepath.WalkDir(base, func(p string, e os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() && e.Name() == "zz_generated.crd-manifests" {
			dirs = append(dirs, p)
			return filepath.SkipDir
		}
		if e.IsDir() && (e.Name() == ".git" || e.Name() == "vendor" || e.Name() == "testdata") {
			return filepath.SkipDir
		}
		return nil
	})
	return dirs, err
}
