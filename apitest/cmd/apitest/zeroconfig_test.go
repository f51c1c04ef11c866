package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/apitest/kubeversion"
	"github.com/gatedcrd/gatedcrd/apitest/server"
	"github.com/gatedcrd/gatedcrd/internal/kubetarget"
)

// operatorRepoRoot is the e2e tests' operator repository fixture, and
// operatorRepo its version directory: pre-version payload files in
// featuregates/ (JSON with # comments; featureGate-SelfManagedHA-Default.yaml
// annotated for Hypershift), the CRD files generated from them and their
// suites, tests/<crd>/*.testsuite.yaml. Read only.
const (
	operatorRepoRoot = "../../../tools/internal/e2e/testdata/operatorrepo"
	operatorRepo     = operatorRepoRoot + "/api/fleet/v1beta1"
)

// preVersionTree assembles an operator repository's API module with no
// configuration (suites in tests/<crd>/*.testsuite.yaml, a pre-version
// payload): a go.mod requiring apimachinery at apimachinery (none when
// ""), and the fixture's suites, generated CRD files and pre-version
// payload files where apitest looks by default.
func preVersionTree(t *testing.T, apimachinery string) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "api")
	for from, to := range map[string]string{
		operatorRepo + "/tests":                      "tests",
		operatorRepo + "/zz_generated.crd-manifests": "zz_generated.crd-manifests",
		operatorRepo + "/featuregates":               "payload-manifests/featuregates",
	} {
		if err := os.CopyFS(filepath.Join(root, to), os.DirFS(from)); err != nil {
			t.Fatal(err)
		}
	}
	if apimachinery != "" {
		writeGoMod(t, root, apimachinery)
	}
	return root
}

func writeGoMod(t *testing.T, dir, apimachinery string) {
	t.Helper()
	gomod := "module example.com/operator/api\n\ngo 1.26.0\n\nrequire k8s.io/apimachinery " + apimachinery + "\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestKubeVersionChoice checks which release apitest runs on and what it
// says about it: --kube-version, else kubeVersion of .gatedcrd.yaml, else
// the go.mod governing --base-dir, else the linked release; an
// unsupported release is a usage error when chosen and a warning with a
// fallback to the linked release when inferred. --run matches no test, so
// no server starts.
func TestKubeVersionChoice(t *testing.T) {
	if _, _, found := kubetarget.FromGoMod(t.TempDir()); found {
		t.Skip("a go.mod above the temporary directory governs it")
	}
	linked := kubeversion.Linked
	for _, tc := range []struct {
		name         string
		apimachinery string // the go.mod's requirement; none when ""
		kubeVersion  string // of .gatedcrd.yaml; none when ""
		flag         string
		usage        string   // the usage error expected on stderr; "" for none
		input        bool     // usage is an input error (exit 3), not a usage error
		first        string   // expected in the first line, after "on Kubernetes "; <dir> is the base directory
		notFirst     string   // not expected in the first line
		warning      []string // expected in the line after it
	}{
		{name: "flag", apimachinery: "v0.35.1", kubeVersion: "1.32", flag: linked, first: linked + " (--kube-version;"},
		{name: "flag with a patch", flag: "v" + linked + ".2", first: linked + " (--kube-version;"},
		{name: "configuration", apimachinery: "v0.35.1", kubeVersion: linked, first: linked + " (kubeVersion of <dir>/.gatedcrd.yaml:1;"},
		{name: "go.mod", apimachinery: "v0.35.1",
			first: "1.35 (k8s.io/apimachinery v0.35.1 in <dir>/go.mod, inferred: if its server cannot be built or started, apitest warns and runs on " + linked + ", the release it links;"},
		{name: "go.mod naming the linked release", apimachinery: "v0.37.0", first: "1.37 (k8s.io/apimachinery v0.37.0 in <dir>/go.mod;", notFirst: "inferred"},
		{name: "linked", first: linked + " (the release this build links; no go.mod"},
		{name: "unsupported flag", apimachinery: "v0.35.1", flag: "1.29", usage: `--kube-version: unsupported Kubernetes version "1.29"`},
		{name: "unsupported configuration", apimachinery: "v0.35.1", kubeVersion: "1.29", input: true, usage: `error: kubeVersion of <dir>/.gatedcrd.yaml:1: unsupported Kubernetes version "1.29"`},
		{name: "malformed flag", flag: "1.x", usage: `--kube-version: "1.x" is not a Kubernetes release`},
		{name: "unsupported inferred release", apimachinery: "v0.29.3",
			first: linked + " (the release apitest links, instead of 1.29 (k8s.io/apimachinery v0.29.3 in <dir>/go.mod), which it cannot run on: see the warning below;",
			warning: []string{
				`warning: Kubernetes 1.29 (k8s.io/apimachinery v0.29.3 in <dir>/go.mod) cannot be used: unsupported Kubernetes version "1.29"`,
				"the tests run on " + linked + ", the release apitest links, instead; choose the release with --kube-version or kubeVersion in .gatedcrd.yaml to make this an error",
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.apimachinery != "" {
				writeGoMod(t, dir, tc.apimachinery)
			}
			if tc.kubeVersion != "" {
				if err := os.WriteFile(filepath.Join(dir, ".gatedcrd.yaml"), []byte("kubeVersion: \""+tc.kubeVersion+"\"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			args := []string{"--base-dir", dir, "--payload-dir", payloadDir, "--run", "^no test$"}
			if tc.flag != "" {
				args = append(args, "--kube-version", tc.flag)
			}
			var stdout, stderr bytes.Buffer
			code := run(t.Context(), args, &stdout, &stderr)
			expand := func(s string) string { return strings.ReplaceAll(s, "<dir>", dir) }
			if tc.usage != "" {
				want := exitUsage
				if tc.input {
					want = exitInput
				}
				if code != want || !strings.Contains(stderr.String(), expand(tc.usage)) {
					t.Fatalf("exit %d, stderr %q; want %d and %q", code, stderr.String(), want, expand(tc.usage))
				}
				return
			}
			if code == exitUsage || code == exitInput {
				t.Fatalf("usage error: %s", stderr.String())
			}
			lines := strings.Split(stderr.String(), "\n")
			if want := "apitest: suites below " + dir + " on Kubernetes " + expand(tc.first); !strings.HasPrefix(lines[0], want) {
				t.Errorf("first line\n%s\nwant it to start with\n%s", lines[0], want)
			}
			if tc.notFirst != "" && strings.Contains(lines[0], tc.notFirst) {
				t.Errorf("first line %q contains %q", lines[0], tc.notFirst)
			}
			rest := strings.Join(lines[1:], "\n")
			for _, w := range tc.warning {
				if !strings.Contains(rest, expand(w)) {
					t.Errorf("no %q in\n%s", expand(w), rest)
				}
			}
			if len(tc.warning) == 0 && strings.Contains(rest, "the release apitest links, instead") {
				t.Errorf("a fallback without cause:\n%s", rest)
			}
		})
	}
}

// preVersionTests is the number of tests the fixture's suites run on one
// Kubernetes version. ControlPlane: AAA_ungated 8 × 6 files,
// ExternalDNSProvider 3 × 5, -ExternalDNSProvider 2 × 1 (SelfManagedHA
// Default, by the payload file's name), BareMetalPlatform 5 × 4 and
// -BareMetalPlatform 2 × 2 (the Default files); ControlPlaneSnapshots 4 × 2
// (TechPreviewNoUpgrade and CustomNoUpgrade); PlacementPolicy 4 × 1.
const preVersionTests = 8*6 + 3*5 + 2*1 + 5*4 + 2*2 + 4*2 + 4*1

// TestPreVersionTree runs the suites of an operator repository with a
// pre-version payload and no configuration: the release comes from its
// go.mod (the linked one, in this process), the payload file named for
// SelfManagedHA decides for SelfManagedHA although its annotation says
// Hypershift.
func TestPreVersionTree(t *testing.T) {
	root := preVersionTree(t, "v0."+strings.TrimPrefix(kubeversion.Linked, "1.")+".1")
	var stdout, stderr bytes.Buffer
	code := run(t.Context(), []string{"--base-dir", root}, &stdout, &stderr)
	out := stdout.String()
	if code != exitPassed || lastLine(out) != fmt.Sprintf("%d passed, 0 failed", preVersionTests) {
		t.Fatalf("exit %d, want %d and %d tests passed\n%s%s", code, exitPassed, preVersionTests, out, stderr.String())
	}
	first, _, _ := strings.Cut(stderr.String(), "\n")
	if want := "on Kubernetes " + kubeversion.Linked + " (k8s.io/apimachinery v0."; !strings.Contains(first, want) || !strings.Contains(first, filepath.Join(root, "go.mod")) {
		t.Errorf("first line %q does not say the go.mod chose %s", first, kubeversion.Linked)
	}
	checkPayloadFileNamesDecide(t, out, "ok    ")
	if strings.Contains(out, "warning:") {
		t.Errorf("warnings without cause:\n%s", out)
	}
}

// checkPayloadFileNamesDecide checks the pair lines (each starting with
// prefix) of a run of the fixture's suites that only the pre-version
// payload's file names decide: featureGate-SelfManagedHA-Default.yaml,
// annotated for Hypershift, disables ExternalDNSProvider on SelfManagedHA,
// and each profile's Default file disables BareMetalPlatform.
func checkPayloadFileNamesDecide(t *testing.T, out, prefix string) {
	t.Helper()
	const pair = "[fleet.example.com/v1beta1, Resource=controlplanes]"
	for _, want := range []string{
		pair + `[ClusterProfiles=SelfManagedHA][FeatureSet="Default"][FeatureGate=-ExternalDNSProvider][File=controlplanes-SelfManagedHA-Default.crd.yaml] ControlPlane without ExternalDNSProvider`,
		pair + `[ClusterProfiles=Hypershift][FeatureSet="Default"][FeatureGate=ExternalDNSProvider][File=controlplanes-Hypershift-Default.crd.yaml] ControlPlane with ExternalDNSProvider`,
		pair + `[ClusterProfiles=Hypershift][FeatureSet="Default"][FeatureGate=-BareMetalPlatform][File=controlplanes-Hypershift-Default.crd.yaml] ControlPlane without BareMetalPlatform`,
		pair + `[ClusterProfiles=SelfManagedHA][FeatureSet="Default"][FeatureGate=-BareMetalPlatform][File=controlplanes-SelfManagedHA-Default.crd.yaml] ControlPlane without BareMetalPlatform`,
	} {
		if !strings.Contains(out, "\n"+prefix+want+" (") {
			t.Errorf("no line %q in\n%s", prefix+want, out)
		}
	}
	if strings.Contains(out, "FeatureGate=ExternalDNSProvider][File=controlplanes-SelfManagedHA-Default.crd.yaml]") {
		t.Errorf("ExternalDNSProvider ran on SelfManagedHA Default, whose payload file disables it:\n%s", out)
	}
}

// TestInferredReleaseFallsBack checks the zero-configuration rule on a server that cannot be
// built or started: at an inferred release a warning, and the tests run
// on the linked release, as the output says; at a release chosen by flag
// or configuration a failure. The start of every release but the linked
// one fails here without building anything.
func TestInferredReleaseFallsBack(t *testing.T) {
	startAPIServer = func(ctx context.Context, v kubeversion.Version, opts kubeversion.Options) (*server.Server, error) {
		if v.Minor != kubeversion.Linked {
			return nil, errors.New("no program in this test")
		}
		return kubeversion.Start(ctx, v, opts)
	}
	t.Cleanup(func() { startAPIServer = kubeversion.Start })
	linked := kubeversion.Linked

	t.Run("inferred", func(t *testing.T) {
		root := preVersionTree(t, "v0.35.1")
		// The skip list of the release the tests run on applies: its entry
		// for the linked release skips a test of each of the 6 files.
		list := filepath.Join(t.TempDir(), "skip.yaml")
		skip := "- suite: tests/controlplanes.fleet.example.com/AAA_ungated.testsuite.yaml\n  kubeVersions: [\"" + linked +
			"\"]\n  tests: [\"onCreate/Should require zones on Azure\"]\n  reason: only to see which list applies\n"
		if err := os.WriteFile(list, []byte(skip), 0o644); err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		code := run(t.Context(), []string{"--base-dir", root, "--skip", list}, &stdout, &stderr)
		out := stdout.String()
		if code != exitPassed || lastLine(out) != fmt.Sprintf("%d passed, 0 failed", preVersionTests-6) {
			t.Fatalf("exit %d, want %d and %d tests passed\n%s%s", code, exitPassed, preVersionTests-6, out, stderr.String())
		}
		gomod := filepath.Join(root, "go.mod")
		for _, want := range []string{
			"warning: Kubernetes 1.35 (k8s.io/apimachinery v0.35.1 in " + gomod + ") cannot be started: no program in this test\n" +
				"    the tests run on " + linked + ", the release apitest links, instead; choose the release with --kube-version or kubeVersion in .gatedcrd.yaml to make this an error\n" +
				"apitest: API server of Kubernetes " + linked + " ready in ",
			"apitest: the tests ran on Kubernetes " + linked + ", not on 1.35 (k8s.io/apimachinery v0.35.1 in " + gomod + "), which cannot be started: no program in this test\n",
		} {
			if !strings.Contains(stderr.String(), want) {
				t.Errorf("no %q on standard error:\n%s", want, stderr.String())
			}
		}
		if want := "apitest: 6 tests skipped by " + list + "\n"; !strings.Contains(out, want) {
			t.Errorf("no %q on standard output:\n%s", want, out)
		}
	})

	for _, tc := range []struct{ name, config, flag string }{
		{name: "flag", flag: "1.35"},
		{name: "configuration", config: "kubeVersion: \"1.35\"\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := preVersionTree(t, "v0.35.1")
			args := []string{"--base-dir", root}
			if tc.flag != "" {
				args = append(args, "--kube-version", tc.flag)
			}
			if tc.config != "" {
				if err := os.WriteFile(filepath.Join(root, ".gatedcrd.yaml"), []byte(tc.config), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var stdout, stderr bytes.Buffer
			code := run(t.Context(), args, &stdout, &stderr)
			out := stdout.String()
			if code != exitFailed || lastLine(out) != "0 passed, 1 failed" ||
				!strings.Contains(out, "starting the API server of Kubernetes 1.35: no program in this test") ||
				strings.Contains(out+stderr.String(), "warning:") {
				t.Errorf("exit %d, want %d with one failure and no warning\n%s%s", code, exitFailed, out, stderr.String())
			}
		})
	}
}

// TestReferenceEra checks that referenceEra of .gatedcrd.yaml decides the
// payload format instead of detection: the pre-version tree read as the
// current era is a failure naming its files. --run matches no test, so no
// server starts.
func TestReferenceEra(t *testing.T) {
	for _, tc := range []struct{ era, want string }{
		{"2026-03", "featureGate-SelfManagedHA-Default.yaml: has no release.openshift.io/major-version annotation"},
		{"2026-01", ""},
	} {
		root := preVersionTree(t, "")
		if err := os.WriteFile(filepath.Join(root, ".gatedcrd.yaml"), []byte("referenceEra: \""+tc.era+"\"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		code := run(t.Context(), []string{"--base-dir", root, "--run", "^no test$"}, &stdout, &stderr)
		out := stdout.String()
		if code == exitUsage || code == exitInput || (tc.want == "") == strings.Contains(out, "payload directory") || !strings.Contains(out, tc.want) {
			t.Errorf("referenceEra %s: exit %d, want a payload failure containing %q (none if empty)\n%s%s", tc.era, code, tc.want, out, stderr.String())
		}
	}
}
