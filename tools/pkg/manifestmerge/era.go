package manifestmerge

import (
	"fmt"

	"sigs.k8s.io/structured-merge-diff/v6/typed"

	fgpayload "github.com/gatedcrd/gatedcrd/features/payload"
)

// eraRules are the parts of the stage that differ between the eras of the
// reference generator (fgpayload.Era); everything else is common. The
// payload format of an era (versioned or not) is the payload reader's
// business: the stage sees it as a Directory whose manifests have no
// versions, whose tuples then carry noVersion.
type eraRules struct {
	era fgpayload.Era
	// crdType is the CRD type of the merge: x-kubernetes-validations is
	// atomic since 2026-03-18 and a list keyed by rule before.
	crdType func() (typed.ParseableType, error)
	// order puts the manifests of a CRD directory, listed in name order,
	// into application order.
	order func([]*partialManifest)
	// decide chooses the files representing a CRD's records.
	decide func(records []record, pl *payload, hasFeatureGate func(data int) bool) []outputFile
}

// rulesFor returns the rules of the era the stage runs in: era when set,
// else the era the payload directory was read in (the current one for a
// hand-built directory). An era whose payload format differs from the
// directory's is an error: the tuples would be wrong.
func rulesFor(era fgpayload.Era, d *fgpayload.Directory) (*eraRules, error) {
	read := fgpayload.Era202603
	if d != nil && d.Era != "" {
		read = d.Era
	}
	if era == "" {
		era = read
	}
	if _, err := fgpayload.ParseEra(string(era)); err != nil {
		return nil, err
	}
	if era.Versioned() != read.Versioned() {
		return nil, fmt.Errorf("era %s of the reference reads %s, but the payload FeatureGate directory was read as era %s, which reads %s",
			era, versionedText(era), read, versionedText(read))
	}
	rules := &eraRules{era: era, crdType: pipelineCRDType, order: sortForApplication, decide: decideVersioned}
	if !era.Has(fgpayload.AtomicValidations) {
		rules.crdType = ruleKeyedCRDType
	}
	if !era.Versioned() {
		rules.order = stableCombinationsLast
		if !era.Has(fgpayload.StableMergeOrder) {
			rules.order = sortSliceCombinationsLast
		}
		rules.decide = decidePreVersion(era.Has(fgpayload.GatedCRDsInOneFile))
	}
	return rules, nil
}

func versionedText(e fgpayload.Era) string {
	if e.Versioned() {
		return "payload files with major versions"
	}
	return "payload files without major versions"
}

// decideVersioned is the decision of the version-aware eras (docs/reference-rules.md,
// "Which files are written").
func decideVersioned(records []record, pl *payload, hasFeatureGate func(data int) bool) []outputFile {
	return decide(records, pl.versions, pl.featureSets, hasFeatureGate)
}
