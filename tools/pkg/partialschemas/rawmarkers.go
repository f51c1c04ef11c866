package partialschemas

import (
	"strings"

	"github.com/gatedcrd/gatedcrd/tools/pkg/markerdefs"
)

// rawListElements splits a written list value ("a;b" or "{a,b}") into its
// elements as spelled, quotes included.
func rawListElements(value string) []string {
	v := strings.TrimSpace(value)
	if strings.HasPrefix(v, "{") && strings.HasSuffix(v, "}") {
		return trimAll(markerdefs.SplitTopLevel(v[1:len(v)-1], ','))
	}
	return trimAll(markerdefs.SplitTopLevel(v, ';'))
}

func trimAll(in []string) []string {
	for i := range in {
		in[i] = strings.TrimSpace(in[i])
	}
	return in
}

// rawArguments returns the written value of each argument of a marker with
// named arguments, e.g. for "+a:b:k1=v1,k2=v2" after the marker name "a:b".
// Only the first occurrence of a key is kept.
func rawArguments(text, name string) map[string]string {
	rest := strings.TrimPrefix(text, "+"+name)
	rest = strings.TrimPrefix(rest, ":")
	out := map[string]string{}
	for _, piece := range markerdefs.SplitTopLevel(rest, ',') {
		key, value, _ := strings.Cut(piece, "=")
		key = strings.TrimSpace(key)
		if _, dup := out[key]; !dup && key != "" {
			out[key] = value
		}
	}
	return out
}

// rawAnonymousValue returns what follows "=" in a marker with a single
// unnamed argument, e.g. "Foo" for "+openshift:enable:FeatureGate=Foo".
func rawAnonymousValue(text, name string) string {
	rest := strings.TrimPrefix(text, "+"+name)
	_, value, _ := strings.Cut(rest, "=")
	return value
}

func isQuoted(s string) bool {
	return strings.HasPrefix(s, `"`) || strings.HasPrefix(s, "`")
}
