// Package openapiv3 builds, offline, the OpenAPI v3 documents an API server
// would serve at /openapi/v3/apis/<group>/<version> with exactly a given set
// of CRDs installed (KEP-2896).
//
// Nothing is re-implemented: each CRD is defaulted by the apiextensions v1
// scheme's own defaulters (as the API server does when it decodes a
// created CRD), each served version is turned into a document by the
// apiextensions-apiserver's builder.BuildOpenAPIV3 with the options its
// OpenAPI v3 controller uses, and the documents of one group-version are
// combined by builder.MergeSpecsV3, the controller's merge. The documents
// are encoded with encoding/json like kube-openapi's handler3, so they are
// byte for byte what the server sends (apitest proves it against a real
// server).
package openapiv3
