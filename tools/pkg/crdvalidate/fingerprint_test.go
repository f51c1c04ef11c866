package crdvalidate

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifestmerge"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// request is one validation of a sequence sharing a verdict cache.
type request struct {
	name           string
	data, previous []byte
	// calls is how many validations must reach the server: 0 for a
	// verdict from the cache.
	calls int32
	// finding, when set, must be in the problems reported.
	finding string
}

// replay runs each request against one cache, as the merge hands
// manifests over, and checks that it reaches the server as often as
// expected and reports exactly what a run without the cache reports.
func replay(t *testing.T, requests []request) {
	t.Helper()
	cache := OpenVerdicts(t.TempDir())
	server := &countingServer{id: "s"}
	for _, r := range requests {
		before := server.calls.Load()
		got := validated(t, r, server, cache)
		if calls := server.calls.Load() - before; calls != r.calls {
			t.Errorf("%s: %d validation(s) reached the server, want %d", r.name, calls, r.calls)
		}
		if want := validated(t, r, anonymous{}, nil); got != want {
			t.Errorf("%s: with the cache:\n%s\nwithout:\n%s", r.name, got, want)
		}
		if !strings.Contains(got, r.finding) {
			t.Errorf("%s: no finding %q in:\n%s", r.name, r.finding, got)
		}
	}
}

func validated(t *testing.T, r request, server Server, cache *Verdicts) string {
	t.Helper()
	dir := "/t"
	path := filepath.Join(dir, "things.crd.yaml")
	obj, err := manifest.Parse(r.data)
	if err != nil {
		t.Fatal(err)
	}
	problems := &diag.List{}
	in := Input{Tree: tree.New(), BaseDir: dir, Problems: problems, Server: server, Verdicts: cache,
		Merged: []*manifestmerge.Output{{Path: path, Object: obj, Data: r.data}}}
	if r.previous != nil {
		in.Previous = func(string) []byte { return r.previous }
	}
	if _, err := Run(in); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprint(problems.Items())
}

// described is a spec schema with descriptions where the server ignores
// their text, next to fields named description whose value it validates.
const described = `            type: object
            description: The spec of a thing.
            properties:
              name:
                type: string
                description: The name of the thing.
                maxLength: 10
                enum: [a, b]
                externalDocs:
                  description: More about names.
                  url: https://example.com/names
              description:
                type: string
                description: A property named description.
              port:
                anyOf:
                - type: integer
                - type: string
                x-kubernetes-int-or-string: true
              options:
                type: object
                x-kubernetes-preserve-unknown-fields: true
                default:
                  description: a default value
            x-kubernetes-validations:
            - rule: self.nope()
`

// withColumn adds a printer column with a description to a manifest.
func withColumn(data []byte, description string) []byte {
	column := "    additionalPrinterColumns:\n    - name: Name\n      type: string\n      jsonPath: .spec.name\n      description: " + description + "\n"
	return []byte(strings.Replace(string(data), "    storage: true\n", "    storage: true\n"+column, 1))
}

// edit applies old, new replacement pairs to a spec schema.
func edit(schema string, pairs ...string) string {
	return strings.NewReplacer(pairs...).Replace(schema)
}

// TestVerdictsBlindToDescriptionText: a manifest whose schema descriptions
// changed only in their text gets its verdict from the cache, the same as
// the server's; any other change, including a description becoming
// non-empty where the server forbids it, empty, or equal to another,
// reaches the server.
func TestVerdictsBlindToDescriptionText(t *testing.T) {
	const broken = "compilation failed"
	const structural = "must be empty to be structural"
	base := withColumn(crd(described), "The name.")
	reworded := edit(described, "The spec of a thing.", "What a thing is.", "The name of the thing.", "Its name, reworded.", "A property named description.", "Reworded as well.")
	inAnyOf := edit(described, "                - type: integer\n", "                - type: integer\n                  description: a number\n")
	replay(t, []request{
		{name: "first", data: base, calls: 1, finding: broken},
		{name: "descriptions reworded", data: withColumn(crd(reworded), "The name."), finding: broken},
		{name: "reworded again", data: withColumn(crd(edit(described, "The name of the thing.", "Another name.")), "The name."), finding: broken},
		{name: "maxLength", data: withColumn(crd(edit(described, "maxLength: 10", "maxLength: 11")), "The name."), calls: 1, finding: broken},
		{name: "enum value", data: withColumn(crd(edit(described, "enum: [a, b]", "enum: [a, b, c]")), "The name."), calls: 1, finding: broken},
		{name: "CEL rule", data: withColumn(crd(edit(described, "self.nope()", "self.nope2()")), "The name."), calls: 1, finding: broken},
		{name: "description in anyOf", data: withColumn(crd(inAnyOf), "The name."), calls: 1, finding: structural},
		{name: "description in anyOf reworded", data: withColumn(crd(edit(inAnyOf, "a number", "an integer")), "The name."), finding: structural},
		{name: "description emptied", data: withColumn(crd(edit(described, "The name of the thing.", `""`)), "The name."), calls: 1, finding: broken},
		{name: "two descriptions equal", data: withColumn(crd(edit(described, "The name of the thing.", "The spec of a thing.")), "The name."), calls: 1, finding: broken},
		{name: "a default's description field", data: withColumn(crd(edit(described, "a default value", "another default value")), "The name."), calls: 1, finding: broken},
		{name: "externalDocs description", data: withColumn(crd(edit(described, "More about names.", "Names.")), "The name."), calls: 1, finding: broken},
		{name: "printer column description", data: withColumn(crd(described), "The thing's name."), calls: 1, finding: broken},
		{name: "metadata described", data: withMetadata(base, "Standard metadata."), calls: 1, finding: onlyNames},
		{name: "metadata reworded", data: withMetadata(base, "The object's metadata."), finding: onlyNames},
	})
}

// onlyNames is the server's finding on a root metadata schema that says
// more than name and generateName.
const onlyNames = "must not specify anything other than name and generateName"

// withMetadata adds a schema of metadata with a description at the root of
// a manifest made by crd.
func withMetadata(data []byte, description string) []byte {
	metadata := "          metadata:\n            type: object\n            description: " + description + "\n"
	return []byte(strings.Replace(string(data), "        properties:\n          spec:\n", "        properties:\n"+metadata+"          spec:\n", 1))
}

// twoVersions is a CRD with versions v1 and v2 of the given spec schemas
// (indented as crd's).
func twoVersions(v1, v2 string) []byte {
	version := func(name string, storage bool, spec string) string {
		return fmt.Sprintf("  - name: %s\n    served: true\n    storage: %t\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          spec:\n%s", name, storage, spec)
	}
	head, _, _ := strings.Cut(string(crd("")), "  - name: v1\n")
	return []byte(head + version("v1", true, v1) + version("v2", false, v2))
}

// TestVerdictsKeepEqualVersions: the server hoists versions with equal
// schemas into one (and reports their findings there), so a description
// making two versions differ reaches the server, and rewording it again
// does not.
func TestVerdictsKeepEqualVersions(t *testing.T) {
	other := edit(described, "The name of the thing.", "The name in v2.")
	replay(t, []request{
		{name: "equal versions", data: twoVersions(described, described), calls: 1, finding: "compilation failed"},
		{name: "v2's description differs", data: twoVersions(described, other), calls: 1, finding: "compilation failed"},
		{name: "v2's description reworded", data: twoVersions(described, edit(described, "The name of the thing.", "Reworded in v2.")), finding: "compilation failed"},
		{name: "both reworded alike", data: twoVersions(other, other), finding: "compilation failed"},
	})
}

// TestVerdictsKeepUnchangedSchemas: on update the server exempts a schema
// equal to the previous version's from the per-rule cost limit, so a
// description edit against the previous version reaches the server once,
// and a previous version differing in description text only is a hit too.
func TestVerdictsKeepUnchangedSchemas(t *testing.T) {
	expensive := "            type: array\n            description: Every item.\n            items:\n              type: string\n              description: One item.\n            x-kubernetes-validations:\n            - rule: self.all(x, self.all(y, x != y || x == y))\n"
	base := crd(expensive)
	reworded := crd(edit(expensive, "One item.", "An item."))
	replay(t, []request{
		{name: "unchanged", data: base, previous: base, calls: 1, finding: "accepted as an upgrade"},
		{name: "description edited", data: reworded, previous: base, calls: 1, finding: "estimated rule cost exceeds budget"},
		{name: "edited again", data: crd(edit(expensive, "One item.", "Any item.")), previous: base, finding: "estimated rule cost exceeds budget"},
		{name: "edit committed", data: reworded, previous: reworded, finding: "accepted as an upgrade"},
		{name: "no previous version", data: base, calls: 1, finding: "estimated rule cost exceeds budget"},
	})
}

// TestFingerprintRoles: descriptions of every kind of subschema are
// blind; the same key in data (default, example, enum values) is not.
func TestFingerprintRoles(t *testing.T) {
	schema := func(desc string) map[string]any {
		return map[string]any{"type": "object", "description": desc}
	}
	root := func(s map[string]any) map[string]any {
		return map[string]any{"metadata": map[string]any{"name": "x"}, "spec": map[string]any{
			"versions": []any{map[string]any{"name": "v1", "schema": map[string]any{"openAPIV3Schema": s}}}}}
	}
	key := func(obj map[string]any) string {
		f := fingerprintOf(obj)
		return verdictKey(&f)
	}
	blind := map[string]func(string) map[string]any{
		"root":       func(d string) map[string]any { return schema(d) },
		"properties": func(d string) map[string]any { return map[string]any{"properties": map[string]any{"a": schema(d)}} },
		"patternProperties": func(d string) map[string]any {
			return map[string]any{"patternProperties": map[string]any{"^a": schema(d)}}
		},
		"definitions":          func(d string) map[string]any { return map[string]any{"definitions": map[string]any{"a": schema(d)}} },
		"dependencies":         func(d string) map[string]any { return map[string]any{"dependencies": map[string]any{"a": schema(d)}} },
		"items":                func(d string) map[string]any { return map[string]any{"items": schema(d)} },
		"items list":           func(d string) map[string]any { return map[string]any{"items": []any{schema(d)}} },
		"additionalProperties": func(d string) map[string]any { return map[string]any{"additionalProperties": schema(d)} },
		"additionalItems":      func(d string) map[string]any { return map[string]any{"additionalItems": schema(d)} },
		"not":                  func(d string) map[string]any { return map[string]any{"not": schema(d)} },
		"allOf":                func(d string) map[string]any { return map[string]any{"allOf": []any{schema(d)}} },
		"anyOf":                func(d string) map[string]any { return map[string]any{"anyOf": []any{schema(d)}} },
		"oneOf":                func(d string) map[string]any { return map[string]any{"oneOf": []any{schema(d)}} },
	}
	for name, at := range blind {
		if key(root(at("one"))) != key(root(at("two"))) {
			t.Errorf("%s: the description's text changes the key", name)
		}
		if key(root(at("one"))) == key(root(at(""))) {
			t.Errorf("%s: an emptied description keeps the key", name)
		}
	}
	data := map[string]func(string) map[string]any{
		"default":      func(d string) map[string]any { return map[string]any{"default": map[string]any{"description": d}} },
		"example":      func(d string) map[string]any { return map[string]any{"example": map[string]any{"description": d}} },
		"enum":         func(d string) map[string]any { return map[string]any{"enum": []any{map[string]any{"description": d}}} },
		"externalDocs": func(d string) map[string]any { return map[string]any{"externalDocs": map[string]any{"description": d}} },
		"x-kubernetes-validations": func(d string) map[string]any {
			return map[string]any{"x-kubernetes-validations": []any{map[string]any{"description": d}}}
		},
		"not a string":  func(d string) map[string]any { return map[string]any{"description": []any{d}} },
		"invalid UTF-8": func(d string) map[string]any { return map[string]any{"description": "\xff" + d} },
		"metadata":      func(d string) map[string]any { return nil },
	}
	for name, at := range data {
		obj := func(d string) map[string]any {
			if name == "metadata" {
				o := root(schema("s"))
				o["metadata"].(map[string]any)["description"] = d
				return o
			}
			return root(at(d))
		}
		if key(obj("one")) == key(obj("two")) {
			t.Errorf("%s: a description field's text does not change the key", name)
		}
	}
}

// TestBodiesShareAcrossVariants: manifests whose top-level values but
// metadata are the same maps share one body, computed once; any other
// manifest, also one whose spec is an equal but distinct map, gets its
// own; every fingerprint is the one fingerprintOf computes alone.
func TestBodiesShareAcrossVariants(t *testing.T) {
	spec := func(desc string) map[string]any {
		return map[string]any{"versions": []any{map[string]any{"name": "v1", "schema": map[string]any{
			"openAPIV3Schema": map[string]any{"type": "object", "description": desc}}}}}
	}
	variant := func(s map[string]any, set string) map[string]any {
		return map[string]any{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition", "spec": s,
			"metadata": map[string]any{"name": "x", "annotations": map[string]any{"release.openshift.io/feature-set": set}}}
	}
	shared, other, equal := spec("shared"), spec("other"), spec("shared")
	objs := []map[string]any{variant(shared, "Default"), variant(shared, "TechPreviewNoUpgrade"), variant(other, "Default"), variant(equal, "Default")}
	var b bodies
	fps := make([]fingerprint, len(objs))
	var wg sync.WaitGroup
	for i, obj := range objs {
		wg.Go(func() { fps[i] = b.fingerprintOf(obj) })
	}
	wg.Wait()
	for i, obj := range objs {
		if want := fingerprintOf(obj); !reflect.DeepEqual(fps[i], want) {
			t.Errorf("manifest %d: fingerprint %+v, want %+v", i, fps[i], want)
		}
	}
	if &fps[0].descriptions[0] != &fps[1].descriptions[0] {
		t.Error("the variants of one spec did not share its body")
	}
	if &fps[0].descriptions[0] == &fps[3].descriptions[0] {
		t.Error("an equal but distinct spec shared another's body")
	}
}
