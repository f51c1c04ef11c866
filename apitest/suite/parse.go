package suite

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/gatedcrd/gatedcrd/apitest/server"
	"github.com/gatedcrd/gatedcrd/features/featuregate"
	"github.com/gatedcrd/gatedcrd/internal/diag"
	names "github.com/gatedcrd/gatedcrd/internal/suggest"
	"github.com/gatedcrd/gatedcrd/internal/yamlfile"
	"go.yaml.in/yaml/v3"
	sigsyaml "sigs.k8s.io/yaml"
)

// Error is a problem with a suite file, or with a file it leads to, and the
// line it concerns (0 when it concerns the whole file): the strict YAML
// files' one problem type, rendered "file:line: message".
type Error = diag.Diagnostic

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
		return nil, &Error{File: path, Message: err.Error()}
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
// finds, each as an *Error with the file and line, joined in line order.
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
	p := &parser{path: path, lenient: opts.Lenient}
	decoder := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := decoder.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, &Error{File: path, Message: "empty file; a suite needs at least crdName and tests"}
		}
		return nil, p.yamlError(err)
	}
	for {
		var extra yaml.Node
		err := decoder.Decode(&extra)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, p.yamlError(err)
		}
		if len(extra.Content) > 0 && !isNull(extra.Content[0]) {
			return nil, &Error{File: path, Line: extra.Content[0].Line, Message: "a suite file holds one YAML document, found another"}
		}
	}
	if len(doc.Content) == 0 || isNull(doc.Content[0]) {
		return nil, &Error{File: path, Message: "empty file; a suite needs at least crdName and tests"}
	}
	s := p.suite(doc.Content[0])
	if err := p.err(); err != nil {
		return nil, err
	}
	sort.SliceStable(p.warnings, func(i, j int) bool { return p.warnings[i].Line < p.warnings[j].Line })
	s.Warnings = p.warnings
	return s, nil
}

type parser struct {
	path     string
	lenient  bool
	errs     []*Error
	warnings []*Error
}

// defect reports a problem that lenient parsing accepts: an error, or when
// lenient, a warning that adds what accepting it means.
func (p *parser) defect(line int, meaning string, format string, args ...any) {
	if !p.lenient {
		p.errorf(line, format, args...)
		return
	}
	msg := fmt.Sprintf(format, args...) + "; " + meaning + " (strict parsing rejects this)"
	p.warnings = append(p.warnings, &Error{File: p.path, Line: line, Message: msg})
}

func (p *parser) errorf(line int, format string, args ...any) {
	p.errs = append(p.errs, &Error{File: p.path, Line: line, Message: fmt.Sprintf(format, args...)})
}

func (p *parser) err() error {
	if len(p.errs) == 0 {
		return nil
	}
	sort.SliceStable(p.errs, func(i, j int) bool { return p.errs[i].Line < p.errs[j].Line })
	errs := make([]error, len(p.errs))
	for i, e := range p.errs {
		errs[i] = e
	}
	return errors.Join(errs...)
}

func (p *parser) yamlError(err error) error {
	line, msg := yamlfile.SyntaxError(err)
	return &Error{File: p.path, Line: line, Message: "invalid YAML: " + msg}
}

// field is a key of a mapping and its value (aliases resolved).
type field struct {
	key, value *yaml.Node
}

// fields checks that n is a mapping whose keys are among known, each at
// most once, and returns its fields by key. where names the mapping in
// messages.
func (p *parser) fields(n *yaml.Node, where string, known []string) map[string]field {
	n = resolve(n)
	if n.Kind != yaml.MappingNode {
		p.errorf(n.Line, "%s must be a mapping, not %s", where, describe(n))
		return nil
	}
	out := map[string]field{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, value := resolve(n.Content[i]), resolve(n.Content[i+1])
		if key.Kind != yaml.ScalarNode {
			p.errorf(key.Line, "%s: a key must be a string, not %s", where, describe(key))
			continue
		}
		if !slices.Contains(known, key.Value) {
			p.defect(key.Line, ignoredMeaning(key.Value, where, value), "unknown field %q in %s%s (known fields: %s)",
				key.Value, where, suggest(key.Value, known), strings.Join(known, ", "))
			continue
		}
		if first, dup := out[key.Value]; dup {
			p.defect(key.Line, fmt.Sprintf("this one counts, the one on line %d is ignored%s", first.key.Line, lostTests(first.value)),
				"field %q of %s is repeated (first on line %d)", key.Value, where, first.key.Line)
			if !p.lenient {
				continue
			}
		}
		out[key.Value] = field{key: key, value: value}
	}
	return out
}

// scalar returns the text of a scalar field; ok is false when the field is
// absent or null.
func (p *parser) scalar(fields map[string]field, name string) (text string, line int, ok bool) {
	f, present := fields[name]
	if !present || isNull(f.value) {
		return "", 0, false
	}
	if f.value.Kind != yaml.ScalarNode {
		p.errorf(f.value.Line, "%s must be a string, not %s", name, describe(f.value))
		return "", f.key.Line, false
	}
	return f.value.Value, f.key.Line, true
}

// required is scalar for a field that must be present and non-empty; line
// is where to report its absence.
func (p *parser) required(fields map[string]field, name string, where string, line int) (string, int) {
	text, at, ok := p.scalar(fields, name)
	if !ok {
		if _, present := fields[name]; !present || isNull(fields[name].value) {
			p.errorf(line, "%s: missing required field %q", where, name)
		}
		return "", at
	}
	if strings.TrimSpace(text) == "" {
		p.errorf(at, "%s: %s must not be empty", where, name)
	}
	return text, at
}

// list returns the items of a list field; nil when absent or null.
func (p *parser) list(fields map[string]field, name string) []*yaml.Node {
	f, present := fields[name]
	if !present || isNull(f.value) {
		return nil
	}
	if f.value.Kind != yaml.SequenceNode {
		p.errorf(f.value.Line, "%s must be a list, not %s", name, describe(f.value))
		return nil
	}
	items := make([]*yaml.Node, len(f.value.Content))
	for i, item := range f.value.Content {
		items[i] = resolve(item)
	}
	return items
}

// object decodes a field that holds an object as YAML text.
func (p *parser) object(fields map[string]field, name string) *Object {
	f, present := fields[name]
	if !present || isNull(f.value) {
		return nil
	}
	if f.value.Kind != yaml.ScalarNode || f.value.Tag != "!!str" {
		p.errorf(f.value.Line, "%s must be the object as YAML text (%s: |, then the object indented below), not %s",
			name, name, describe(f.value))
		return nil
	}
	obj, err := server.DecodeObject([]byte(f.value.Value))
	if err != nil {
		p.errorf(f.key.Line, "%s: %v", name, err)
		return nil
	}
	return &Object{Line: f.key.Line, Object: obj}
}

func (p *parser) suite(root *yaml.Node) *Suite {
	s := &Suite{Path: p.path}
	fields := p.fields(root, "the suite", suiteFields)
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
	s.FeatureGates = p.gates(p.list(fields, "featureGates"))
	if v, line, ok := p.scalar(fields, "version"); ok {
		if strings.TrimSpace(v) == "" {
			p.errorf(line, "version must not be empty; leave it out to test the single version of the CRD")
		}
		s.Version, s.VersionLine = v, line
	}
	tests, ok := fields["tests"]
	if !ok || isNull(tests.value) {
		p.errorf(root.Line, "the suite: missing required field %q", "tests")
		return s
	}
	testFields := p.fields(tests.value, "tests", testsFields)
	if testFields == nil {
		return s
	}
	creates, updates := p.list(testFields, "onCreate"), p.list(testFields, "onUpdate")
	if len(creates)+len(updates) == 0 {
		p.errorf(tests.key.Line, "tests: no onCreate or onUpdate test")
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
		if n.Kind != yaml.ScalarNode || isNull(n) {
			p.errorf(n.Line, "featureGates: an entry must be a gate name (Gate, or -Gate for a disabled gate), not %s", describe(n))
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
func (p *parser) testName(fields map[string]field, where string, line int, names map[string]int) string {
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
func (p *parser) expectedError(fields map[string]field, name string) string {
	text, line, ok := p.scalar(fields, name)
	if ok && text == "" {
		p.errorf(line, "%s must not be empty: every error message contains the empty string", name)
	}
	return text
}

func (p *parser) createTest(n *yaml.Node, names map[string]int) (CreateTest, bool) {
	before := len(p.errs)
	fields := p.fields(n, "an onCreate test", createTestFields)
	if fields == nil {
		return CreateTest{}, false
	}
	t := CreateTest{Line: n.Line}
	t.Name = p.testName(fields, "onCreate test", n.Line, names)
	where := fmt.Sprintf("onCreate test %q", t.Name)
	if initial := p.object(fields, "initial"); initial != nil {
		t.Initial = *initial
	} else if _, present := fields["initial"]; !present || isNull(fields["initial"].value) {
		p.errorf(n.Line, "%s: missing required field %q", where, "initial")
	}
	t.Expected = p.object(fields, "expected")
	t.ExpectedError = p.expectedError(fields, "expectedError")
	if f, both := fields["expected"]; both && !isNull(f.value) && t.ExpectedError != "" {
		p.errorf(fields["expectedError"].key.Line,
			"%s: expected and expectedError exclude each other (a create either persists an object or fails)", where)
	}
	return t, len(p.errs) == before
}

func (p *parser) updateTest(n *yaml.Node, names map[string]int) (UpdateTest, bool) {
	before := len(p.errs)
	fields := p.fields(n, "an onUpdate test", updateTestFields)
	if fields == nil {
		return UpdateTest{}, false
	}
	t := UpdateTest{Line: n.Line}
	t.Name = p.testName(fields, "onUpdate test", n.Line, names)
	where := fmt.Sprintf("onUpdate test %q", t.Name)
	for _, name := range []string{"initial", "updated"} {
		obj := p.object(fields, name)
		if obj == nil {
			if f, present := fields[name]; !present || isNull(f.value) {
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
		if f, ok := fields[name]; ok && !isNull(f.value) {
			set = append(set, name)
		}
	}
	if len(set) > 1 {
		p.errorf(fields[set[1]].key.Line, "%s: %s exclude each other (the update fails, its status update fails, or it persists an object)",
			where, strings.Join(set, " and "))
	}
	if t.ExpectedStatusError != "" && t.Updated.Object != nil && !t.Updated.hasStatus() {
		p.errorf(fields["expectedStatusError"].key.Line,
			"%s: expectedStatusError needs an updated object with a status: the status update is what should fail", where)
	}
	for _, item := range p.list(fields, "initialCRDPatches") {
		if op, ok := p.patch(item); ok {
			t.InitialCRDPatches = append(t.InitialCRDPatches, op)
		}
	}
	return t, len(p.errs) == before
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
	before := len(p.errs)
	fields := p.fields(n, "an initialCRDPatches operation", patchFields)
	if fields == nil {
		return PatchOperation{}, false
	}
	op := PatchOperation{Line: n.Line}
	op.Op, _ = p.required(fields, "op", "initialCRDPatches operation", n.Line)
	kind, known := patchOps[op.Op]
	if op.Op != "" && !known {
		p.errorf(fields["op"].key.Line, "initialCRDPatches: unknown op %q (want add, copy, move, remove, replace or test)", op.Op)
	}
	path, line := p.required(fields, "path", "initialCRDPatches operation", n.Line)
	if path != "" && !strings.HasPrefix(path, "/") {
		p.errorf(line, "initialCRDPatches: path %q is not a JSON pointer (it starts with /, e.g. /spec/versions/0/schema)", path)
	}
	op.Path = path
	if v, ok := fields["value"]; ok {
		if known && !kind.value {
			p.errorf(v.key.Line, "initialCRDPatches: op %s takes no value", op.Op)
		}
		data, err := nodeJSON(v.value)
		if err != nil {
			p.errorf(v.key.Line, "initialCRDPatches: value: %v", err)
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
	return op, len(p.errs) == before
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

func resolve(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool {
	n = resolve(n)
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

// describe names the kind of a node for messages.
func describe(n *yaml.Node) string {
	switch n = resolve(n); n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return "null"
		case "!!str":
			return fmt.Sprintf("the string %q", n.Value)
		}
		return fmt.Sprintf("the %s %s", strings.TrimPrefix(n.Tag, "!!"), n.Value)
	}
	return "an unsupported YAML node"
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
