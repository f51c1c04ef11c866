package schemacheck

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// The comparators' names, crd-schema-checker's.
const (
	ConditionsMustHaveProperSSATags = "ConditionsMustHaveProperSSATags"
	ListsMustHaveSSATags            = "ListsMustHaveSSATags"
	MustHaveStatus                  = "MustHaveStatus"
	MustNotExceedCostBudget         = "MustNotExceedCostBudget"
	NoBools                         = "NoBools"
	NoDataTypeChange                = "NoDataTypeChange"
	NoEnumRemoval                   = "NoEnumRemoval"
	NoFieldRemoval                  = "NoFieldRemoval"
	NoFloats                        = "NoFloats"
	NoMaps                          = "NoMaps"
	NoNewRequiredFields             = "NoNewRequiredFields"
	NoUints                         = "NoUints"
)

// Known lists every comparator, sorted.
var Known = []string{
	ConditionsMustHaveProperSSATags, ListsMustHaveSSATags, MustHaveStatus, MustNotExceedCostBudget,
	NoBools, NoDataTypeChange, NoEnumRemoval, NoFieldRemoval, NoFloats, NoMaps, NoNewRequiredFields, NoUints,
}

// Defaults are the comparators the reference runs when nothing is enabled
// or disabled.
var Defaults = []string{ListsMustHaveSSATags, MustHaveStatus, MustNotExceedCostBudget, NoEnumRemoval, NoFieldRemoval, NoNewRequiredFields}

// Resolve returns the comparators to run: Defaults plus enabled, less
// disabled (disabled wins), sorted. An unknown name is an error naming it.
func Resolve(enabled, disabled []string) ([]string, error) {
	var unknown []string
	for _, n := range append(append([]string(nil), enabled...), disabled...) {
		if !slices.Contains(Known, n) {
			unknown = append(unknown, n)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return nil, fmt.Errorf("unknown comparator(s) %s; known comparators: %s", strings.Join(slices.Compact(unknown), ", "), strings.Join(Known, ", "))
	}
	set := map[string]bool{}
	for _, n := range append(append([]string(nil), Defaults...), enabled...) {
		set[n] = true
	}
	for _, n := range disabled {
		delete(set, n)
	}
	out := make([]string, 0, len(set))
	for n := range set {
		out = append(out, n)
	}
	sort.Strings(out)
	return out, nil
}
