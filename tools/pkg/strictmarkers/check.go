package strictmarkers

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"reflect"
	"sort"
	"strings"
	"unicode"

	"sigs.k8s.io/controller-tools/pkg/loader"
	"sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/goload"
	"github.com/gatedcrd/gatedcrd/tools/pkg/markerdefs"
)

// prefixes are the marker namespaces this package polices. Markers under
// other prefixes (+k8s:, +genclient, +optional...) belong to other tools.
var prefixes = []string{"+openshift:", "+kubebuilder:"}

// otherGenerators are markers of generators outside the CRD stages that
// share our prefixes; they are accepted with any arguments.
var otherGenerators = []string{
	"kubebuilder:object:generate",
	"kubebuilder:skip",
	"kubebuilder:skipclient",
	"kubebuilder:rbac",
	"kubebuilder:webhook",
	"kubebuilder:ac:generate",
	"kubebuilder:ac:output:package",
	"openshift:compatibility-gen:internal",
}

// legacyFeatureSet markers select the legacy FeatureSet mode, which
// gatedcrd does not implement (docs/reference-rules.md, "The legacy
// FeatureSet mode").
var legacyFeatureSet = []string{
	"openshift:enable:FeatureSets",
	"openshift:validation:FeatureSetAwareEnum",
	"openshift:validation:FeatureSetAwareXValidation",
}

// Input is what Check needs.
type Input struct {
	Universe *goload.Universe
	// KnownGates are the FeatureGates of the payload manifests. When nil,
	// gate names are not checked.
	KnownGates []string
	// PayloadDir names the payload directory in messages.
	PayloadDir string
}

// Check scans the comments of every root package and adds its findings to
// problems: Scan, then Scanned.Report.
func Check(in Input, problems *diag.List) {
	Scan(in.Universe).Report(in, problems)
}

// Scanned are the marker lines of the root packages of a universe with
// what strict mode finds in each of them without the payload FeatureGate
// manifests: Scan needs no payload, so a caller may read it meanwhile.
type Scanned struct {
	lines []scannedLine
}

// scannedLine is one marker line, its findings, and its parsed value when
// it parsed (for the gate names Report checks).
type scannedLine struct {
	markerLine
	problems []diag.Diagnostic
	value    any
}

// Scan reads the marker lines of every root package of u and checks each
// one but for its FeatureGate names.
func Scan(u *goload.Universe) *Scanned { return ScanWith(u, nil) }

// ScanWith is Scan, checking through cache the texts a scan with it saw
// before (nil: none).
func ScanWith(u *goload.Universe, cache *LineCache) *Scanned {
	s := &Scanned{}
	names := definitionNames(u.Registry)
	check := func(l markerLine) scannedLine { return checkLine(u.Registry, l, names) }
	seen := map[string]lineVerdict{}
	for _, pkg := range u.Roots {
		pkg.NeedSyntax()
		for _, f := range pkg.Syntax {
			// With those inside function bodies, which a package kept
			// from a run before has dropped (goload.Universe.Comments).
			for _, cg := range u.Comments(f) {
				for _, line := range commentLines(u.Fset, cg) {
					s.lines = append(s.lines, cache.check(check, line, seen))
				}
			}
		}
	}
	cache.keep(seen)
	return s
}

// Report adds the findings of every scanned line to problems, in line
// order, each line's followed by the FeatureGate names of its marker that
// in.KnownGates lacks (in.Universe is not read).
func (s *Scanned) Report(in Input, problems *diag.List) {
	known := map[string]bool{}
	for _, g := range in.KnownGates {
		known[g] = true
	}
	for _, l := range s.lines {
		problems.Add(l.problems...)
		if l.value != nil && len(in.KnownGates) > 0 {
			checkGates(in, l.markerLine, l.value, known, problems)
		}
	}
}

type markerLine struct {
	text string
	file string
	line int
}

// commentLines returns the marker-like lines of a comment group with their
// positions, looking inside /* */ blocks too.
func commentLines(fset *token.FileSet, cg *ast.CommentGroup) []markerLine {
	var out []markerLine
	for _, c := range cg.List {
		pos := fset.Position(c.Pos())
		text := c.Text
		if strings.HasPrefix(text, "//") {
			text = text[2:]
		} else {
			text = strings.TrimSuffix(strings.TrimPrefix(text, "/*"), "*/")
		}
		for i, l := range strings.Split(text, "\n") {
			l = strings.TrimSpace(l)
			for _, p := range prefixes {
				if strings.HasPrefix(l, p) {
					out = append(out, markerLine{text: l, file: pos.Filename, line: pos.Line + i})
				}
			}
		}
	}
	return out
}

var targets = []markers.TargetType{markers.DescribesField, markers.DescribesType, markers.DescribesPackage}

// checkLine checks a marker line but for its gate names.
func checkLine(reg *markers.Registry, l markerLine, names []string) scannedLine {
	out := scannedLine{markerLine: l}
	report := func(format string, args ...any) {
		out.problems = append(out.problems, diag.Errorf(l.file, l.line, l.text, format, args...))
	}
	name := markerName(l.text)
	for _, legacy := range legacyFeatureSet {
		if name == legacy || strings.HasPrefix(name, legacy+":") {
			report("legacy FeatureSet markers are not supported; gate the field with +openshift:enable:FeatureGate or use the FeatureGateAware markers")
			return out
		}
	}
	for _, other := range otherGenerators {
		if name == other || strings.HasPrefix(name, other+":") {
			return out
		}
	}
	var def *markers.Definition
	for _, t := range targets {
		if def = reg.Lookup(l.text, t); def != nil {
			break
		}
	}
	if def == nil {
		msg := "is not a marker any stage understands, so it is silently ignored"
		if strings.HasSuffix(name, ":") {
			report("is an incomplete marker name (it ends with ':'), so it is silently ignored")
			return out
		}
		if s := suggestMarker(name, names); s != "" {
			msg += fmt.Sprintf("; did you mean +%s?", s)
		}
		report("%s", msg)
		return out
	}
	value, err := def.Parse(l.text)
	if err != nil {
		report("%s", argumentHint(def, err))
		return out
	}
	for _, p := range argumentProblems(def, l.text, value) {
		report("%s", p)
	}
	out.value = value
	return out
}

// sameNamespace keeps the names that share name's first segment
// ("kubebuilder", "openshift"), so suggestions stay in the user's namespace.
func sameNamespace(name string, names []string) []string {
	ns, _, _ := strings.Cut(name, ":")
	var out []string
	for _, n := range names {
		if strings.HasPrefix(n, ns+":") {
			out = append(out, n)
		}
	}
	return out
}

// suggestMarker returns the known marker name closest to name, or "".
func suggestMarker(name string, names []string) string {
	if s := otherNamespace(name, names); s != "" {
		return s
	}
	same := sameNamespace(name, names)
	// In +a:b:Name:arg=value the last segment is the first argument, so
	// look up a:b:Name before the whole name: +openshift:validation:
	// FeatureGateAwareEnums:featureGate=.. means ..:FeatureGateAwareEnum,
	// not +openshift:enable:FeatureGate. Argument names start lower-case.
	if i := strings.LastIndexByte(name, ':'); strings.Count(name, ":") >= 2 && i+1 < len(name) && unicode.IsLower(rune(name[i+1])) {
		stripped := name[:i]
		if s := otherNamespace(stripped, names); s != "" {
			return s
		}
		if s := closest(stripped, same, 1); len(s) > 0 &&
			(distance(stripped, s[0]) <= 3 || strings.EqualFold(lastSegment(stripped), lastSegment(s[0]))) {
			return s[0]
		}
	}
	// The same last segment under another path: +kubebuilder:Required.
	for _, n := range same {
		if strings.EqualFold(lastSegment(n), lastSegment(name)) {
			return n
		}
	}
	// A near miss under the same prefix.
	if s := closest(name, same, 1); len(s) > 0 && distance(name, s[0]) <= 2 {
		return s[0]
	}
	// A marker without prefix: +kubebuilder:validation:Nullable is +nullable.
	for _, n := range names {
		if !strings.Contains(n, ":") && distance(n, lastSegment(name)) <= 1 {
			return n
		}
	}
	// A known name that extends this one: +openshift:api-approved.
	var longer []string
	for _, n := range same {
		if strings.HasPrefix(n, name+".") || strings.HasPrefix(n, name+":") {
			longer = append(longer, n)
		}
	}
	if len(longer) == 1 {
		return longer[0]
	}
	if s := closest(name, same, 1); len(s) > 0 {
		return s[0]
	}
	return ""
}

// otherNamespace finds name under the other prefix, e.g. the known
// openshift:validation:FeatureGateAwareEnum for kubebuilder:validation:FeatureGateAwareEnum.
func otherNamespace(name string, names []string) string {
	_, rest, ok := strings.Cut(name, ":")
	if !ok || !strings.Contains(rest, ":") {
		return ""
	}
	for _, n := range names {
		ns, r, _ := strings.Cut(n, ":")
		if (ns == "openshift" || ns == "kubebuilder") && strings.EqualFold(r, rest) && n != name {
			return n
		}
	}
	return ""
}

func lastSegment(s string) string { return s[strings.LastIndexByte(s, ':')+1:] }

// markerName is the part of a marker line before its arguments.
func markerName(text string) string {
	name := strings.TrimPrefix(text, "+")
	if i := strings.IndexByte(name, '='); i >= 0 {
		name = name[:i]
	}
	return name
}

// ExplainParseError parses the marker line text with its definition in reg
// and, when that fails, returns the sentence strict mode prints for it (a
// missing value, an unknown argument with the closest one, list syntax).
// It returns "" when reg has no definition for text or text parses.
func ExplainParseError(reg *markers.Registry, text string) string {
	for _, t := range targets {
		if def := reg.Lookup(text, t); def != nil {
			if _, err := def.Parse(text); err != nil {
				return argumentHint(def, err)
			}
			return ""
		}
	}
	return ""
}

// unknownArgument is the sentence for an argument arg that marker name
// does not have, with the closest of its arguments args (sorted).
func unknownArgument(name, arg string, args []string) string {
	hint := fmt.Sprintf("unknown argument %q of +%s (arguments: %s)", arg, name, strings.Join(args, ", "))
	if s := closest(arg, args, 1); len(s) > 0 {
		hint += fmt.Sprintf("; did you mean %s?", s[0])
	}
	return hint
}

func argumentHint(def *markers.Definition, err error) string {
	msg := err.Error()
	const unknown = "unknown argument \""
	if i := strings.Index(msg, unknown); i >= 0 && !selfParsing(def) {
		arg := msg[i+len(unknown):]
		if j := strings.IndexByte(arg, '"'); j >= 0 {
			arg = arg[:j]
		}
		var args []string
		for a := range def.Fields {
			if a != "" {
				args = append(args, a)
			}
		}
		sort.Strings(args)
		return unknownArgument(def.Name, arg, args)
	}
	first := err
	var list loader.ErrList
	if errors.As(err, &list) && len(list) > 0 {
		// Later errors are consequences of the first: the parser stops there.
		first = list[0]
	}
	text := first.Error()
	var se *markers.ScannerError
	if errors.As(first, &se) {
		text = se.Msg
		if se.Pos.IsValid() {
			text += fmt.Sprintf(" (at column %d of the arguments)", se.Pos.Column)
		}
		switch {
		case se.Msg == `missing argument ""`:
			return fmt.Sprintf("+%s needs a value: write +%s=<value>", def.Name, def.Name)
		case strings.HasPrefix(se.Msg, "expected equals"), strings.HasPrefix(se.Msg, `extra arguments provided: ",`):
			text += "; arguments are name=value pairs separated by ',': write lists as a;b;c or {a,b,c} and quote values that contain ','"
		case se.Msg == `expected comma, got ";"`:
			text += "; inside {...} separate list items with ','"
		}
	}
	return fmt.Sprintf("cannot parse +%s: %s", def.Name, text)
}

// selfParsing reports whether def's values parse themselves (such as
// +openshift:file-pattern): their errors name their own arguments, and
// def.Fields does not describe them.
func selfParsing(def *markers.Definition) bool {
	type parser interface {
		ParseMarker(name, anonymousName, rest string) error
	}
	if def.Output == nil || def.Output.Implements(reflect.TypeFor[markerdefs.ArgumentsDropper]()) {
		// The FeatureGate-aware markers parse their known arguments with
		// controller-tools' struct grammar (markerdefs.ArgumentsDropper).
		return false
	}
	return reflect.PointerTo(def.Output).Implements(reflect.TypeFor[parser]())
}

// checkGates reports gate names the payload manifests do not know.
func checkGates(in Input, l markerLine, value any, known map[string]bool, problems *diag.List) {
	var gates []string
	switch v := value.(type) {
	case markerdefs.EnableFeatureGate:
		gates = v
	case markerdefs.GateAware:
		c := v.GateCondition()
		gates = append(append(gates, c.FeatureGate...), c.RequiredFeatureGate...)
	default:
		return
	}
	for _, g := range gates {
		if g == markerdefs.Ungated || known[g] {
			continue
		}
		msg := fmt.Sprintf("FeatureGate %q is not listed in the payload FeatureGate manifests (%s), so its content would only ever ship in CustomNoUpgrade", g, in.PayloadDir)
		if s := closest(g, in.KnownGates, 3); len(s) > 0 {
			msg += "; closest known gates: " + strings.Join(s, ", ")
		}
		problems.Add(diag.Errorf(l.file, l.line, l.text, "%s", msg))
	}
}

func definitionNames(reg *markers.Registry) []string {
	seen := map[string]bool{}
	var out []string
	for _, d := range reg.AllDefinitions() {
		if !seen[d.Name] {
			seen[d.Name] = true
			out = append(out, d.Name)
		}
	}
	sort.Strings(out)
	return out
}
