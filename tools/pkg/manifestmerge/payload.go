package manifestmerge

import (
	"path/filepath"

	fgpayload "github.com/gatedcrd/gatedcrd/features/payload"
)

// FeatureGatesFromPayload converts a payload FeatureGate directory read by
// the features/payload package into the stage's input.
func FeatureGatesFromPayload(d *fgpayload.Directory) []FeatureGateFile {
	var out []FeatureGateFile
	for _, m := range d.Manifests {
		f := FeatureGateFile{
			Path:              filepath.Join(d.Path, m.FileName),
			ProfileAnnotation: m.ClusterProfile.AnnotationKey(),
			FeatureSet:        string(m.FeatureSet),
			Versions:          m.Versions,
		}
		for _, g := range m.Enabled {
			f.Enabled = append(f.Enabled, string(g))
		}
		for _, g := range m.Disabled {
			f.Disabled = append(f.Disabled, string(g))
		}
		out = append(out, f)
	}
	return out
}
