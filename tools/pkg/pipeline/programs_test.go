package pipeline

import (
	"errors"
	"testing"

	"github.com/gatedcrd/gatedcrd/internal/kubetarget"
	"github.com/gatedcrd/gatedcrd/tools/pkg/crdvalidate"
)

// fakeStarts counts the programs a test's start function "started" (zero
// Programs: nothing runs, Close has nothing to end).
type fakeStarts struct{ n int }

func (f *fakeStarts) start() (*crdvalidate.Program, error) {
	f.n++
	return &crdvalidate.Program{}, nil
}

func TestKeepHoldsOneProgramPerRelease(t *testing.T) {
	k := NewKeep().programs
	var starts fakeStarts
	a, _ := k.get("1.32", starts.start)
	b, _ := k.get("1.32", starts.start)
	c, _ := k.get("1.33", starts.start)
	if a != b || a == c || starts.n != 2 {
		t.Fatalf("programs %p %p %p after %d starts; want the first reused, another for 1.33, 2 starts", a, b, c, starts.n)
	}
	k.drop("1.32", &crdvalidate.Program{}) // not the one kept: no effect
	if p, _ := k.get("1.32", starts.start); p != a || starts.n != 2 {
		t.Fatal("dropping another program dropped the kept one")
	}
	k.drop("1.32", a)
	if p, _ := k.get("1.32", starts.start); p == a || starts.n != 3 {
		t.Fatal("a dropped program was handed out again")
	}
	if err := k.close(); err != nil {
		t.Fatal(err)
	}
	if p, _ := k.get("1.33", starts.start); p == c || starts.n != 4 {
		t.Fatal("a program outlived Close")
	}
	failing := func() (*crdvalidate.Program, error) { return nil, errors.New("no toolchain") }
	if _, err := k.get("1.30", failing); err == nil {
		t.Fatal("a failed start returned no error")
	}
	if p, _ := k.get("1.30", starts.start); p == nil || starts.n != 5 {
		t.Fatal("a failed start was kept")
	}
}

// TestValidationProgramOfARun: a run with a Keep takes the kept program
// and leaves it running unless the validation failed; the start of a
// run's own program is not tested here (it builds the release's program,
// as crdvalidate's tests do).
func TestValidationProgramOfARun(t *testing.T) {
	keep := NewKeep()
	k := keep.programs
	kept := &crdvalidate.Program{}
	k.open["1.32"] = kept
	r := New(Options{Keep: keep})
	target := kubetarget.Choice{Minor: "1.32"}
	p, done, err := r.validationProgram(target)
	if err != nil || p != kept {
		t.Fatalf("validationProgram = %p, %v; want the kept program", p, err)
	}
	done(false)
	if k.open["1.32"] != kept {
		t.Fatal("a run that validated dropped the kept program")
	}
	p, done, _ = r.validationProgram(target)
	done(true)
	if _, ok := k.open["1.32"]; ok || p != kept {
		t.Fatal("a run whose validation failed left its program kept")
	}
}
