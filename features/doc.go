// Package features declares this repository's own FeatureGates and exposes
// them, read-only, to the generators.
//
// Gates are package-level variables built with the lower-case builder of
// builder.go, a thin layer over [featuregate.Registry] that reads like the
// declarations of the OpenShift API repository:
//
//	var FeatureGateExample = newFeatureGate("Example").
//		reportProblemsToComponent("example-component").contactPerson("api-team").productScope(ocpSpecific).
//		enhancementPR(legacyFeatureGateWithoutEnhancement).
//		enable(inTechPreviewNoUpgrade(), inDevPreviewNoUpgrade()).
//		mustRegister()
//
// mustRegister panics with the gate's name when a declaration is invalid.
// That is tolerable only here: it runs while this package initialises, on
// declarations written in this package, so a mistake fails every test and
// command at once instead of producing wrong manifests. Library code goes
// through [featuregate.FeatureGateBuilder.Register], which returns errors.
//
// Once all declarations have run, the registry is sealed: [Registry],
// [FeatureSets], [AllFeatureSets] and [Versions] only read it.
//
// After changing a gate, regenerate payload-manifests/featuregates/ and
// features.md with the write-available-featuresets command; a test fails
// until they are up to date.
package features
