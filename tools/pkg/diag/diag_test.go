package diag

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
)

func TestListOrderDedupAndErr(t *testing.T) {
	var l List
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l.Add(Errorf("b.go", 3, "+m", "bad"), Warningf("a.go", 9, "", "careful"), Errorf("a.go", 2, "", "first"))
		}()
	}
	wg.Wait()
	var got []string
	for _, d := range l.Items() {
		got = append(got, d.Severity.String()+" "+d.String())
	}
	want := []string{"error a.go:2: first", "warning a.go:9: careful", "error b.go:3: +m: bad"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("items = %q, want %q", got, want)
	}
	if err := l.Err(); err == nil || err.Error() != "a.go:2: first\nb.go:3: +m: bad" {
		t.Fatalf("Err = %v", err)
	}
	l.Demote()
	if l.HasErrors() || l.Err() != nil {
		t.Fatal("Demote left errors")
	}
}

func TestAddErrorKeepsPositions(t *testing.T) {
	var l List
	l.AddError(errors.Join(Errorf("x.yaml", 4, "spec.foo", "unknown field"), fmt.Errorf("plain failure")))
	items := l.Items()
	if len(items) != 2 || items[0].String() != "plain failure" || items[1].String() != "x.yaml:4: spec.foo: unknown field" {
		t.Fatalf("items = %v", items)
	}
	l.AddError(nil)
	if len(l.Items()) != 2 {
		t.Fatal("nil error added")
	}
}

func TestErrKeepsDiagnostics(t *testing.T) {
	var l List
	l.Add(Errorf("a.go", 2, "", "first"), Warningf("b.go", 1, "", "note"))
	l.AddError(l.Err())
	if n := len(l.Items()); n != 2 {
		t.Fatalf("adding the list's own Err added diagnostics: %v", l.Items())
	}
	var other List
	other.AddError(l.Err())
	if items := other.Items(); len(items) != 1 || items[0].File != "a.go" || items[0].Line != 2 {
		t.Fatalf("Err lost positions: %v", items)
	}
}

// located stands for an error type of another module that knows its
// position (repoconfig.Problem).
type located struct{}

func (located) Error() string { return "c.yaml:3: key: bad value" }
func (located) Position() (string, int, string, string) {
	return "c.yaml", 3, "key", "bad value"
}

func TestAddErrorKeepsPositionsOfOtherErrorTypes(t *testing.T) {
	var l List
	l.AddError(errors.Join(located{}))
	items := l.Items()
	if len(items) != 1 || items[0].File != "c.yaml" || items[0].Line != 3 || items[0].Subject != "key" || items[0].Severity != Error {
		t.Fatalf("items = %#v", items)
	}
}

// TestDiagnosticRendersAsProblem: a Diagnostic and the yamlfile.Problem it
// converts to render the same bytes, whichever parts are empty, and the
// conversion keeps every part.
func TestDiagnosticRendersAsProblem(t *testing.T) {
	for _, d := range []Diagnostic{
		Errorf("a.go", 3, "+m", "bad"),
		Warningf("a.go", 0, "", "careful"),
		Errorf("", 0, "key", "no file"),
		Errorf("", 0, "", "message only"),
	} {
		p := d.Problem()
		if p.File != d.File || p.Line != d.Line || p.Key != d.Subject || p.Message != d.Message {
			t.Errorf("Problem() = %+v, from %+v", p, d)
		}
		if d.String() != p.Error() {
			t.Errorf("diagnostic %q, problem %q", d.String(), p.Error())
		}
	}
	if got := Errorf("", 0, "", "message only").String(); got != "message only" {
		t.Errorf("without a file: %q", got)
	}
}
