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

// TestDiagnosticRendersFileLineSubject: each part of "file:line: subject:
// message" is left out when empty, a line without a file too.
func TestDiagnosticRendersFileLineSubject(t *testing.T) {
	for _, tc := range []struct {
		d    Diagnostic
		want string
	}{
		{Errorf("a.yaml", 3, "x.y", "is wrong"), "a.yaml:3: x.y: is wrong"},
		{Errorf("a.yaml", 3, "", "is wrong"), "a.yaml:3: is wrong"},
		{Warningf("a.yaml", 0, "", "empty file"), "a.yaml: empty file"},
		{Errorf("", 0, "x", "no file to point at"), "x: no file to point at"},
		{Errorf("", 4, "", "a line alone points nowhere"), "a line alone points nowhere"},
	} {
		if got := tc.d.String(); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
		if tc.d.Error() != tc.d.String() {
			t.Errorf("Error() %q differs from String()", tc.d.Error())
		}
	}
	if got := (Position{File: "s.yaml", Line: 7}).String(); got != "s.yaml:7" {
		t.Errorf("Position: %q", got)
	}
}

// TestAddErrorKeepsPositionsOfPointers: a *Diagnostic, as the suite parser
// returns, keeps its position in a List.
func TestAddErrorKeepsPositionsOfPointers(t *testing.T) {
	var l List
	d := Errorf("c.yaml", 3, "key", "bad value")
	l.AddError(errors.Join(&d))
	items := l.Items()
	if len(items) != 1 || items[0] != d {
		t.Fatalf("items = %#v", items)
	}
}

// TestFlattenReachesEveryLeaf: joined errors inside joined errors give
// their leaves in order; a plain error is its own leaf, nil has none.
func TestFlattenReachesEveryLeaf(t *testing.T) {
	a, b, c := errors.New("a"), errors.New("b"), errors.New("c")
	got := Flatten(errors.Join(a, errors.Join(b, c)))
	if len(got) != 3 || got[0] != a || got[1] != b || got[2] != c {
		t.Errorf("Flatten = %v", got)
	}
	if got := Flatten(a); len(got) != 1 || got[0] != a {
		t.Errorf("Flatten(plain) = %v", got)
	}
	if Flatten(nil) != nil {
		t.Error("Flatten(nil) is not empty")
	}
	if ds := FromError(errors.Join(Errorf("f", 2, "", "x"), c)); len(ds) != 2 || ds[0].Line != 2 || ds[1].Message != "c" {
		t.Errorf("FromError = %+v", ds)
	}
}
