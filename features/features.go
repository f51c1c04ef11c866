package features

import "github.com/gatedcrd/gatedcrd/features/featuregate"

// The gates of this repository. Each is disabled everywhere unless an enable
// rule says otherwise; see the featuregate package for the rule semantics.

// FeatureGateExample is the tech-preview gate of the example API group.
var FeatureGateExample = newFeatureGate("Example").
	reportProblemsToComponent("example-component").contactPerson("api-team").productScope(ocpSpecific).
	enhancementPR(legacyFeatureGateWithoutEnhancement).
	enable(inTechPreviewNoUpgrade(), inDevPreviewNoUpgrade()).
	mustRegister()

// FeatureGateExample2 is on only in DevPreviewNoUpgrade.
var FeatureGateExample2 = newFeatureGate("Example2").
	reportProblemsToComponent("example-component").contactPerson("api-team").productScope(ocpSpecific).
	enhancementPR(legacyFeatureGateWithoutEnhancement).
	enable(inDevPreviewNoUpgrade()).
	mustRegister()

// FeatureGateExampleStable is a GA gate: on in every fixed feature set.
var FeatureGateExampleStable = newFeatureGate("ExampleStable").
	reportProblemsToComponent("example-component").contactPerson("api-team").productScope(ocpSpecific).
	enhancementPR("https://github.com/openshift/enhancements/pull/1001").
	enable(inDefault(), inOKD(), inTechPreviewNoUpgrade(), inDevPreviewNoUpgrade()).
	mustRegister()

// FeatureGateExampleHypershiftOnly is GA on Hypershift and off on
// self-managed clusters.
var FeatureGateExampleHypershiftOnly = newFeatureGate("ExampleHypershiftOnly").
	reportProblemsToComponent("example-component").contactPerson("api-team").productScope(ocpSpecific).
	enhancementPR("https://github.com/openshift/enhancements/pull/1002").
	enableForClusterProfile(featuregate.Hypershift,
		featuregate.Default, featuregate.OKD, featuregate.TechPreviewNoUpgrade, featuregate.DevPreviewNoUpgrade).
	mustRegister()

// FeatureGateExampleFromVersion5 is a preview gate that exists from major
// version 5 on, so its payload files are split by version.
var FeatureGateExampleFromVersion5 = newFeatureGate("ExampleFromVersion5").
	reportProblemsToComponent("example-component").contactPerson("api-team").productScope(ocpSpecific).
	enhancementPR("https://github.com/openshift/enhancements/pull/1003").
	enable(inTechPreviewNoUpgrade(), inDevPreviewNoUpgrade(), inVersion(5, ">=")).
	mustRegister()

// FeatureGateExampleCustomOnly can only be turned on by an administrator
// through CustomNoUpgrade: it is disabled in every fixed feature set.
var FeatureGateExampleCustomOnly = newFeatureGate("ExampleCustomOnly").
	reportProblemsToComponent("example-component").contactPerson("api-team").productScope(ocpSpecific).
	enhancementPR("https://github.com/openshift/enhancements/pull/1004").
	enable(inCustomNoUpgrade()).
	mustRegister()
