package repoconfig

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/internal/diag"
)

func TestLoadMissingFileIsDefaults(t *testing.T) {
	cfg, err := Load(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(cfg, Defaults()) {
		t.Errorf("got %+v, want the defaults", cfg)
	}
	if cfg.PayloadCRDs.Configured || cfg.KubeVersion.IsSet() {
		t.Errorf("defaults configure nothing: %+v", cfg)
	}
}

func TestLoadFullFile(t *testing.T) {
	dir := t.TempDir()
	src := `# repository settings
kubeVersion: 1.30
payloadCRDs:
  directory: manifests/crds/
  include:
  - example/*/zz_generated.crd-manifests/*.crd.yaml
  exclude:
  - example/v1alpha1/zz_generated.crd-manifests/*.crd.yaml
requiredAnnotations:
  groupSuffix: .example.com
  annotations: [approved.example.com, owner.example.com]
compatibility:
  enabled: true
  exceptions:
  - security/v1.RangeAllocation
enumFromConstants: true
featureGateDocs:
  directory: docs/gates/
strictMarkers: true
referenceEra: "2026-01"
`
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	strict := true
	want := Config{
		File:        filepath.Join(dir, FileName),
		KubeVersion: KubeVersion{Major: 1, Minor: 30, Line: 2},
		PayloadCRDs: PayloadCRDs{
			Configured: true, Line: 3, Directory: "manifests/crds",
			Include: []Pattern{{Glob: "example/*/zz_generated.crd-manifests/*.crd.yaml", Line: 6}},
			Exclude: []Pattern{{Glob: "example/v1alpha1/zz_generated.crd-manifests/*.crd.yaml", Line: 8}},
		},
		RequiredAnnotations: RequiredAnnotations{GroupSuffix: ".example.com", Annotations: []string{"approved.example.com", "owner.example.com"}, Line: 9},
		Compatibility:       Compatibility{Enabled: true, Exceptions: []Pattern{{Glob: "security/v1.RangeAllocation", Line: 15}}, Line: 12},
		EnumFromConstants:   true,
		FeatureGateDocs:     FeatureGateDocs{Directory: "docs/gates", Line: 17},
		StrictMarkers:       &strict,
		ReferenceEra:        "2025-11-05", // "2026-01" is the name of earlier versions
	}
	if !reflect.DeepEqual(cfg, want) {
		t.Errorf("got\n%+v\nwant\n%+v", cfg, want)
	}
	if cfg.KubeVersion.String() != "1.30" {
		t.Errorf("KubeVersion.String() = %q", cfg.KubeVersion.String())
	}
}

func TestParseEmptyAndNullValuesKeepDefaults(t *testing.T) {
	for _, src := range []string{"", "# nothing\n", "kubeVersion:\npayloadCRDs:\nrequiredAnnotations:\n"} {
		cfg, err := Parse("c.yaml", []byte(src))
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		want := Defaults()
		want.File = "c.yaml"
		if !reflect.DeepEqual(cfg, want) {
			t.Errorf("%q: got %+v, want defaults", src, cfg)
		}
	}
	// A section with only empty values keeps the defaults, but writing it
	// is an opt-in: its findings become errors.
	cfg, err := Parse("c.yaml", []byte("requiredAnnotations:\n  groupSuffix:\n"))
	if err != nil || !cfg.RequiredAnnotations.Configured() || cfg.RequiredAnnotations.GroupSuffix != DefaultGroupSuffix {
		t.Errorf("requiredAnnotations with an empty groupSuffix: %+v, %v", cfg.RequiredAnnotations, err)
	}
	if d := Defaults(); d.RequiredAnnotations.Configured() || d.Compatibility.Configured() || d.StrictMarkers != nil {
		t.Errorf("defaults opt in to something: %+v", d)
	}
	cfg, err = Parse("c.yaml", []byte("requiredAnnotations:\n  annotations: []\n"))
	if err != nil || len(cfg.RequiredAnnotations.Annotations) != 0 {
		t.Errorf("an empty annotation list switches the check off: %+v, %v", cfg.RequiredAnnotations, err)
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"unknown key", "kubeversion: \"1.32\"\n", `c.yaml:1: kubeversion: unknown key; known keys are compatibility, enumFromConstants, featureGateDocs, kubeVersion, kubeVersions, payloadCRDs, referenceEra, requiredAnnotations, strictMarkers`},
		{"repeated key", "kubeVersion: \"1.32\"\nkubeVersion: \"1.33\"\n", `c.yaml:2: kubeVersion: is given twice (first on line 1)`},
		{"repeated nested key", "payloadCRDs:\n  include: []\n  include: []\n", `c.yaml:3: payloadCRDs.include: is given twice (first on line 2)`},
		{"unknown nested key", "payloadCRDs:\n  includes: []\n", `c.yaml:2: payloadCRDs.includes: unknown key; payloadCRDs accepts directory, exclude, include`},
		{"bad kube version", "kubeVersion: v1.32\n", `c.yaml:1: kubeVersion: "v1.32" is not a Kubernetes release; write <major>.<minor>, e.g. "1.32"`},
		{"patch kube version", "kubeVersion: 1.32.1\n", `c.yaml:1: kubeVersion: "1.32.1" is not a Kubernetes release`},
		{"leading zero", "kubeVersion: \"1.032\"\n", `is not a Kubernetes release`},
		{"kube version list", "kubeVersion: [1]\n", `c.yaml:1: kubeVersion: must be a string`},
		{"bad glob", "payloadCRDs:\n  include:\n  - a/[b\n", `c.yaml:3: payloadCRDs.include: "a/[b" is not a valid glob pattern`},
		{"absolute glob", "payloadCRDs:\n  exclude:\n  - /a/*.yaml\n", `c.yaml:3: payloadCRDs.exclude: "/a/*.yaml" must be a clean path relative to the base directory, e.g. "a/*.yaml"`},
		{"glob twice", "payloadCRDs:\n  include:\n  - a/*\n  - a/*\n", `c.yaml:4: payloadCRDs.include: "a/*" is listed twice (first on line 3)`},
		{"glob not a list", "payloadCRDs:\n  include: a/*\n", `c.yaml:2: payloadCRDs.include: must be a list of glob patterns`},
		{"directory outside", "payloadCRDs:\n  directory: ../crds\n", `c.yaml:2: payloadCRDs.directory: must be a directory below the base directory`},
		{"section not a mapping", "requiredAnnotations: yes\n", `c.yaml:1: requiredAnnotations: must be a mapping with keys annotations, groupSuffix`},
		{"annotation list of lists", "requiredAnnotations:\n  annotations:\n  - [a]\n", `c.yaml:3: requiredAnnotations.annotations: must be a string`},
		{"enabled not a bool", "compatibility:\n  enabled: yes please\n", `c.yaml:2: compatibility.enabled: must be true or false`},
		{"enabled a list", "compatibility:\n  enabled: [true]\n", `c.yaml:2: compatibility.enabled: must be true or false`},
		{"enum switch not a bool", "enumFromConstants: maybe\n", `c.yaml:1: enumFromConstants: must be true or false`},
		{"gate docs outside", "featureGateDocs:\n  directory: /docs\n", `c.yaml:2: featureGateDocs.directory: must be a directory below the base directory, e.g. features`},
		{"gate docs unknown key", "featureGateDocs:\n  dir: docs\n", `c.yaml:2: featureGateDocs.dir: unknown key; featureGateDocs accepts directory`},
		{"root not a mapping", "- a\n", `c.yaml:1: must be a mapping of keys (compatibility, enumFromConstants, featureGateDocs, kubeVersion, kubeVersions, payloadCRDs, referenceEra, requiredAnnotations, strictMarkers) to values`},
		{"strict markers not a bool", "strictMarkers: on please\n", `c.yaml:1: strictMarkers: must be true or false`},
		{"unknown era", "referenceEra: \"2025-12\"\n", `c.yaml:1: referenceEra: unknown era "2025-12" of the reference generator; known eras are 2025-09, 2025-10-09, 2025-11-05, 2026-01-21, 2026-02-18, 2026-02-23, 2026-03-20, 2026-01, 2026-02, 2026-03, or a date from 2025-09-01 on (YYYY-MM-DD)`},
		{"era before every known", "referenceEra: \"2025-08-31\"\n", `c.yaml:1: referenceEra: unknown era "2025-08-31" of the reference generator; known eras are 2025-09, 2025-10-09, 2025-11-05, 2026-01-21, 2026-02-18, 2026-02-23, 2026-03-20, 2026-01, 2026-02, 2026-03, or a date from 2025-09-01 on (YYYY-MM-DD)`},
		{"kube versions backwards", "kubeVersions: 1.37-1.30\n", `c.yaml:1: kubeVersions: range "1.37-1.30" runs backwards; write 1.30-1.37`},
		{"kube versions malformed", "kubeVersions: [\"1.32\", \"1.3x\"]\n", `c.yaml:1: kubeVersions: "1.3x" is not a Kubernetes release`},
		{"kube versions twice", "kubeVersions: 1.30-1.32,1.31\n", `c.yaml:1: kubeVersions: 1.31 is listed twice in "1.30-1.32,1.31"`},
		{"kube versions mapping", "kubeVersions: {a: 1}\n", `c.yaml:1: kubeVersions: must be a list of releases or a string such as "1.30-1.37"`},
		{"invalid yaml", "kubeVersion: \"1.32\"\npayloadCRDs: [\n", `c.yaml:2: invalid YAML: did not find expected node content`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("c.yaml", []byte(c.src))
			if err == nil {
				t.Fatalf("no error, want %q", c.want)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("got  %q\nwant %q", err, c.want)
			}
			if ds := diag.FromError(err); len(ds) == 0 || ds[0].File != "c.yaml" {
				t.Errorf("error %T holds no diagnostic of c.yaml: %+v", err, ds)
			}
		})
	}
}

// TestKubeVersions checks the kubeVersions key in its forms, next to
// kubeVersion, which keeps its meaning.
func TestKubeVersions(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"kubeVersions: \"1.31,1.36\"\n", "1.31 1.36"},
		{"kubeVersions: 1.30-1.37\n", "1.30 1.31 1.32 1.33 1.34 1.35 1.36 1.37"},
		{"kubeVersions: [\"1.36\", \"1.31\"]\n", "1.31 1.36"},
		{"kubeVersions:\n- \"1.32\"\n- 1.34-1.35\n", "1.32 1.34 1.35"},
		{"kubeVersion: \"1.32\"\nkubeVersions: 1.32-1.33\n", "1.32 1.33"},
		{"kubeVersions: 1.29\n", "1.29"}, // supported or not is apitest's call
	} {
		cfg, err := Parse("c.yaml", []byte(tc.src))
		if err != nil {
			t.Errorf("%q: %v", tc.src, err)
			continue
		}
		if got := strings.Join(cfg.KubeVersions.Strings(), " "); got != tc.want || !cfg.KubeVersions.IsSet() {
			t.Errorf("%q: kubeVersions %q, want %q", tc.src, got, tc.want)
		}
		if line := strings.Count(tc.src[:strings.Index(tc.src, "kubeVersions:")], "\n") + 1; cfg.KubeVersions.Line != line {
			t.Errorf("%q: line %d, want %d", tc.src, cfg.KubeVersions.Line, line)
		}
	}
	cfg, err := Parse("c.yaml", []byte("kubeVersion: \"1.32\"\nkubeVersions: 1.32-1.33\n"))
	if err != nil || cfg.KubeVersion.String() != "1.32" || cfg.KubeVersion.Line != 1 {
		t.Errorf("kubeVersion next to kubeVersions: %+v, %v", cfg.KubeVersion, err)
	}
	if d := Defaults(); d.KubeVersions.IsSet() {
		t.Errorf("defaults set kubeVersions: %+v", d.KubeVersions)
	}
}

// TestParseKubeVersions is the table of the list and range syntax
// (--kube-version of apitest shares it).
func TestParseKubeVersions(t *testing.T) {
	for _, tc := range []struct{ in, want, err string }{
		{in: "1.32", want: "1.32"},
		{in: "1.31,1.36", want: "1.31 1.36"},
		{in: " 1.36 , 1.31 ", want: "1.31 1.36"},
		{in: "1.30-1.37", want: "1.30 1.31 1.32 1.33 1.34 1.35 1.36 1.37"},
		{in: "1.30-1.30", want: "1.30"},
		{in: "1.30-1.31,1.35-1.36", want: "1.30 1.31 1.35 1.36"},
		{in: "1.29", want: "1.29"},
		{in: "1.37-1.30", err: `range "1.37-1.30" runs backwards; write 1.30-1.37`},
		{in: "1.3x", err: `"1.3x" is not a Kubernetes release`},
		{in: "1.30-1.3x", err: `range "1.30-1.3x": "1.3x" is not a Kubernetes release`},
		{in: "1.30-2.1", err: `range "1.30-2.1" spans major versions`},
		{in: "1.31,,1.32", err: `has an empty entry`},
		{in: "", err: `has an empty entry`},
		{in: "1.32,1.32", err: `1.32 is listed twice`},
		{in: "1.30-1.33,1.32", err: `1.32 is listed twice`},
		{in: "1.30-", err: `range "1.30-": "" is not a Kubernetes release`},
		{in: "v1.32,1.33", err: `"v1.32" is not a Kubernetes release`},
	} {
		vs, err := ParseKubeVersions(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseKubeVersions(%q) = %v, %v; want an error containing %q", tc.in, vs, err, tc.err)
			}
			continue
		}
		got := strings.Join(KubeVersionList{Versions: vs}.Strings(), " ")
		if err != nil || got != tc.want {
			t.Errorf("ParseKubeVersions(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestParseReportsEveryProblemInLineOrder(t *testing.T) {
	_, err := Parse("c.yaml", []byte("payloadCRDs:\n  bogus: 1\nkubeVersion: x\n"))
	ds := diag.FromError(err)
	if len(ds) != 2 || ds[0].Line != 2 || ds[1].Line != 3 {
		t.Fatalf("got %#v", err)
	}
}

func TestLoadUnreadable(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, FileName), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := Load(dir)
	if err == nil || !strings.Contains(err.Error(), FileName+": cannot be read: ") {
		t.Errorf("got %v", err)
	}
}
