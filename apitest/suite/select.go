package suite

import "path/filepath"

// Select returns the plan restricted to the (suite, variant) pairs keep
// accepts, without the variants and batches left empty. The batches keep
// their order, so the restricted plan still installs at most one CRD of a
// name at a time.
func (p *Plan) Select(keep func(v *Variant, s *Suite) bool) *Plan {
	out := &Plan{Warnings: p.Warnings}
	for _, batch := range p.Batches {
		var kept []*Variant
		for _, v := range batch {
			var suites []*Suite
			for _, s := range v.Suites {
				if keep(v, s) {
					suites = append(suites, s)
				}
			}
			if len(suites) > 0 {
				selected := *v
				selected.Suites = suites
				kept = append(kept, &selected)
			}
		}
		if len(kept) > 0 {
			out.Batches = append(out.Batches, kept)
		}
	}
	return out
}

// VersionDir returns the version directory a suite file or a generated
// CRD file belongs to (the directory holding tests/ and
// zz_generated.crd-manifests/), and whether path is one of the two.
func VersionDir(path string) (string, bool) {
	if isSuitePath(path) {
		return versionDir(path), true
	}
	if isGeneratedCRDPath(path) {
		return filepath.Dir(filepath.Dir(path)), true
	}
	return "", false
}

// isGeneratedCRDPath reports whether path names a file of a version's
// zz_generated.crd-manifests directory.
func isGeneratedCRDPath(path string) bool {
	return filepath.Ext(path) == ".yaml" && filepath.Base(filepath.Dir(path)) == generatedDir
}
