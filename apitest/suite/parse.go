package suite

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gatedcrd/gatedcrd/apitest/server"
	"github.com/gatedcrd/gatedcrd/features/featuregate"
	"github.com/gatedcrd/gatedcrd/internal/diag"
	names "github.com/gatedcrd/gatedcrd/internal/suggest"
	"github.com/gatedcrd/gatedcrd/internal/yamlfile"
	"go.yaml.in/yaml/v3"
	sigsyaml "sigs.k8s.io/yaml"
)

// Fields of a suite file, at each level, sorted as messages list them.
var (
	suiteFields      = []string{"apiVersion", "crdName", "featureGates", "name", "tests", "version"}
	testsFields      = []string{"onCreate", "onUpdate"}
	createTestFields = []string{"expected", "expectedError", "initial", "name"}
	updateTestFields = []string{"expected", "expectedError", "expectedStatusError", "initial", "initialCRDPatches", "name", "updated"}
	patchFields      = []string{"from", "op", "path", "value"}
)

// ParseOptions select how the defects listed at ParseWith are treated.
type ParseOptions struct {
	// Lenient accepts them as openshift/api's own suite runner does,
	// recording each in Suite.Warnings, instead of rejecting the file.
	Lenient bool
}

// ParseFile reads and parses one suite file (see ParseWith).
func ParseFile(path string, opts ParseOptions) (*Suite, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &diag.Diagnostic{File: path, Message: err.Error()}
	}
	return ParseWith(path, data, opts)
}

// Parse parses a suite file strictly: ParseWith without Lenient.
func Parse(path string, data []byte) (*Suite, error) {
	return ParseWith(path, data, ParseOptions{})
}

// ParseWith parses a suite file. An unknown or repeated field at any
// level, a field of the wrong type, a missing required field (crdName,
// tests, a test's name and initial, an update test's updated), expectations
// that exclude each other, a test name used twice in one list, a malformed
// gate entry, object text that is not an object, and a malformed
// initialCRDPatches operation are errors. It reports every problem it
// finds, each as a *diag.Diagnostic with the file and line, joined in line order.
//
// With opts.Lenient, three of those defects are accepted with the meaning
// openshift/api's own runner gives them, because suites written for that
// runner have them (it decodes suites without checking fields, like
// encoding/json, and runs every test of a list, whatever its name):
//
//   - an unknown field is ignored: a singular featureGate: leaves the
//     suite without gate requirements, an onUpdate: next to tests: adds
//     no test;
//   - of a repeated field, the last one counts;
//   - tests that share a name all run.
//
// Each is then recorded in Suite.Warnings, saying what it means for the
// run.
func ParseWith(path string, data []byte, opts ParseOptions) (*Suite, error) {
	p := newParser(path, opts.Lenient)
	root, ok := p.ParseOne(data, "a suite file")
	if !ok {
		return nil, p.err()
	}
	if root == nil {
		return nil, &diag.Diagnostic{File: path, Message: "empty file; a suite needs at least crdName and tests"}
	}
	s := p.suite(root)
	if err := p.err(); err != nil {
		return nil, err
	}
	for _, w := range diag.FromError(p.warnings.Err()) {
		w.Severity = diag.Warning
		s.Warnings = append(s.Warnings, &w)
	}
	return s, nil
}

// parser reads one suite file. Its sections are named as messages name
// them ("the suite", "an onCreate test"), and its problems have no key:
// the message names the field.
type parser struct {
	yamlfile.Reader
	path     string
	lenient  bool
	warnings yamlfile.Problems
}

func newParser(path string, lenient bool) *parser {
	p := &parser{Reader: *yamlfile.NewReader(path), path: path, lenient: lenient}
	p.warnings.File = path
	p.Unknown = func(where string, f yamlfile.Field, known []string) {
		p.defect(f.Key.Line, ignoredMeaning(f.Key.Value, where, f.Value), "unknown field %q in %s%s (known fields: %s)",
			f.Key.Value, where, suggest(f.Key.Value, known), strings.Join(known, ", "))
	}
	// Lenient parsing lets the last of a repeated field count, as
	// encoding/json does in openshift/api's runner.
	p.Repeated = func(where string, key *yaml.Node, first yamlfile.Field) bool {
		p.defect(key.Line, fmt.Sprintf("this one counts, the one on line %d is ignored%s", first.Key.Line, lostTests(first.Value)),
			"field %q of %s is repeated (first on line %d)", key.Value, where, first.Key.Line)
		return p.lenient
	}
	return p
}

// defect reports a problem that lenient parsing accepts: an error, or when
// lenient, a warning that adds what accepting it means.
func (p *parser) defect(line int, meaning string, format string, args ...any) {
	if !p.lenient {
		p.errorf(line, format, args...)
		return
	}
	p.warnings.Addf(line, "", "%s; %s (strict parsing rejects this)", fmt.Sprintf(format, args...), meaning)
}

func (p *parser) errorf(line int, format string, args ...any) {
	p.Addf(line, "", format, args...)
}

// err returns the problems in line order, each a *diag.Diagnostic, joined: callers
// pick the problems of one file out with errors.As.
func (p *parser) err() error {
	var errs []error
	for _, d := range diag.FromError(p.Err()) {
		errs = append(errs, &d)
	}
	return errors.Join(errs...)
}

// scalar returns the text of a scalar field; ok is false when the field is
// absent or null.
func (p *parser) scalar(fields map[string]yamlfile.Field, name string) (text string, line int, ok bool) {
	f, present := fields[name]
	if !present {
		return "", 0, false
	}
	text, ok = p.String(name, f.Value)
	return text, f.Key.Line, ok
}

// required is scalar for a field that must be present and non-empty; line
// is where to report its absence.
func (p *parser) required(fields map[string]yamlfile.Field, name string, where string, line int) (string, int) {
	if _, present := fields[name]; !present {
		p.errorf(line, "%s: missing required field %q", where, name)
		return "", 0
	}
	text, at, ok := p.scalar(fields, name)
	if ok && strings.TrimSpace(text) == "" {
		p.errorf(at, "%s: %s must not be empty", where, name)
	}
	return text, at
}

// list returns the entries of a list field; nil when absent or null. of
// names the entries in the message about a value that is no list.
func (p *parser) list(fields map[string]yamlfile.Field, name, of string) []*yaml.Node {
	f, present := fields[name]
	if !present {
		return nil
	}
	items, _ := p.List(name, f.Value, of)
	return items
}

// object decodes a field that holds an object as YAML text.
func (p *parser) object(fields map[string]yamlfile.Field, name string) *Object {
	f, present := fields[name]
	if !present {
		return nil
	}
	if f.Value.Kind != yaml.ScalarNode || f.Value.Tag != "!!str" {
		p.errorf(f.Value.Line, "%s must be the object as YAML text (%s: |, then the object indented below), not %s",
			name, name, yamlfile.Describe(f.Value))
		return nil
	}
	obj, err := server.DecodeObject([]byte(f.Value.Value))
	if err != nil {
		p.errorf(f.Key.Line, "%s: %v", name, err)
		return nil
	}
	return &Object{Line: f.Key.Line, Object: obj}
}

func (p *parser) suite(root *yaml.Node) *Suite {
	s := &Suite{Path: p.path}
	fields := p.Fields("the suite", root, suiteFields...)
	if fields == nil {
		return s
	}
	p.scalar(fields, "apiVersion") // meaningless, but must be a string
	if name, _, ok := p.scalar(fields, "name"); ok && strings.TrimSpace(name) != "" {
		s.Name = name
	} else {
		s.Name = strings.TrimSuffix(filepath.Base(p.path), filepath.Ext(p.path))
	}
	s.CRDName, s.CRDNameLine = p.required(fields, "crdName", "the suite", root.Line)
	if s.CRDName != "" && !strings.Contains(s.CRDName, ".") {
		p.errorf(s.CRDNameLine, "crdName %q is not of the form <plural>.<group>", s.CRDName)
	}
	if s.CRDNameLine == 0 {
		s.CRDNameLine = root.Line
	}
	s.FeatureGates = p.gates(p.list(fields, "featureGates", "gate names"))
	if v, line, ok := p.scalar(fields, "version"); ok {
		if strings.TrimSpace(v) == "" {
			p.errorf(line, "version must not be empty; leave it out to test the single version of the CRD")
		}
		s.Version, s.VersionLine = v, line
	}
	tests, ok := fields["tests"]
	if !ok {
		p.errorf(root.Line, "the suite: missing required field %q", "tests")
		return s
	}
	testFields := p.Fields("tests", tests.Value, testsFields...)
	if testFields == nil {
		return s
	}
	creates, updates := p.list(testFields, "onCreate", "tests"), p.list(testFields, "onUpdate", "tests")
	if len(creates)+len(updates) == 0 {
		p.errorf(tests.Key.Line, "tests: no onCreate or onUpdate test")
	}
	names := map[string]int{}
	for _, n := range creates {
		if t, ok := p.createTest(n, names); ok {
			s.OnCreate = append(s.OnCreate, t)
		}
	}
	names = map[string]int{}
	for _, n := range updates {
		if t, ok := p.updateTest(n, names); ok {
			s.OnUpdate = append(s.OnUpdate, t)
		}
	}
	return s
}

// gates parses the featureGates entries.
func (p *parser) gates(items []*yaml.Node) []GateRequirement {
	var out []GateRequirement
	seen := map[featuregate.FeatureGateName]GateRequirement{}
	for _, n := range items {
		if n.Kind != yaml.ScalarNode || yamlfile.IsNull(n) {
			p.errorf(n.Line, "featureGates: an entry must be a gate name (Gate, or -Gate for a disabled gate), not %s", yamlfile.Describe(n))
			continue
		}
		g := GateRequirement{Enabled: true, Line: n.Line}
		name := n.Value
		if rest, negated := strings.CutPrefix(name, "-"); negated {
			g.Enabled, name = false, rest
		}
		g.Gate = featuregate.FeatureGateName(name)
		if name == "" || strings.ContainsAny(name, " \t,+-") {
			p.errorf(n.Line, "featureGates: %q is not a gate name (write Gate, or -Gate for a disabled gate, one per entry)", n.Value)
			continue
		}
		if first, dup := seen[g.Gate]; dup {
			if first.Enabled == g.Enabled {
				p.errorf(n.Line, "featureGates: %s is listed twice (first on line %d)", g, first.Line)
			} else {
				p.errorf(n.Line, "featureGates: %s contradicts %s on line %d", g, first, first.Line)
			}
			continue
		}
		seen[g.Gate] = g
		out = append(out, g)
	}
	return out
}

// testName reads the name of a test and checks it is unique in its list.
func (p *parser) testName(fields map[string]yamlfile.Field, where string, line int, names map[string]int) string {
	name, at := p.required(fields, "name", where, line)
	if name == "" {
		return ""
	}
	if first, dup := names[name]; dup {
		p.defect(at, "both run", "%s: test name %q is used twice (first on line %d)", where, name, first)
	} else {
		names[name] = at
	}
	return name
}

// expectedError reads an error substring, which must not be empty: every
// message contains the empty string.
func (p *parser) expectedError(fields map[string]yamlfile.Field, name string) string {
	text, line, ok := p.scalar(fields, name)
	if ok && text == "" {
		p.errorf(line, "%s must not be empty: every error message contains the empty string", name)
	}
	return text
}

func (p *parser) createTest(n *yaml.Node, names map[string]int) (CreateTest, bool) {
	before := p.Len()
	fields := p.Fields("an onCreate test", n, createTestFields...)
	if fields == nil {
		return CreateTest{}, false
	}
	t := CreateTest{Line: n.Line}
	t.Name = p.testName(fields, "onCreate test", n.Line, names)
	where := fmt.Sprintf("onCreate test %q", t.Name)
	if initial := p.object(fields, "initial"); initial != nil {
		t.Initial = *initial
	} else if _, present := fields["initial"]; !present {
		p.errorf(n.Line, "%s: missing required field %q", where, "initial")
	}
	t.Expected = p.object(fields, "expected")
	t.ExpectedError = p.expectedError(fields, "expectedError")
	if _, both := fields["expected"]; both && t.ExpectedError != "" {
		p.errorf(fields["expectedError"].Key.Line,
			"%s: expected and expectedError exclude each other (a create either persists an object or fails)", where)
	}
	return t, p.Len() == before
}

func (p *parser) updateTest(n *yaml.Node, names map[string]int) (UpdateTest, bool) {
	before := p.Len()
	fields := p.Fields("an onUpdate test", n, updateTestFields...)
	if fields == nil {
		return UpdateTest{}, false
	}
	t := UpdateTest{Line: n.Line}
	t.Name = p.testName(fields, "onUpdate test", n.Line, names)
	where := fmt.Sprintf("onUpdate test %q", t.Name)
	for _, name := range []string{"initial", "updated"} {
		obj := p.object(fields, name)
		if obj == nil {
			if _, present := fields[name]; !present {
				p.errorf(n.Line, "%s: missing required field %q", where, name)
			}
			continue
		}
		if name == "initial" {
			t.Initial = *obj
		} else {
			t.Updated = *obj
		}
	}
	t.Expected = p.object(fields, "expected")
	t.ExpectedError = p.expectedError(fields, "expectedError")
	t.ExpectedStatusError = p.expectedError(fields, "expectedStatusError")
	var set []string
	for _, name := range []string{"expected", "expectedError", "expectedStatusError"} {
		if _, ok := fields[name]; ok {
			set = append(set, name)
		}
	}
	if len(set) > 1 {
		p.errorf(fields[set[1]].Key.Line, "%s: %s exclude each other (the update fails, its status update fails, or it persists an object)",
			where, strings.Join(set, " and "))
	}
	if t.ExpectedStatusError != "" && t.Updated.Object != nil && !t.Updated.hasStatus() {
		p.errorf(fields["expectedStatusError"].Key.Line,
			"%s: expectedStatusError needs an updated object with a status: the status update is what should fail", where)
	}
	for _, item := range p.list(fields, "initialCRDPatches", "operations") {
		if op, ok := p.patch(item); ok {
			t.InitialCRDPatches = append(t.InitialCRDPatches, op)
		}
	}
	return t, p.Len() == before
}

// patchOps are the RFC 6902 operations and whether each takes a value and
// a from path.
var patchOps = map[string]struct{ value, from bool }{
	"add":     {value: true},
	"remove":  {},
	"replace": {value: true},
	"move":    {from: true},
	"copy":    {from: true},
	"test":    {value: true},
}

func (p *parser) patch(n *yaml.Node) (PatchOperation, bool) {
	before := p.Len()
	fields := p.Fields("an initialCRDPatches operation", n, patchFields...)
	if fields == nil {
		return PatchOperation{}, false
	}
	op := PatchOperation{Line: n.Line}
	op.Op, _ = p.required(fields, "op", "initialCRDPatches operation", n.Line)
	kind, known := patchOps[op.Op]
	if op.Op != "" && !known {
		p.errorf(fields["op"].Key.Line, "initialCRDPatches: unknown op %q (want add, copy, move, remove, replace or test)", op.Op)
	}
	path, line := p.required(fields, "path", "initialCRDPatches operation", n.Line)
	if path != "" && !strings.HasPrefix(path, "/") {
		p.errorf(line, "initialCRDPatches: path %q is not a JSON pointer (it starts with /, e.g. /spec/versions/0/schema)", path)
	}
	op.Path = path
	v, ok := fields["value"]
	if !ok {
		v, ok = nullField(n, "value")
	}
	if ok {
		if known && !kind.value {
			p.errorf(v.Key.Line, "initialCRDPatches: op %s takes no value", op.Op)
		}
		data, err := nodeJSON(v.Value)
		if err != nil {
			p.errorf(v.Key.Line, "initialCRDPatches: value: %v", err)
		}
		op.Value = data
	} else if known && kind.value {
		p.errorf(n.Line, "initialCRDPatches: op %s needs a value", op.Op)
	}
	if from, line, ok := p.scalar(fields, "from"); ok {
		if known && !kind.from {
			p.errorf(line, "initialCRDPatches: op %s takes no from", op.Op)
		}
		op.From = from
	} else if known && kind.from {
		p.errorf(n.Line, "initialCRDPatches: op %s needs a from path", op.Op)
	}
	return op, p.Len() == before
}

// nullField finds the field key of mapping n when its value is null,
// which Fields leaves out: for a patch, value: null is the value to write,
// not a value left out.
func nullField(n *yaml.Node, key string) (yamlfile.Field, bool) {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k, v := n.Content[i], n.Content[i+1]; k.Value == key && yamlfile.IsNull(v) {
			return yamlfile.Field{Key: k, Value: v}, true
		}
	}
	return yamlfile.Field{}, false
}

// ignoredMeaning says what ignoring an unknown field of a mapping means
// for the run.
func ignoredMeaning(name, where string, value *yaml.Node) string {
	switch {
	case where == "the suite" && name == "featureGate":
		return "ignored, so the suite has no gate requirements and runs against every CRD file of its crdName"
	case where == "the suite" && slices.Contains(testsFields, name):
		return "ignored" + lostTests(value) + " (" + name + " belongs under tests:)"
	}
	return "ignored"
}

// lostTests says how many tests an ignored field held, if it is a list of
// tests.
func lostTests(value *yaml.Node) string {
	if value.Kind != yaml.SequenceNode {
		return ""
	}
	if n := len(value.Content); n != 1 {
		return fmt.Sprintf(", so its %d tests do not run", n)
	}
	return ", so its test does not run"
}

// nodeJSON converts a YAML value to JSON.
func nodeJSON(n *yaml.Node) ([]byte, error) {
	text, err := yaml.Marshal(n)
	if err != nil {
		return nil, err
	}
	return sigsyaml.YAMLToJSON(text)
}

// suggest returns a hint naming the known field closest to an unknown one.
func suggest(unknown string, known []string) string {
	best, bestDistance := "", 3
	for _, k := range known {
		d := names.Distance(strings.ToLower(unknown), strings.ToLower(k))
		if d < bestDistance {
			best, bestDistance = k, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf("; did you mean %q?", best)
}
