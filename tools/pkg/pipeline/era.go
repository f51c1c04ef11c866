package pipeline

import (
	"fmt"

	"github.com/gatedcrd/gatedcrd/features/payload"
	"github.com/gatedcrd/gatedcrd/internal/referenceera"
	"github.com/gatedcrd/gatedcrd/internal/repoconfig"
	"github.com/gatedcrd/gatedcrd/tools/pkg/schemapatch"
)

// chooseEra settles the era as far as it is told before the payload is
// read: Options.Era, else referenceEra of the configuration, else the
// reference the repository pins or carries (referenceera). Otherwise the
// payload format decides (Era).
func (r *Run) chooseEra(cfg repoconfig.Config) {
	switch {
	case r.Options.Era != "":
		r.era, r.eraReason = r.Options.Era, "chosen by the caller"
	case cfg.ReferenceEra != "":
		r.era, r.eraReason = cfg.ReferenceEra, "referenceEra of "+cfg.File
	default:
		c, notes, ok := referenceera.FromRepository(r.base)
		if ok {
			r.era, r.eraReason = c.Era, c.Reason
			return
		}
		r.eraReason = "no go.mod of the repository pins " + referenceera.ToolsModule
		for _, n := range notes {
			r.eraReason += "; " + n
		}
	}
}

// Era is the era of the reference the run follows and why: the chosen one,
// else the one the payload FeatureGate files show, else (when they cannot
// be read) the current reference, "".
func (r *Run) Era() (payload.Era, string) {
	if r.era != "" {
		return r.era, r.eraReason
	}
	d, err := r.Payload()
	if err != nil || d == nil {
		return "", r.eraReason + ", and the payload FeatureGate directory cannot be read: today's reference"
	}
	format := "the payload FeatureGate files carry no " + payload.MajorVersionAnnotation
	if d.Era.Versioned() {
		format = "the payload FeatureGate files carry " + payload.MajorVersionAnnotation
	}
	return d.Era, fmt.Sprintf("%s; %s", format, r.eraReason)
}

// ownPackageTypeMarkers is stage 1's rule of the eras before
// payload.TypeMarkersAcrossPackages. Only a chosen era can be one: the
// eras the payload format shows are later, so stage 1 reads no payload.
func (r *Run) ownPackageTypeMarkers() bool {
	return r.era != "" && !r.era.Has(payload.TypeMarkersAcrossPackages)
}

// schemaEra is the era stage 2 follows: the chosen one, else the payload's
// (the current one when it cannot be read; the merge reports that).
func (r *Run) schemaEra() payload.Era {
	if r.era != "" {
		return r.era
	}
	return schemapatch.EraOf(r.Payload())
}
