package schemapatch

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/randfill"
	"sigs.k8s.io/yaml"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
)

// Every schema the package's tests generate is converted both ways: the
// map built without the round trip must be the round trip's.
func init() {
	checkSchemaMap = func(s *apiextensionsv1.JSONSchemaProps, m map[string]any) {
		want, err := manifest.ToMap(s)
		if err != nil || !reflect.DeepEqual(m, want) {
			panic(fmt.Sprintf("schemaMap differs from the JSON round trip (error %v):\n got %#v\nwant %#v", err, m, want))
		}
	}
}

// sameAsRoundTrip fails t unless schemaToMap gives what the JSON round
// trip gives for s, error included, and reports whether s was converted
// without the round trip.
func sameAsRoundTrip(t *testing.T, what string, s *apiextensionsv1.JSONSchemaProps) (direct bool) {
	t.Helper()
	want, wantErr := manifest.ToMap(s)
	got, gotErr := schemaToMap(s)
	if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: schemaToMap = %#v, %v\nround trip = %#v, %v", what, got, gotErr, want, wantErr)
	}
	_, direct = schemaMap(s, 0)
	return direct
}

// Random schemas, with every kind of value JSON text can hold in
// defaults, examples and enums, empty and absent fields, integers beyond
// float64's precision, and now and then what only the round trip can
// tell: strings that are not UTF-8, NaN, JSON text that does not parse.
func TestSchemaMapMatchesTheRoundTrip(t *testing.T) {
	var direct, fallback int
	for seed := int64(0); seed < 400; seed++ {
		// One schema in four may hold what only the round trip tells.
		r := randomValues{odd: seed%4 == 0}
		f := randfill.NewWithSeed(seed).NilChance(0.3).NumElements(0, 3).MaxDepth(5).Funcs(
			r.json, r.text, r.float, randomInt)
		var s apiextensionsv1.JSONSchemaProps
		f.Fill(&s)
		if sameAsRoundTrip(t, fmt.Sprintf("seed %d", seed), &s) {
			direct++
		} else {
			fallback++
		}
	}
	if direct < 250 || fallback < 20 {
		t.Errorf("%d schemas converted directly, %d through the round trip: the inputs no longer cover both", direct, fallback)
	}
}

// A schema with every field set: a field apiextensions adds, which
// schemaMap would not know, is in the round trip's map only.
func TestSchemaMapKnowsEveryField(t *testing.T) {
	f := randfill.NewWithSeed(1).NilChance(0).NumElements(1, 2).MaxDepth(3).Funcs(
		func(j *apiextensionsv1.JSON, c randfill.Continue) { j.Raw = []byte(`{"a":[1,"b",null]}`) },
		func(s *string, c randfill.Continue) { *s = "s" + strconv.Itoa(c.Intn(100)) },
		func(b *bool, c randfill.Continue) { *b = true })
	var s apiextensionsv1.JSONSchemaProps
	f.Fill(&s)
	if !sameAsRoundTrip(t, "every field set", &s) {
		t.Fatal("the schema took the round trip")
	}
	m, _ := schemaToMap(&s)
	typ := reflect.TypeOf(s)
	for i := 0; i < typ.NumField(); i++ {
		name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		if _, ok := m[name]; !ok {
			t.Errorf("field %s (%q) was not set by the test", typ.Field(i).Name, name)
		}
	}
}

// Empty is not absent: a pointer to an empty value is written, an empty
// list or map is not.
func TestSchemaMapEmptyAndAbsent(t *testing.T) {
	zero, no, empty := int64(0), false, ""
	s := &apiextensionsv1.JSONSchemaProps{
		Default:                &apiextensionsv1.JSON{},
		MaxItems:               &zero,
		XPreserveUnknownFields: &no,
		XListType:              &empty,
		Items:                  &apiextensionsv1.JSONSchemaPropsOrArray{},
		AdditionalProperties:   &apiextensionsv1.JSONSchemaPropsOrBool{},
		Dependencies:           apiextensionsv1.JSONSchemaDependencies{"a": {Property: []string{}}},
		Properties:             map[string]apiextensionsv1.JSONSchemaProps{},
		Enum:                   []apiextensionsv1.JSON{},
		XValidations:           apiextensionsv1.ValidationRules{{}},
	}
	sameAsRoundTrip(t, "empty values", s)
	m, _ := schemaToMap(s)
	want := map[string]any{"default": nil, "maxItems": 0.0, "x-kubernetes-preserve-unknown-fields": false,
		"x-kubernetes-list-type": "", "items": nil, "additionalProperties": false,
		"dependencies": map[string]any{"a": nil}, "x-kubernetes-validations": []any{map[string]any{"rule": ""}}}
	if !reflect.DeepEqual(m, want) {
		t.Errorf("map = %#v, want %#v", m, want)
	}
}

// Every schema of the CRD manifests in the repository's test data
// (goldens and inputs), and of the real tree when GATEDCRD_BENCH_MODULE
// names it.
func TestSchemaMapCorpus(t *testing.T) {
	files := corpusFiles(t, "../../..", true)
	if m := os.Getenv("GATEDCRD_BENCH_MODULE"); m != "" {
		files = append(files, corpusFiles(t, testtree.RealTree(t, "../../../hack/real-tree.sh", m), false)...)
	} else {
		t.Log("the real tree is left out: set GATEDCRD_BENCH_MODULE to a module@version to include it")
	}
	schemas := corpusSchemas(t, files)
	for _, s := range schemas {
		sameAsRoundTrip(t, s.where, s.schema)
	}
	t.Logf("%d schemas compared", len(schemas))
	if len(schemas) < 50 {
		t.Errorf("only %d schemas found", len(schemas))
	}
}

// corpusFiles lists the .yaml files below root that hold an
// openAPIV3Schema, only those below a testdata directory when
// testdataOnly is set.
func corpusFiles(t testing.TB, root string, testdataOnly bool) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".yaml" {
			return err
		}
		if testdataOnly && !strings.Contains(filepath.ToSlash(path), "/testdata/") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err == nil && strings.Contains(string(data), "openAPIV3Schema") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// corpusSchema is a schema of the corpus, and where it is.
type corpusSchema struct {
	where  string
	schema *apiextensionsv1.JSONSchemaProps
}

// corpusSchemas reads the schemas of every version of the CRD manifests
// among files; files that are no CRD manifest are skipped.
func corpusSchemas(t testing.TB, files []string) []corpusSchema {
	t.Helper()
	var out []corpusSchema
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var crd apiextensionsv1.CustomResourceDefinition
		if yaml.Unmarshal(data, &crd) != nil {
			continue // test input of other kinds
		}
		for _, v := range crd.Spec.Versions {
			if v.Schema != nil && v.Schema.OpenAPIV3Schema != nil {
				out = append(out, corpusSchema{path + " " + v.Name, v.Schema.OpenAPIV3Schema})
			}
		}
	}
	return out
}

// randomValues fills a schema's JSON text, strings and numbers; odd
// ones (not UTF-8, NaN, JSON that does not parse) only when odd is set.
type randomValues struct {
	odd bool
}

// oddOne decides whether a value is an odd one.
func (r randomValues) oddOne(c randfill.Continue) bool {
	return r.odd && c.Intn(20) == 0
}

func (r randomValues) json(j *apiextensionsv1.JSON, c randfill.Continue) {
	if r.oddOne(c) {
		j.Raw = []byte(`{"a":`)
		return
	}
	var v any
	switch c.Intn(8) {
	case 0:
		return // empty: null
	case 1:
		j.Raw = []byte(" null ")
		return
	case 2:
		var s string
		r.text(&s, c)
		v = s
	case 3:
		v = c.NormFloat64() * math.Pow(10, float64(c.Intn(40)-20))
	case 4:
		v = c.Int63() - c.Int63()
	case 5:
		v = c.Intn(2) == 0
	case 6:
		v = map[string]any{"k": []any{1.5, "x", nil, map[string]any{}}, "n": 1e21}
	default:
		j.Raw = []byte(`[1, 1.0, 1e2, -0, 12345678901234567890, "\u00e9\ud83d\ude00", {"a": {"a": 1}, "a": 2}]`)
		return
	}
	raw, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	j.Raw = raw
}

func (r randomValues) text(s *string, c randfill.Continue) {
	if r.oddOne(c) {
		*s = "not UTF-8: \xff"
		return
	}
	switch c.Intn(12) {
	case 0:
		*s = ""
	case 1:
		*s = "<tag> & \u2028 \"quoted\" \\ \t\n"
	default:
		c.FillNoCustom(s)
	}
}

func (r randomValues) float(f *float64, c randfill.Continue) {
	if r.oddOne(c) {
		*f = [2]float64{math.NaN(), math.Inf(-1)}[c.Intn(2)]
		return
	}
	switch c.Intn(30) {
	case 0:
		*f = math.Copysign(0, -1)
	case 1:
		*f = float64(c.Int63())
	default:
		*f = c.NormFloat64() * math.Pow(10, float64(c.Intn(600)-300))
	}
}

func randomInt(n *int64, c randfill.Continue) {
	switch c.Intn(3) {
	case 0:
		*n = c.Int63() // mostly beyond float64's 53 bits
	case 1:
		*n = -c.Int63()
	default:
		*n = int64(c.Intn(1000))
	}
}

// BenchmarkSchemaToMap converts the schemas of the corpus (the real tree's
// only, when GATEDCRD_BENCH_MODULE names it) directly and through the JSON
// round trip.
func BenchmarkSchemaToMap(b *testing.B) {
	var files []string
	if m := os.Getenv("GATEDCRD_BENCH_MODULE"); m != "" {
		files = corpusFiles(b, testtree.RealTree(b, "../../../hack/real-tree.sh", m), false)
	} else {
		files = corpusFiles(b, "../../..", true)
	}
	schemas := corpusSchemas(b, files)
	checkSchemaMap = nil
	for _, c := range []struct {
		name    string
		convert func(*apiextensionsv1.JSONSchemaProps) (map[string]any, error)
	}{
		{"direct", schemaToMap},
		{"round-trip", func(s *apiextensionsv1.JSONSchemaProps) (map[string]any, error) { return manifest.ToMap(s) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				for _, s := range schemas {
					if _, err := c.convert(s.schema); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N*len(schemas)), "ms/schema")
		})
	}
}
