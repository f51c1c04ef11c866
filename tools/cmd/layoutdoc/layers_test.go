package main

import (
	"reflect"
	"testing"
)

func TestLayerRuleViolations(t *testing.T) {
	rule := layerRule{modulePath: "m", from: "internal", above: []string{"features", "example"}}
	graph := map[string][]string{
		"m/internal/a":     {"fmt", "m/internal/b", "m/features/payload"},
		"m/internal/b":     {"m/example/v1", "m/featuresextra"},
		"m/internal":       {"m/features"},
		"m/features/x":     {"m/internal/a", "m/example/v1"},
		"m/internalthings": {"m/features/x"},
	}
	got := rule.violations(graph)
	want := []string{
		"m/internal imports m/features",
		"m/internal/a imports m/features/payload",
		"m/internal/b imports m/example/v1",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("violations =\n%q\nwant\n%q", got, want)
	}
}

// TestRepositoryKeepsItsLayers runs the rules on this repository, as make
// verify does.
func TestRepositoryKeepsItsLayers(t *testing.T) {
	if err := checkLayers("../../.."); err != nil {
		t.Fatal(err)
	}
}
