package generators

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/compat"
	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
	"github.com/gatedcrd/gatedcrd/tools/pkg/generator"
)

var updateRealPair = flag.Bool("update-real-pair", false, "rewrite testdata/real-pair-*.txt from the repositories in CRDIFY_REAL_REPOS")

// TestRealPair runs both checks on scratch repositories each holding two
// real openshift/api trees as two commits (base, then HEAD: the work
// tree), which hack/conformance-compat.sh builds and names in
// CRDIFY_REAL_REPOS (NAME=DIR,...), and compares every finding, gate
// change and new CRD, and whether the check fails, with
// testdata/real-pair-<NAME>-<check>.txt.
//
// The pair 2026-01-to-2026-03 (base 2026-01-14 6ab113cb7368, a payload
// without major versions; head 2026-03-02 dcac36b908db) crosses the era of
// versioned payloads: each base tuple stands for every major version.
// There the reference's schemacheck fails (exit 255) with
//
//	ERROR: NoFieldRemoval: crd/apiservers.config.openshift.io version/v1 field/^.spec.encryption.kms may not be removed
//
// and four more such lines for the TechPreviewNoUpgrade file, where the
// same change turned KMSEncryption on and KMSEncryptionProvider off: ours
// reports a gate change there and passes. Both crdify checks fail, on
// consolesamples.console.openshift.io's ^.spec.source.type ("" -> string).
//
// The pair 2026-03-to-2026-05 (base 2026-03-02 dcac36b908db, head
// 2026-05-11 9b69e5fa27e9) holds false positives of the reference, whose messages were recorded
// by running openshift/api's own codegen (built from its repository) on
// the same scratch repository:
//
//   - clusterresourcequotas.quota.openshift.io: its file was renamed
//     (0000_03_config-operator_01_… to 0000_00_apiserver_01_…), so the
//     reference judged the whole CRD as new, and its schemacheck fails with
//     ERROR: ListsMustHaveSSATags: crd/clusterresourcequotas.quota.openshift.io version/v1 field/^.status.namespaces must set x-kubernetes-list-type
//     for a list every tuple already had; ours compares the CRD each
//     tuple installs and reports nothing.
//   - clustermonitorings.config.openshift.io exists only in v1alpha1,
//     which only TechPreviewNoUpgrade, DevPreviewNoUpgrade and
//     CustomNoUpgrade install; the reference's crdify fails with
//     ERROR: (v1alpha1) ^.spec.metricsServerConfig.resources - maxItems: maximum decreased : 10 -> 5
//     (and three more such lines), ours reports "preview".
//   - apiservers.config.openshift.io in DevPreviewNoUpgrade: the
//     KMSEncryptionProvider gate was turned off there while its AWS
//     provider was deleted; the reference reports, for the DevPreview file,
//     ERROR: existingFieldRemoval: removed field : v1.^.spec.encryption.kms.aws
//     ERROR: (v1) ^.spec.encryption.kms.aws - type: type changed : "object" -> ""
//     ours a gate change there (and the deletion, breaking, in
//     CustomNoUpgrade, where every gate is on). crdify's "type changed
//     ... -> """ echoes of every removed field are not repeated.
//
// docs/compat.md lists every finding of the reference that ours does not
// make on this pair, with its case.
func TestRealPair(t *testing.T) {
	repos := os.Getenv("CRDIFY_REAL_REPOS")
	if repos == "" {
		t.Skip("CRDIFY_REAL_REPOS is not set (hack/conformance-compat.sh sets it)")
	}
	for _, entry := range strings.Split(repos, ",") {
		name, repo, ok := strings.Cut(entry, "=")
		if !ok {
			t.Fatalf("CRDIFY_REAL_REPOS: %q is not NAME=DIR", entry)
		}
		t.Run(name, func(t *testing.T) { checkRealPair(t, name, repo) })
	}
}

func checkRealPair(t *testing.T, name, repo string) {
	disc, _, err := discovery.Discover(repo, nil)
	if err != nil {
		t.Fatal(err)
	}
	cr, sc := &Crdify{}, &SchemaCheck{}
	for _, g := range []struct {
		gen generator.Generator
		bc  *baseCheck
	}{{cr, &cr.baseCheck}, {sc, &sc.baseCheck}} {
		g.bc.Base, g.bc.PayloadDir = "base", "payload-manifests/featuregates"
		err := g.gen.Generate(&generator.Context{Discovery: disc, Problems: &diag.List{}})
		outcome := "outcome: passes (exit 0)"
		switch {
		case errors.Is(err, ErrBreaking):
			outcome = "outcome: breaking (exit 1)"
		case err != nil:
			t.Fatalf("%s: %v", g.gen.Name(), err)
		}
		got := outcome + "\n" + strings.Join(reportLines(g.bc.Report), "\n") + "\n"
		golden := filepath.Join("testdata", "real-pair-"+name+"-"+g.gen.Name()+".txt")
		if *updateRealPair {
			if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if got != string(want) {
			t.Errorf("%s findings differ from %s (hack/conformance-compat.sh -update rewrites it):\n%s", g.gen.Name(), golden, got)
		}
	}
}

// reportLines is the report, one line per finding (class, check, version,
// path, message, tuples), gate change and new CRD, sorted. A warning is
// one line per field alone: crdify's unhandled-change messages are go-cmp
// diffs, whose layout go-cmp varies on purpose from run to run.
func reportLines(rep *compat.Report) []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range rep.CRDs {
		if c.New {
			out = append(out, c.Name+" new-crd @ "+c.NewTuples.String())
		}
		for _, f := range c.Findings {
			line := strings.Join([]string{c.Name, f.Class, f.Check, f.Version, f.Path + ":", f.Message, "@", f.Tuples.String()}, " ")
			if f.Class == compat.ClassWarning {
				line = strings.Join([]string{c.Name, f.Class, f.Check, f.Version, f.Path}, " ")
			}
			if !seen[line] {
				seen[line] = true
				out = append(out, line)
			}
		}
		for _, g := range c.GateChanges {
			var gates []string
			for _, s := range g.Gates {
				gates = append(gates, s.Gate)
			}
			out = append(out, c.Name+" gate-change "+strings.Join(gates, ",")+" @ "+g.Tuples.String())
		}
	}
	sort.Strings(out)
	return out
}
