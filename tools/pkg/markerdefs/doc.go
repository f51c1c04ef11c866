// Package markerdefs defines the markers the pipeline understands on top of
// upstream controller-tools, and the rule that decides when a
// FeatureGate-aware marker is active.
//
// Marker values are plain data parsed once per run by the shared
// controller-tools collector. They deliberately do not implement
// controller-tools' SchemaMarker interface: whether a FeatureGate-aware
// marker applies depends on the gate set being generated, which a parsed
// value cannot know. Stage 2 binds each value to the gate set of the
// generation in progress (see package schemapatch); stage 1 only reads the
// gate names the values mention.
//
// The vocabulary:
//
//	+openshift:enable:FeatureGate=<Gate>                      field or type
//	+openshift:validation:FeatureGateAwareEnum:featureGate=..,requiredFeatureGate=..,enum=a;b
//	+openshift:validation:FeatureGateAwareXValidation:featureGate=..,requiredFeatureGate=..,rule=..[,message=..][,messageExpression=..][,reason=..][,fieldPath=..][,optionalOldSelf=..]
//	+openshift:validation:FeatureGateAwareMaxItems:featureGate=..,requiredFeatureGate=..,maxItems=N
//	+enum                                                     type (string; values from its constants)
//	+openshift:api-approved.openshift.io=<url>                type
//	+openshift:file-pattern=cvoRunLevel=..,operatorName=..,operatorOrdering=..   type
//	+openshift:capability=<name>                              type
//	+openshift:compatibility-gen:level=N, +openshift:compatibility-gen:internal   type (other generator)
//	+openshift:featuregated-schema-gen=true                   package (doc.go)
//
// Gate lists use controller-tools list syntax (a;b or {a,b}). In
// featureGate, the single entry "" means "ungated": the marker is active
// only in the ungated manifest.
package markerdefs
