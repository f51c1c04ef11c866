package kubeprogram

import (
	"fmt"
	"slices"
	"strings"
)

// Version is one Kubernetes minor programs can be built for, and the Go
// modules they pin.
type Version struct {
	// Minor is the Kubernetes version as users write it: "1.32".
	Minor string
	// APIExtensions is the release of k8s.io/apiextensions-apiserver (and,
	// through it, k8s.io/apiserver and client-go) the program pins.
	APIExtensions string
	// Etcd is the release of go.etcd.io/etcd/server/v3 the program embeds:
	// the one k8s.io/apiserver of that release requires itself (see GoMod).
	Etcd string
}

// versions is every supported minor, oldest first. Each pins the newest
// patch release on the module proxy when it was added, except 1.32,
// which pins the release openshift/api runs its own suites on (envtest
// 1.32.1), so that error messages match theirs word for word. The etcd
// release is the one k8s.io/apiserver of the same release requires.
var versions = []Version{
	{Minor: "1.30", APIExtensions: "v0.30.14", Etcd: "v3.5.10"},
	{Minor: "1.31", APIExtensions: "v0.31.14", Etcd: "v3.5.13"},
	{Minor: "1.32", APIExtensions: "v0.32.1", Etcd: "v3.5.16"},
	{Minor: "1.33", APIExtensions: "v0.33.13", Etcd: "v3.5.21"},
	{Minor: "1.34", APIExtensions: "v0.34.13", Etcd: "v3.6.4"},
	{Minor: "1.35", APIExtensions: "v0.35.10", Etcd: "v3.6.5"},
	{Minor: "1.36", APIExtensions: "v0.36.6", Etcd: "v3.6.8"},
	{Minor: "1.37", APIExtensions: "v0.37.0", Etcd: "v3.7.0"},
}

// Linked is the minor of the Kubernetes libraries the apitest and tools
// modules link (tests keep each in step): it runs inside their processes,
// without a program.
const Linked = "1.37"

// Versions returns every supported version, oldest first.
func Versions() []Version { return slices.Clone(versions) }

// Lookup returns the version of a minor written "1.32" (a leading "v" and
// a patch number, "v1.32.1", are accepted and ignored: the patch release
// is fixed per minor).
func Lookup(minor string) (Version, error) {
	want := strings.TrimPrefix(strings.TrimSpace(minor), "v")
	if parts := strings.Split(want, "."); len(parts) == 3 {
		want = parts[0] + "." + parts[1]
	}
	for _, v := range versions {
		if v.Minor == want {
			return v, nil
		}
	}
	minors := make([]string, len(versions))
	for i, v := range versions {
		minors[i] = v.Minor
	}
	return Version{}, fmt.Errorf("unsupported Kubernetes version %q: supported are %s", minor, strings.Join(minors, ", "))
}
