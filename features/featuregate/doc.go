// Package featuregate declares FeatureGates and computes, for every cluster
// shape, which of them are on.
//
// # Concepts
//
// A FeatureGate (a [FeatureGateName] such as "Example") switches an API field,
// type or behaviour on or off. Whether a gate is on depends on three
// dimensions, which together form a [Tuple]:
//
//   - the major version of the product (an integer, [MinVersion] to
//     [MaxVersion] by default);
//   - the ClusterProfile ([Hypershift] or [SelfManagedHA]), which describes
//     how the control plane is run. In manifests a profile is recognised by
//     its annotation key (see [ClusterProfileName.AnnotationKey]);
//   - the FeatureSet chosen by the cluster administrator ([Default], [OKD],
//     [TechPreviewNoUpgrade], [DevPreviewNoUpgrade] or [CustomNoUpgrade]).
//     All but CustomNoUpgrade are "fixed": the registry alone decides which
//     gates they turn on. CustomNoUpgrade lets the administrator pick gates,
//     so renderers skip it and consumers treat it as "any gate may be on".
//
// # Declaring gates
//
// A [Registry] holds the gates of one repository. Gates are declared with a
// fluent builder that starts from "disabled everywhere" and adds enablement
// rules:
//
//	r := featuregate.NewRegistry()
//	name, err := r.NewFeatureGate("MyGate").
//		OwningComponent("my-component").
//		ContactPerson("someone").
//		ProductScope(featuregate.ProductScopeOCP).
//		EnhancementPR("https://github.com/openshift/enhancements/pull/1234").
//		Enable(featuregate.InTechPreviewNoUpgrade(), featuregate.InDevPreviewNoUpgrade()).
//		Register()
//
// Each call to [FeatureGateBuilder.Enable] adds one [EnablementRule]. A rule
// has a set of versions, a set of profiles and a set of feature sets; an empty
// version or profile set means "all", an empty feature-set set means "never".
// A gate is enabled for a tuple when at least one of its rules matches it.
//
// Validation happens in [FeatureGateBuilder.Register], which returns an error
// naming the gate rather than panicking: a registry is library code and may be
// fed by other repositories' declarations. Repositories that declare their gates
// in package-level variables usually wrap Register in a helper that panics, so
// that a broken declaration fails every test of that package at once.
//
// # Querying
//
// [Registry.FeatureSets] answers one tuple; [Registry.AllFeatureSets] answers
// every version of [Registry.Versions] for every rendered profile and every
// fixed feature set. All results are sorted, so anything rendered from them is
// deterministic.
package featuregate
