package compat

import (
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/gatedcrd/gatedcrd/features/featuregate"
)

type props = map[string]apiextensionsv1.JSONSchemaProps

// findingsOf renders the findings of the widgets CRD one per line:
// "class check path: message [note] @ tuples".
func findingsOf(rep *Report) []string {
	var out []string
	for _, c := range rep.CRDs {
		for _, f := range c.Findings {
			line := f.Class + " " + f.Check + " " + f.Path + ": " + f.Message
			if f.Note != "" {
				line += " [" + f.Note + "]"
			}
			out = append(out, line+" @ "+f.Tuples.String())
		}
	}
	return out
}

func gateChangesOf(rep *Report) []string {
	var out []string
	for _, c := range rep.CRDs {
		for _, g := range c.GateChanges {
			out = append(out, gateText(g.Gates)+": "+effectText(g)+" @ "+g.Tuples.String())
		}
	}
	return out
}

func check(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\n got: %q\nwant: %q", what, got, want)
	}
}

// oneFile is an ungated widgets CRD in one file, with no gates at all.
func oneFile(t *testing.T, spec apiextensionsv1.JSONSchemaProps) snapshot {
	return merge(payload(t, map[string][]featuregate.FeatureSetName{"Other": preview}), gated(),
		snapshot{outDir + "widgets.crd.yaml": crdFile(t, "", spec)})
}

func TestCodeChanges(t *testing.T) {
	for _, tc := range []struct {
		name     string
		old, cur apiextensionsv1.JSONSchemaProps
		want     []string
	}{
		{
			name: "field removal",
			old:  object(props{"a": str(), "b": str()}),
			cur:  object(props{"a": str()}),
			want: []string{"breaking existingFieldRemoval ^.spec.b: removed field [the field is gone from every tuple: deleted from the types] @ every tuple (70)"},
		},
		{
			name: "enum value removal",
			old:  object(props{"mode": enum("Fast", "Slow")}),
			cur:  object(props{"mode": enum("Fast")}),
			want: []string{`breaking enum ^.spec.mode: allowed enum values removed : ["Slow"] @ every tuple (70)`},
		},
		{
			name: "enum value added is fine",
			old:  object(props{"mode": enum("Fast")}),
			cur:  object(props{"mode": enum("Fast", "Slow")}),
		},
		{
			name: "new required field",
			old:  object(props{"a": str()}),
			cur:  object(props{"a": str(), "b": str()}, "b"),
			want: []string{"breaking required ^.spec: new required fields: [b] @ every tuple (70)"},
		},
		{
			name: "new optional field is fine",
			old:  object(props{"a": str()}),
			cur:  object(props{"a": str(), "b": str()}),
		},
		{
			name: "CEL rule on an existing field",
			old:  object(props{"a": str()}),
			cur:  withRule(object(props{"a": str()}), "self.a != 'x'"),
			want: []string{`breaking xValidations ^.spec: rule added: "self.a != 'x'"; existing objects that violate it fail their next update @ every tuple (70)`},
		},
		{
			name: "CEL rule changed",
			old:  withRule(object(props{"a": str()}), "self.a != 'x'"),
			cur:  withRule(object(props{"a": str()}), "self.a != 'y'"),
			want: []string{`breaking xValidations ^.spec: rule changed: "self.a != 'x'" -> "self.a != 'y'"; existing objects that violate it fail their next update @ every tuple (70)`},
		},
		{
			name: "CEL rule removed is fine",
			old:  withRule(object(props{"a": str()}), "self.a != 'x'"),
			cur:  object(props{"a": str()}),
		},
		{
			name: "transition rule is a warning",
			old:  object(props{"a": str()}),
			cur:  withRule(object(props{"a": str()}), "self.a == oldSelf.a"),
			want: []string{`warning xValidations ^.spec: transition rule added: "self.a == oldSelf.a"; it only judges changes, existing objects keep validating @ every tuple (70)`},
		},
		{
			name: "description edits are not findings",
			old:  object(props{"a": {Type: "string", Description: "old"}}),
			cur:  object(props{"a": {Type: "string", Description: "new"}}),
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHistory(t)
			base := h.commit(oneFile(t, tc.old))
			h.commit(oneFile(t, tc.cur))
			rep := h.compare(base)
			check(t, "findings", findingsOf(rep), tc.want)
			if rep.Breaking() != strings.HasPrefix(strings.Join(tc.want, ""), "breaking") {
				t.Errorf("Breaking() = %v", rep.Breaking())
			}
		})
	}
}

// Gate G adds field f. In the old tree G is on in the preview feature sets;
// the files are split by feature set.
func splitByGate(t *testing.T, gates map[string][]featuregate.FeatureSetName, withF, withoutF string) snapshot {
	base := object(props{"a": str()})
	full := object(props{"a": str(), "f": str()})
	return merge(payload(t, gates), gated("G"), snapshot{
		outDir + "widgets-Stable.crd.yaml":  crdFile(t, withoutF, base),
		outDir + "widgets-Preview.crd.yaml": crdFile(t, withF, full),
	})
}

func TestPromotionRenamingFilesIsNoFinding(t *testing.T) {
	h := newHistory(t)
	base := h.commit(splitByGate(t, map[string][]featuregate.FeatureSetName{"G": preview},
		"CustomNoUpgrade,DevPreviewNoUpgrade,TechPreviewNoUpgrade", "Default,OKD"))
	// G is promoted: one file for every feature set, under a new name.
	h.commit(merge(payload(t, map[string][]featuregate.FeatureSetName{"G": stable}), gated("G"), snapshot{
		outDir + "widgets.crd.yaml": crdFile(t, "", object(props{"a": str(), "f": str()})),
	}))
	rep := h.compare(base)
	check(t, "findings", findingsOf(rep), nil)
	check(t, "gate changes", gateChangesOf(rep), []string{
		"G now enabled: adds v1 ^.spec.f @ Default,OKD on Hypershift,SelfManagedHA, major version 4-10",
	})
	if rep.Breaking() {
		t.Error("a promotion is reported as breaking")
	}
}

func TestGateTurnedOffInOneFeatureSetIsClassified(t *testing.T) {
	h := newHistory(t)
	base := h.commit(splitByGate(t, map[string][]featuregate.FeatureSetName{"G": preview},
		"CustomNoUpgrade,DevPreviewNoUpgrade,TechPreviewNoUpgrade", "Default,OKD"))
	// G leaves TechPreviewNoUpgrade: the field goes with it there.
	h.commit(splitByGate(t, map[string][]featuregate.FeatureSetName{"G": devOnly},
		"CustomNoUpgrade,DevPreviewNoUpgrade", "Default,OKD,TechPreviewNoUpgrade"))
	rep := h.compare(base)
	check(t, "findings", findingsOf(rep), nil)
	check(t, "gate changes", gateChangesOf(rep), []string{
		"G now disabled: removes v1 ^.spec.f @ TechPreviewNoUpgrade on Hypershift,SelfManagedHA, major version 4-10",
	})
}

func TestFieldMovedBehindGateIsNotDeleted(t *testing.T) {
	h := newHistory(t)
	// f is ungated; then the types put it behind G (on in previews only)
	// without any payload change.
	gates := map[string][]featuregate.FeatureSetName{"G": preview}
	base := h.commit(merge(payload(t, gates), gated("G"), snapshot{
		outDir + "widgets.crd.yaml": crdFile(t, "", object(props{"a": str(), "f": str()})),
	}))
	h.commit(splitByGate(t, gates, "CustomNoUpgrade,DevPreviewNoUpgrade,TechPreviewNoUpgrade", "Default,OKD"))
	check(t, "findings", findingsOf(h.compare(base)), []string{
		"breaking existingFieldRemoval ^.spec.f: removed field [the field is still in the types but missing here: the FeatureGate it now needs is off in these tuples] @ Default,OKD on Hypershift,SelfManagedHA, major version 4-10",
	})
}

func TestGateChangeAndDeletionTogether(t *testing.T) {
	h := newHistory(t)
	base := h.commit(splitByGate(t, map[string][]featuregate.FeatureSetName{"G": preview},
		"CustomNoUpgrade,DevPreviewNoUpgrade,TechPreviewNoUpgrade", "Default,OKD"))
	// G is promoted, and the ungated field a is deleted in the same change.
	h.commit(merge(payload(t, map[string][]featuregate.FeatureSetName{"G": stable}), gated("G"), snapshot{
		outDir + "widgets.crd.yaml": crdFile(t, "", object(props{"f": str()})),
	}))
	rep := h.compare(base)
	check(t, "findings", findingsOf(rep), []string{
		"breaking existingFieldRemoval ^.spec.a: removed field [the field is gone from every tuple: deleted from the types] @ every tuple (70)",
	})
	check(t, "gate changes", gateChangesOf(rep), []string{
		"G now enabled: adds v1 ^.spec.f @ Default,OKD on Hypershift,SelfManagedHA, major version 4-10",
	})
}

func TestAcceptedAndStaleFindings(t *testing.T) {
	h := newHistory(t)
	base := h.commit(oneFile(t, object(props{"a": str(), "b": str()})))
	cur := oneFile(t, object(props{"a": str()}))
	cur["widgets/.codegen.yaml"] = `compat:
  accepted:
  - crd: widgets.example.io
    check: existingFieldRemoval
    path: ^.spec.b
    reason: b was never read by any controller
  - crd: widgets.example.io
    check: enum
    path: ^.spec.a
    reason: left over from an earlier change
`
	h.commit(cur)
	rep := h.compare(base)
	check(t, "findings", findingsOf(rep), []string{
		"accepted existingFieldRemoval ^.spec.b: removed field [the field is gone from every tuple: deleted from the types] @ every tuple (70)",
	})
	if rep.Breaking() {
		t.Error("an accepted finding is breaking")
	}
	if rep.CRDs[0].Findings[0].Reason != "b was never read by any controller" {
		t.Errorf("reason = %q", rep.CRDs[0].Findings[0].Reason)
	}
	var stale []string
	for _, s := range rep.Stale {
		stale = append(stale, s.String())
	}
	check(t, "stale", stale, []string{
		"widgets/.codegen.yaml:7: compat.accepted: widgets.example.io enum ^.spec.a matches no finding; remove the entry",
	})
}

func TestUnknownAcceptedCheckIsAnError(t *testing.T) {
	h := newHistory(t)
	base := h.commit(oneFile(t, object(props{"a": str()})))
	cur := oneFile(t, object(props{"a": str()}))
	cur["widgets/.codegen.yaml"] = "compat:\n  accepted:\n  - {crd: widgets.example.io, check: existingFieldRemovel, path: ^.spec.b, reason: r}\n"
	h.commit(cur)
	_, err := Run(Options{Old: GitSource{Dir: h.Dir, Rev: base}, New: DirSource{Root: h.Dir}, PayloadDir: payloadDir, Accepted: CodegenYAMLAcceptances(h.Dir)})
	want := `widgets/.codegen.yaml:3: compat.accepted.check: "existingFieldRemovel" is not a check of codegen compat; did you mean existingFieldRemoval?`
	if err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
}

func TestNewCRDAndNewTuples(t *testing.T) {
	h := newHistory(t)
	gates := map[string][]featuregate.FeatureSetName{"G": preview}
	// The CRD exists only where G is on; then it exists everywhere.
	base := h.commit(merge(payload(t, gates), gated("G"), snapshot{
		outDir + "widgets.crd.yaml": crdFile(t, "CustomNoUpgrade,DevPreviewNoUpgrade,TechPreviewNoUpgrade", object(props{"a": str()})),
	}))
	cur := merge(payload(t, gates), gated("G"), snapshot{
		outDir + "widgets.crd.yaml":                              crdFile(t, "", object(props{"a": str()})),
		"gadgets/v1/zz_generated.crd-manifests/gadgets.crd.yaml": strings.ReplaceAll(crdFile(t, "", object(nil)), widgets, "gadgets.example.io"),
	})
	h.commit(cur)
	rep := h.compare(base)
	if len(rep.CRDs) != 2 || !rep.CRDs[0].New || rep.CRDs[0].Name != "gadgets.example.io" {
		t.Fatalf("want gadgets reported as new first, got %+v", rep.CRDs)
	}
	if got := rep.CRDs[1].NewTuples.String(); got != "Default,OKD on Hypershift,SelfManagedHA, major version 4-10" {
		t.Errorf("new tuples: %s", got)
	}
	check(t, "findings", findingsOf(rep), nil)
}

func TestBaseDirInsideRepository(t *testing.T) {
	// The API tree is a sub-directory of the repository: --base and
	// --base-dir-old must read the same tree.
	h := newHistory(t)
	prefixed := func(s snapshot) snapshot {
		out := snapshot{}
		for k, v := range s {
			out["api/"+k] = v
		}
		return out
	}
	base := h.commit(prefixed(oneFile(t, object(props{"a": str(), "b": str()}))))
	h.commit(prefixed(oneFile(t, object(props{"a": str()}))))
	rep, err := Run(Options{Old: GitSource{Dir: h.Dir + "/api", Rev: base}, New: DirSource{Root: h.Dir + "/api"}, PayloadDir: payloadDir})
	if err != nil {
		t.Fatal(err)
	}
	check(t, "findings", findingsOf(rep), []string{
		"breaking existingFieldRemoval ^.spec.b: removed field [the field is gone from every tuple: deleted from the types] @ every tuple (70)",
	})
	if _, err := Run(Options{Old: GitSource{Dir: h.Dir, Rev: "nosuchrev"}, New: DirSource{Root: h.Dir}, PayloadDir: payloadDir}); err == nil || !strings.Contains(err.Error(), "nosuchrev is not a revision") {
		t.Errorf("a bad revision gives %v", err)
	}
}
