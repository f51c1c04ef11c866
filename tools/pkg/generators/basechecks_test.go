package generators

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/gatedcrd/gatedcrd/features/featuregate"
	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/internal/crdhistory"
	"github.com/gatedcrd/gatedcrd/tools/pkg/compat"
	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
	"github.com/gatedcrd/gatedcrd/tools/pkg/generator"
)

type props = map[string]apiextensionsv1.JSONSchemaProps

var (
	str    = crdhistory.Str
	enum   = crdhistory.Enum
	object = crdhistory.Object
)

func list(listType string) apiextensionsv1.JSONSchemaProps {
	s := apiextensionsv1.JSONSchemaProps{Type: "array", Items: &apiextensionsv1.JSONSchemaPropsOrArray{Schema: &apiextensionsv1.JSONSchemaProps{Type: "string"}}}
	if listType != "" {
		s.XListType = &listType
	}
	return s
}

// files are the CRD files of one commit: feature-set annotation -> the
// versions of the file ("" = every feature set).
type files map[string][]crdhistory.Version

func v1(spec apiextensionsv1.JSONSchemaProps) []crdhistory.Version {
	return []crdhistory.Version{{Name: "v1", Storage: true, Spec: spec}}
}

// everywhere is one file for every feature set.
func everywhere(spec apiextensionsv1.JSONSchemaProps) files { return files{"": v1(spec)} }

// widgetTree is a widgets tree whose gate PreviewGate is on in the preview
// feature sets only.
func widgetTree(t *testing.T, fs files) crdhistory.Snapshot {
	out := crdhistory.Merge(crdhistory.Payload(t, map[string][]featuregate.FeatureSetName{"PreviewGate": crdhistory.Preview}), crdhistory.Gated())
	for sets, versions := range fs {
		name := "widgets.crd.yaml"
		if sets != "" {
			name = "widgets-" + strings.ReplaceAll(sets, ",", "-") + ".crd.yaml"
		}
		out[crdhistory.OutDir+name] = crdhistory.CRDFileOf(t, sets, versions...)
	}
	return out
}

// runCheck commits base, writes head to the work tree and runs the check
// against the commit: its report, one line per finding, and its error.
func runCheck(t *testing.T, g generator.Generator, bc *baseCheck, base, head files) ([]string, error) {
	t.Helper()
	h := crdhistory.New(t)
	bc.Base = h.Commit(widgetTree(t, base))
	h.Write(widgetTree(t, head))
	bc.PayloadDir = crdhistory.PayloadDir
	var out bytes.Buffer
	bc.Out = &out
	ctx := &generator.Context{Problems: &diag.List{}, Discovery: &discovery.Result{BaseDir: h.Dir, Groups: []*discovery.Group{{
		Name: "example.io", Dir: filepath.Join(h.Dir, crdhistory.GroupDir),
		Versions: []*discovery.Version{{Group: "example.io", Version: "v1", Dir: filepath.Join(h.Dir, crdhistory.GroupDir, "v1")}},
	}}}}
	err := g.Generate(ctx)
	var lines []string
	if bc.Report != nil {
		for _, c := range bc.Report.CRDs {
			for _, f := range c.Findings {
				lines = append(lines, strings.Join([]string{f.Class, f.Check, f.Version, f.Path, "@", f.Tuples.String()}, " "))
			}
		}
	}
	return lines, err
}

// Each comparator on a hand-made pair: a removed field, a new required
// field, a narrowed enum, a changed type and a list without an SSA tag
// each fail, naming the variant (here: every tuple, or Default alone) and
// the field; the changes the reference's users override by hand pass.
func TestHandMadePairs(t *testing.T) {
	all := "every tuple (70)"
	defaultOnly := "Default on Hypershift,SelfManagedHA, major version 4-10"
	for _, tc := range []struct {
		name       string
		base, head files
		crdify     []string // findings of codegen crdify
		schema     []string // findings of codegen schemacheck (defaults + NoDataTypeChange)
		fails      [2]bool  // crdify, schemacheck
	}{
		{
			name: "removed field", base: everywhere(object(props{"a": str(), "b": str()})), head: everywhere(object(props{"a": str()})),
			crdify: []string{"breaking existingFieldRemoval v1 ^.spec.b @ " + all},
			schema: []string{"breaking NoFieldRemoval v1 ^.spec.b @ " + all},
			fails:  [2]bool{true, true},
		},
		{
			name: "removed field in Default only", base: everywhere(object(props{"a": str(), "b": str()})),
			head:   files{"Default": v1(object(props{"a": str()})), "OKD,TechPreviewNoUpgrade,DevPreviewNoUpgrade,CustomNoUpgrade": v1(object(props{"a": str(), "b": str()}))},
			crdify: []string{"breaking existingFieldRemoval v1 ^.spec.b @ " + defaultOnly},
			schema: []string{"breaking NoFieldRemoval v1 ^.spec.b @ " + defaultOnly},
			fails:  [2]bool{true, true},
		},
		{
			name: "new required field", base: everywhere(object(props{"a": str()})), head: everywhere(object(props{"a": str(), "b": str()}, "b")),
			crdify: []string{"breaking required v1 ^.spec @ " + all},
			schema: []string{"breaking NoNewRequiredFields v1 ^.spec @ " + all},
			fails:  [2]bool{true, true},
		},
		{
			name: "narrowed enum", base: everywhere(object(props{"m": enum("A", "B")})), head: everywhere(object(props{"m": enum("A")})),
			crdify: []string{"breaking enum v1 ^.spec.m @ " + all},
			schema: []string{"breaking NoEnumRemoval v1 ^.spec.m @ " + all},
			fails:  [2]bool{true, true},
		},
		{
			name: "changed type", base: everywhere(object(props{"n": {Type: "integer"}})), head: everywhere(object(props{"n": str()})),
			crdify: []string{"breaking type v1 ^.spec.n @ " + all},
			schema: []string{"breaking NoDataTypeChange v1 ^.spec.n @ " + all},
			fails:  [2]bool{true, true},
		},
		{
			name: "list without SSA tags", base: everywhere(object(props{"a": str()})), head: everywhere(object(props{"a": str(), "l": list("")})),
			schema: []string{"breaking ListsMustHaveSSATags v1 ^.spec.l @ " + all},
			fails:  [2]bool{false, true},
		},
		{
			name: "list with SSA tags", base: everywhere(object(props{"a": str()})), head: everywhere(object(props{"a": str(), "l": list("atomic")})),
		},
		{
			name: "enum value added", base: everywhere(object(props{"m": enum("A")})), head: everywhere(object(props{"m": enum("A", "B")})),
		},
		{
			name: "new required field under a new optional parent", base: everywhere(object(props{"a": str()})),
			head: everywhere(object(props{"a": str(), "p": object(props{"c": str()}, "c")})),
		},
		{
			// A false positive of the reference: adding a TechPreview-only
			// v1alpha1 to openshift/api's example StableConfigType (the
			// TechPreviewNoUpgrade file alone, nonZeroDefault a string
			// there) made its crdify exit 255 with
			//   ERROR: (v1alpha1 -> v1) ^.spec.nonZeroDefault - type: type changed : "string" -> "integer"
			// (and the default and minimum added). The version is new in
			// the tuples that have it: reported as new, not failing.
			name: "new TechPreview version of an existing CRD", base: everywhere(object(props{"a": str(), "n": {Type: "integer"}})),
			head: files{
				"Default,OKD": v1(object(props{"a": str(), "n": {Type: "integer"}})),
				"TechPreviewNoUpgrade,DevPreviewNoUpgrade,CustomNoUpgrade": {
					{Name: "v1", Storage: true, Spec: object(props{"a": str(), "n": {Type: "integer"}})},
					{Name: "v1alpha1", Spec: object(props{"n": str()})},
				},
			},
			crdify: []string{"new type v1alpha1 -> v1 ^.spec.n @ CustomNoUpgrade,DevPreviewNoUpgrade,TechPreviewNoUpgrade on Hypershift,SelfManagedHA, major version 4-10"},
		},
		{
			name:   "breaking change to a CRD only TechPreview installs",
			base:   files{"TechPreviewNoUpgrade": v1(object(props{"a": str(), "b": str()}))},
			head:   files{"TechPreviewNoUpgrade": v1(object(props{"a": str()}))},
			crdify: []string{"preview existingFieldRemoval v1 ^.spec.b @ TechPreviewNoUpgrade on Hypershift,SelfManagedHA, major version 4-10"},
			schema: []string{"preview NoFieldRemoval v1 ^.spec.b @ TechPreviewNoUpgrade on Hypershift,SelfManagedHA, major version 4-10"},
		},
		{
			// A copied API: v1 new beside the v1alpha1 it was copied from;
			// its untagged list is the one v1alpha1 had.
			name: "new version copied from an older one",
			base: files{"": {{Name: "v1alpha1", Storage: true, Spec: object(props{"l": list("")})}}},
			head: files{"": {{Name: "v1", Storage: true, Spec: object(props{"l": list("")})}, {Name: "v1alpha1", Spec: object(props{"l": list("")})}}},
		},
		{
			// A gate promotion installs in Default a CRD that only
			// TechPreviewNoUpgrade had: its fields are not new.
			name: "CRD newly installed where other tuples had it",
			base: files{"TechPreviewNoUpgrade": v1(object(props{"l": list("")}))},
			head: everywhere(object(props{"l": list("")})),
		},
		{
			name: "new CRD with an untagged list", base: files{}, head: everywhere(object(props{"l": list("")})),
			schema: []string{"breaking ListsMustHaveSSATags v1 ^.spec.l @ " + all},
			fails:  [2]bool{false, true},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for i, mk := range []func() (generator.Generator, *baseCheck){
				func() (generator.Generator, *baseCheck) { g := &Crdify{}; return g, &g.baseCheck },
				func() (generator.Generator, *baseCheck) {
					g := &SchemaCheck{Enabled: []string{"NoDataTypeChange"}}
					return g, &g.baseCheck
				},
			} {
				g, bc := mk()
				got, err := runCheck(t, g, bc, tc.base, tc.head)
				want := [][]string{tc.crdify, tc.schema}[i]
				if strings.Join(onlyFindings(got), "\n") != strings.Join(want, "\n") {
					t.Errorf("%s findings:\n got: %q\nwant: %q", g.Name(), got, want)
				}
				if failed := errors.Is(err, ErrBreaking); failed != tc.fails[i] || err != nil && !failed {
					t.Errorf("%s: error %v, want failing=%v", g.Name(), err, tc.fails[i])
				}
			}
		})
	}
}

// onlyFindings leaves out crdify's unhandled-change warnings, which
// depend on the exact schema, not on the check under test.
func onlyFindings(lines []string) []string {
	var out []string
	for _, l := range lines {
		if !strings.Contains(l, " unhandled ") && !strings.HasPrefix(l, compat.ClassWarning) {
			out = append(out, l)
		}
	}
	return out
}

func TestBadBaseIsAnInputError(t *testing.T) {
	g := &Crdify{}
	h := crdhistory.New(t)
	h.Commit(widgetTree(t, everywhere(object(props{"a": str()}))))
	g.Base, g.PayloadDir = "nosuchref", crdhistory.PayloadDir
	ctx := &generator.Context{Problems: &diag.List{}, Discovery: &discovery.Result{BaseDir: h.Dir}}
	err := g.Generate(ctx)
	var be *BaseError
	if !errors.As(err, &be) || !strings.Contains(err.Error(), "nosuchref is not a revision") {
		t.Fatalf("got %v, want a BaseError naming the revision", err)
	}
}

func TestSchemaCheckUnknownComparator(t *testing.T) {
	g := &SchemaCheck{Enabled: []string{"NoBool"}}
	g.Base, g.PayloadDir = "HEAD", crdhistory.PayloadDir
	ctx := &generator.Context{Problems: &diag.List{}, Discovery: &discovery.Result{BaseDir: t.TempDir(), Groups: []*discovery.Group{{Name: "example.io"}}}}
	err := g.Generate(ctx)
	if err == nil || !strings.Contains(err.Error(), "unknown comparator(s) NoBool") {
		t.Fatalf("got %v", err)
	}
}
