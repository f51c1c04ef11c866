package pipeline

import (
	"reflect"
	"testing"
)

// TestNewKeepMakesEveryPart: a part NewKeep leaves nil would keep nothing,
// silently (each part's users take nil as a one-shot run), so every field
// of a new Keep must be set.
func TestNewKeepMakesEveryPart(t *testing.T) {
	k := NewKeep()
	defer k.Close()
	v := reflect.ValueOf(k).Elem()
	for i := range v.NumField() {
		if v.Field(i).IsNil() {
			t.Errorf("NewKeep leaves %s nil", v.Type().Field(i).Name)
		}
	}
}

// TestRunWithoutKeepKeepsNothing: a one-shot run's parts are all nil, and
// a run with a Keep uses that Keep's.
func TestRunWithoutKeepKeepsNothing(t *testing.T) {
	if got := New(Options{}).kept(); *got != (Keep{}) {
		t.Errorf("a run without a Keep keeps %+v", *got)
	}
	k := NewKeep()
	defer k.Close()
	if New(Options{Keep: k}).kept() != k {
		t.Error("a run with a Keep does not use it")
	}
}
