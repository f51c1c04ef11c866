package schemapatch

import (
	"strings"
	"testing"
)

// Folding embedded fields runs off the generation's goroutine (converter):
// the errors it finds still reach the package, once, and fail every
// generation that indexed it, as when the parser folded them itself.
func TestEmbeddingErrorsReachThePackage(t *testing.T) {
	decls := `
type ThingSpec struct {
	// a is a string.
	A string ` + "`json:\"a\"`" + `

	// The embedded string cannot be folded into an object.
	// +openshift:enable:FeatureGate=Example
	Name ` + "`json:\",inline\"`" + `
}

// Name is a name.
type Name string
`
	files := thingsAPI(decls, []string{""}, []string{"Example"})
	l := load(t, write(t, files))
	_, list, tr := l.run(t)
	problems := problemStrings(list)
	want := "error: package " + l.universe.Roots[0].PkgPath + ": conflicting types in allOf branches in schema: string vs object"
	if len(problems) != 1 || !strings.HasPrefix(problems[0], want) {
		t.Fatalf("problems = %q, want exactly %q", problems, want)
	}
	changes, _, err := tr.Changes()
	if err != nil {
		t.Fatal(err)
	}
	if names := changeNames(changes); len(names) != 0 {
		t.Errorf("written = %v, want nothing: the package has an error", names)
	}
}
