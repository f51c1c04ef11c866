package compat

import (
	"crypto/sha256"
	"fmt"
	"path"
	"sort"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/gatedcrd/gatedcrd/features/crdvariant"
	"github.com/gatedcrd/gatedcrd/features/featuregate"
	fgpayload "github.com/gatedcrd/gatedcrd/features/payload"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifestmerge"
)

// side is one tree read for comparison: its tuples and, per CRD name, the
// CRD every tuple installs.
type side struct {
	src    Source
	tuples []featuregate.TupleGates
	// byKey indexes tuples by their dimensions.
	byKey map[featuregate.Tuple]featuregate.TupleGates
	crds  map[string]*crdSide
}

// crdSide is one CRD in one tree.
type crdSide struct {
	name string
	// variants maps a tuple to the CRD installed there; tuples without
	// the CRD are absent. Tuples with the same files share one variant.
	variants map[featuregate.Tuple]*variant
	// gates are the FeatureGates the CRD's manifests depend on: the gate
	// file names of its zz_generated.featuregated-crd-manifests directory
	// and its release.openshift.io/feature-gate annotation.
	gates map[string]bool
	// groupDirs are the group directories of its files (for .codegen.yaml).
	groupDirs map[string]bool
}

// variant is the CRD of some tuples: usually one file; several when the
// CRD's versions are written by several version directories, whose
// versions are then combined into one object.
type variant struct {
	id     string // the file paths, sorted and joined
	files  []string
	parsed []*parsedFile
	// digest identifies the content the checks read (spec and status):
	// variants with equal digests need no comparison.
	digest [sha256.Size]byte
	// crd is decoded by load.
	crd *apiextensionsv1.CustomResourceDefinition
	// fields is the set of schema paths (^.spec.x, per version), computed
	// when first needed.
	fields map[string]bool
}

const (
	crdOutputDir      = manifestmerge.OutputDirName
	featureGatedDir   = manifestmerge.FeatureGatedDirName
	ungatedFileName   = "AAA_ungated.yaml"
	gateCombinationOp = "+"
)

// readSide reads the CRD manifests and payload FeatureGate manifests of a
// source. payloadDir is the payload directory relative to its root.
func readSide(src Source, payloadDir string, include func(string) bool, cache *parseCache) (*side, error) {
	paths, err := src.Paths()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", src.Describe(), err)
	}
	payloadDir = path.Clean(payloadDir)
	var want, payloadFiles []string
	gateFiles := map[string][]string{} // CRD name -> gate file names
	for _, p := range paths {
		dir, base := path.Split(p)
		dir = strings.TrimSuffix(dir, "/")
		switch {
		case path.Base(dir) == crdOutputDir && strings.HasSuffix(base, ".yaml"):
			if include == nil || include(p) {
				want = append(want, p)
			}
		case dir == payloadDir && isPayloadFile(base):
			want = append(want, p)
			payloadFiles = append(payloadFiles, p)
		case path.Base(path.Dir(dir)) == featureGatedDir && strings.HasSuffix(base, ".yaml"):
			gateFiles[path.Base(dir)] = append(gateFiles[path.Base(dir)], base)
		}
	}
	if len(payloadFiles) == 0 {
		return nil, fmt.Errorf("%s: no payload FeatureGate manifests in %s", src.Describe(), payloadDir)
	}
	files, err := src.Read(want)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", src.Describe(), err)
	}
	var pf []fgpayload.File
	for _, p := range payloadFiles {
		pf = append(pf, fgpayload.File{Name: path.Base(p), Data: files[p]})
		delete(files, p)
	}
	dir, err := fgpayload.ReadFiles(pf)
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", src.Describe(), payloadDir, err)
	}
	tuples, err := manifestmerge.Tuples(dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", src.Describe(), payloadDir, err)
	}
	s := &side{src: src, tuples: tuples, byKey: map[featuregate.Tuple]featuregate.TupleGates{}, crds: map[string]*crdSide{}}
	for _, t := range tuples {
		s.byKey[t.Tuple] = t
	}
	if err := s.addCRDFiles(files, gateFiles, cache); err != nil {
		return nil, err
	}
	return s, nil
}

func isPayloadFile(name string) bool {
	if strings.HasPrefix(name, ".") {
		return false
	}
	switch path.Ext(name) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}

// addCRDFiles reads the metadata of the CRD files and assigns each to the
// tuples its annotations cover.
func (s *side) addCRDFiles(files map[string][]byte, gateFiles map[string][]string, cache *parseCache) error {
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	parsed := map[string]*parsedFile{}
	// filesOf[crd][tuple] lists the files installing crd in tuple.
	filesOf := map[string]map[featuregate.Tuple][]string{}
	var errs []string
	for _, p := range paths {
		f := cache.get(files[p])
		if err := f.meta(); err != nil {
			errs = append(errs, fmt.Sprintf("%s: %v", p, err))
			continue
		}
		variants, err := crdvariant.Decode(f.annotations)
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s: %v", p, err))
			continue
		}
		parsed[p] = f
		c := s.crds[f.name]
		if c == nil {
			c = &crdSide{name: f.name, variants: map[featuregate.Tuple]*variant{}, gates: map[string]bool{}, groupDirs: map[string]bool{}}
			s.crds[f.name] = c
			filesOf[f.name] = map[featuregate.Tuple][]string{}
			for _, g := range gateFiles[f.name] {
				if g == ungatedFileName {
					continue
				}
				for _, g := range strings.Split(strings.TrimSuffix(g, ".yaml"), gateCombinationOp) {
					c.gates[g] = true
				}
			}
		}
		for _, g := range variants.Gates {
			c.gates[string(g)] = true
		}
		// <group>/<version>/zz_generated.crd-manifests/<file>
		c.groupDirs[path.Dir(path.Dir(path.Dir(p)))] = true
		for _, t := range s.tuples {
			if variants.Covers(t) {
				filesOf[f.name][t.Tuple] = append(filesOf[f.name][t.Tuple], p)
			}
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s:\n\t%s", s.src.Describe(), strings.Join(errs, "\n\t"))
	}
	for name, byTuple := range filesOf {
		c := s.crds[name]
		byID := map[string]*variant{}
		for key, fs := range byTuple {
			id := strings.Join(fs, "\n")
			v := byID[id]
			if v == nil {
				v = &variant{id: id, files: fs}
				h := sha256.New()
				for _, p := range fs {
					v.parsed = append(v.parsed, parsed[p])
					h.Write(parsed[p].body.digest[:])
				}
				copy(v.digest[:], h.Sum(nil))
				byID[id] = v
			}
			c.variants[key] = v
		}
	}
	return nil
}

// load decodes the variant's CRD when first needed. With several files the
// CRD is the first file's object with the versions of all, sorted by name.
func (v *variant) load() (*apiextensionsv1.CustomResourceDefinition, error) {
	if v.crd != nil {
		return v.crd, nil
	}
	var crds []*apiextensionsv1.CustomResourceDefinition
	for i, f := range v.parsed {
		crd, err := f.body.full()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", v.files[i], err)
		}
		crds = append(crds, crd)
	}
	v.crd = combine(crds)
	return v.crd, nil
}

// combine returns the CRD of several objects of one CRD name.
func combine(crds []*apiextensionsv1.CustomResourceDefinition) *apiextensionsv1.CustomResourceDefinition {
	if len(crds) == 1 {
		return crds[0]
	}
	out := crds[0].DeepCopy()
	seen := map[string]bool{}
	for _, v := range out.Spec.Versions {
		seen[v.Name] = true
	}
	for _, c := range crds[1:] {
		for _, v := range c.Spec.Versions {
			if !seen[v.Name] {
				seen[v.Name] = true
				out.Spec.Versions = append(out.Spec.Versions, *v.DeepCopy())
			}
		}
	}
	sort.Slice(out.Spec.Versions, func(i, j int) bool { return out.Spec.Versions[i].Name < out.Spec.Versions[j].Name })
	return out
}
