package crdvalidate

// LinkedKubeVersion is the Kubernetes minor release whose API server code
// this build links (k8s.io/apiextensions-apiserver v0.37.x; a test keeps
// the two in step). Check validates with exactly that release's rules.
const LinkedKubeVersion = "1.37"
