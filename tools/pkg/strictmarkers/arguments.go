package strictmarkers

import (
	"fmt"
	"sort"
	"strings"

	"sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/gatedcrd/gatedcrd/tools/pkg/markerdefs"
)

// argumentProblems finds what controller-tools accepts silently in a marker
// that parsed: an argument given twice (the last value wins, so a gate of
// featureGate=A,featureGate=B is dropped), an argument of
// +openshift:file-pattern or a FeatureGate-aware marker that no stage reads
// (the marker parses without it), and a FeatureGate-aware marker whose rule
// or enum is empty.
func argumentProblems(def *markers.Definition, text string, value any) []string {
	var out []string
	dropper, drops := value.(markerdefs.ArgumentsDropper)
	if !def.AnonymousField() && !selfParsing(def) {
		seen := map[string]bool{}
		for _, arg := range argumentNames(def, text) {
			if seen[arg] {
				out = append(out, fmt.Sprintf("argument %s is given twice; only the last value would count (write lists as a;b)", arg))
			}
			seen[arg] = true
		}
	}
	if drops {
		// controller-tools would reject the whole package; the marker
		// applies without the argument, so strict mode says so.
		var args []string
		for a := range def.Fields {
			if a != "" {
				args = append(args, a)
			}
		}
		sort.Strings(args)
		for _, arg := range dropper.UnknownArguments() {
			out = append(out, unknownArgument(def.Name, arg, args))
		}
	}
	switch v := value.(type) {
	case markerdefs.FilePattern:
		// The reference ignores these; the stages do too, so a misspelt
		// operatorName would silently name the files without it.
		for _, arg := range v.Unknown {
			out = append(out, unknownArgument(def.Name, arg, markerdefs.FilePatternArguments)+"; the CRD stages ignore it")
		}
	case markerdefs.GateAwareXValidation:
		if strings.TrimSpace(v.Rule) == "" {
			out = append(out, "rule is empty: give the CEL expression to enforce when the gates are on")
		}
	case markerdefs.GateAwareEnum:
		if len(v.Enum) == 0 {
			out = append(out, `enum is empty, which would remove every enum constraint when the gates are on; list the allowed values (use "" for the empty string)`)
		}
	}
	return out
}

// argumentNames lists the argument names of a struct marker line in order,
// splitting at top-level commas (not inside quotes, backticks or braces).
func argumentNames(def *markers.Definition, text string) []string {
	rest := strings.TrimPrefix(text, "+"+def.Name)
	rest = strings.TrimPrefix(strings.TrimPrefix(rest, ":"), "=")
	var names []string
	depth, quote := 0, byte(0)
	start := 0
	flush := func(end int) {
		piece := rest[start:end]
		if k, _, ok := strings.Cut(piece, "="); ok {
			names = append(names, strings.TrimSpace(k))
		}
		start = end + 1
	}
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		switch {
		case quote != 0:
			if c == '\\' && quote == '"' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '`':
			quote = c
		case c == '{':
			depth++
		case c == '}':
			depth--
		case c == ',' && depth == 0:
			flush(i)
		}
	}
	flush(len(rest))
	return names
}
