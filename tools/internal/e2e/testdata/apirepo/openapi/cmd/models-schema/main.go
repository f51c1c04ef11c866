// Command models-schema stands for the program with which trees of this
// shape turn the generated definitions into openapi/openapi.json; the
// fixture keeps it only to be such a tree. Its imports keep in go.mod the
// Kubernetes packages whose definitions the generated file includes.
package main

import (
	_ "k8s.io/api/admissionregistration/v1"
	_ "k8s.io/api/authorization/v1"
	_ "k8s.io/api/core/v1"
	_ "k8s.io/api/rbac/v1"
)

func main() {}
