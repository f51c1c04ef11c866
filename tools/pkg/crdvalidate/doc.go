// Package crdvalidate validates generated CRD manifests exactly as the
// Kubernetes API server admits them, at generation time.
//
// # What runs
//
// Check decodes a manifest with the server's scheme (v1 defaulting, then
// conversion to the internal version, which hoists a schema shared by every
// version into spec.validation), prepares it as the registry strategy does
// on create, and calls the server's own
// validation.ValidateCustomResourceDefinition: structural schema, CEL
// compilation of rules and messageExpressions, per-rule and per-CRD cost
// budgets, oldSelf on uncorrelatable paths, list types, defaults. Nothing is
// re-implemented. Given the previously committed manifest, it also runs
// ValidateCustomResourceDefinitionUpdate over that manifest installed and
// established, and each Finding says which of the two requests the server
// rejects: an expression that only compiles in the stored-expressions
// environment, or a cost over the per-rule limit in an unchanged schema, is
// accepted as an upgrade and rejected on a fresh install.
//
// That code lives in package admission, which only imports Kubernetes
// libraries. The rules are those of the targeted release: its CEL
// libraries and its cost estimator. For the linked release
// (LinkedKubeVersion) admission runs in this process; for another one,
// StartProgram builds (once, with package kubeprogram of the root module)
// and runs a program made of admission's own source and a small main,
// compiled against that release's k8s.io/apiextensions-apiserver, and Run
// sends it every distinct manifest (Input.Server), spread over up to one
// program per CPU.
//
// # Verdicts
//
// Verdicts keeps the server's outcomes on disk, keyed by the validation
// build (Program.ID, or the linked release's source and modules) and the
// request, so an unchanged CRD is not validated again in the next run. The
// key is blind to the text of schema descriptions (see fingerprint), which
// the server's verdict does not depend on: a doc-comment edit is
// answered from the cache. The merge hands its files over as objects (Input.Merged), sent as
// JSON, which the server decodes faster than YAML.
//
// # Where it points
//
// Sources maps a server field path (spec.versions[i].schema.openAPIV3Schema
// .properties[spec]...) back to Go: it walks from the CRD's kind through the
// fields' JSON names, list elements and map values, with the types and
// markers of the run's loaded packages (controller-tools' collector, as
// stage 2 uses them), and ends on the marker that set the rule (matched by
// its text) or keyword, else on the field or type declaration.
//
// # The stage
//
// Run validates every merged file of a run. Identical findings of several
// files (the same Go position, path and message) are one error that lists
// the files and the ClusterProfiles, FeatureSets and major versions they
// stand for, read from the files' annotations. Costs lists the estimated
// cost of every expression with the server's CEL schema contexts and
// compiler, for the --cel-costs report.
package crdvalidate
