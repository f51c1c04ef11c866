package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
)

// TestChecksBeyondTheReferenceAreOptIn pins the zero-configuration
// contract (docs/zero-configuration.md): each check gatedcrd makes beyond the reference is a
// warning in a repository that never configured gatedcrd, so its exit
// status stays the reference's, and an error once the repository opts in.
func TestChecksBeyondTheReferenceAreOptIn(t *testing.T) {
	stable := "example/v1/types_stable.go"
	cases := []struct {
		name string
		// from and to edit types_stable.go so that the check finds something.
		from, to string
		// args run the command; the base directory is appended.
		args []string
		// optIn is the .gatedcrd.yaml that makes the finding an error.
		optIn   string
		finding string
	}{
		{
			name: "strict markers",
			from: "+openshift:enable:FeatureGate=Example\n", to: "+openshift:enable:FeatureGates=Example\n",
			args:    []string{"crd-manifests"},
			optIn:   "strictMarkers: true\n",
			finding: "+openshift:enable:FeatureGates=Example: is not a marker any stage understands",
		},
		{
			name: "required annotations",
			from: "// +openshift:api-approved.openshift.io=https://github.com/gatedcrd/gatedcrd/pull/1\n", to: "",
			args:    []string{"crd-manifests"},
			optIn:   "requiredAnnotations:\n  annotations: [api-approved.openshift.io]\n",
			finding: "api-approved.openshift.io",
		},
		{
			name: "CRD validation at an inferred Kubernetes release",
			from: `rule="self == oldSelf",message="immutableField is immutable"`, to: `rule="self ==",message="immutableField is immutable"`,
			args:    []string{"crd-manifests"},
			optIn:   "kubeVersion: \"1.37\"\n",
			finding: "Invalid value: compilation failed",
		},
		{
			name: "compatibility level rules",
			from: "// +openshift:compatibility-gen:level=1\n", to: "// +openshift:compatibility-gen:level=2\n",
			args:    []string{"compatibility"},
			optIn:   "compatibility:\n  enabled: false\n",
			finding: "level 2 is not allowed in a GA version like v1, which requires level 1",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := exampleTree(t, true)
			edit(t, filepath.Join(dir, stable), c.from, c.to)
			args := append(append([]string{}, c.args...), "--base-dir", dir)

			code, stderr := codegen(t, args...)
			if code != ExitOK || !strings.Contains(stderr, "warning: ") || !strings.Contains(stderr, c.finding) {
				t.Fatalf("without configuration: exit %d, want 0 and a warning containing %q\n%s", code, c.finding, stderr)
			}
			if errorLineContains(stderr, "") {
				t.Fatalf("without configuration the run reported an error:\n%s", stderr)
			}

			testtree.Add(t, dir, map[string]string{".gatedcrd.yaml": c.optIn})
			code, stderr = codegen(t, args...)
			if code != ExitInput || !errorLineContains(stderr, c.finding) {
				t.Fatalf("opted in with %q: exit %d, want %d and an error containing %q\n%s", c.optIn, code, ExitInput, c.finding, stderr)
			}
		})
	}
}

func errorLineContains(stderr, s string) bool {
	for _, line := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(line, "error: ") && strings.Contains(line, s) {
			return true
		}
	}
	return false
}

// TestPayloadPathIsRelativeToTheWorkingDirectory: a given
// --manifest-merge:payload-manifest-path means what it means to the
// reference, a path from the working directory, which the older command
// lines of operator repositories rely on (--base-dir ./api/<g>/<v> with
// ./api/<g>/<v>/featuregates); the default stays below --base-dir.
func TestPayloadPathIsRelativeToTheWorkingDirectory(t *testing.T) {
	dir := exampleTree(t, true)
	t.Chdir(dir)
	code, stderr := codegen(t, "crd-manifest-merge", "--verify", "--base-dir", "example",
		"--manifest-merge:payload-manifest-path", "./payload-manifests/featuregates")
	if code != ExitOK {
		t.Fatalf("payload path from the working directory: exit %d\n%s", code, stderr)
	}
	code, stderr = codegen(t, "crd-manifest-merge", "--verify", "--base-dir", "example")
	if code != ExitInput || !strings.Contains(stderr, "payload-manifests/featuregates") {
		t.Fatalf("default below --base-dir example (which has none): exit %d, want %d\n%s", code, ExitInput, stderr)
	}
}
