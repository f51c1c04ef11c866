package suite

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	utiljson "k8s.io/apimachinery/pkg/util/json"
	sigsyaml "sigs.k8s.io/yaml"
)

// serverMetadata are the metadata fields that the server fills in or that
// the runner chooses (objects get generated names), so they are never
// compared, even when expected sets them.
var serverMetadata = []string{"creationTimestamp", "generateName", "generation", "managedFields", "name", "resourceVersion", "uid"}

// Compare compares a persisted object with the expected one and returns ""
// when they agree, or else a diff of the two as YAML (lines only in the
// expected object marked "-", lines only in the persisted one "+").
// Metadata is compared only for the fields that expected sets, and never
// for server-populated ones (serverMetadata). Numbers compare by value, so
// 2 and 2.0 agree.
func Compare(expected, persisted map[string]any) string {
	want, got, err := prepareComparison(expected, persisted)
	if err != nil {
		return fmt.Sprintf("cannot compare the objects: %v", err)
	}
	wantJSON, errWant := json.Marshal(want)
	gotJSON, errGot := json.Marshal(got)
	if errWant == nil && errGot == nil && bytes.Equal(wantJSON, gotJSON) {
		return ""
	}
	wantYAML, gotYAML := toYAML(want), toYAML(got)
	return "--- expected\n+++ persisted\n" + lineDiff(wantYAML, gotYAML)
}

// prepareComparison returns copies of both objects holding only what is to
// be compared.
func prepareComparison(expected, persisted map[string]any) (map[string]any, map[string]any, error) {
	want, err := jsonCopy(expected)
	if err != nil {
		return nil, nil, fmt.Errorf("expected object: %w", err)
	}
	got, err := jsonCopy(persisted)
	if err != nil {
		return nil, nil, fmt.Errorf("persisted object: %w", err)
	}
	wantMeta, _ := want["metadata"].(map[string]any)
	gotMeta, _ := got["metadata"].(map[string]any)
	for _, key := range serverMetadata {
		delete(wantMeta, key)
	}
	kept := map[string]any{}
	for key := range wantMeta {
		if value, ok := gotMeta[key]; ok {
			kept[key] = value
		}
	}
	if len(wantMeta) == 0 {
		delete(want, "metadata")
	}
	if len(kept) == 0 {
		delete(got, "metadata")
	} else {
		got["metadata"] = kept
	}
	return want, got, nil
}

// jsonCopy copies an object through JSON, so that the copy holds only JSON
// types (integers as int64).
func jsonCopy(obj map[string]any) (map[string]any, error) {
	data, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	if err := utiljson.Unmarshal(data, &out); err != nil {
		return nil, err
	}
	if out == nil {
		out = map[string]any{}
	}
	return out, nil
}

func toYAML(obj map[string]any) string {
	data, err := sigsyaml.Marshal(obj)
	if err != nil {
		return fmt.Sprintf("%#v\n", obj)
	}
	return string(data)
}

// lineDiff returns every line of a and b, in order, those only in a
// prefixed "- ", those only in b "+ " and those in both "  ", based on a
// longest common subsequence of lines.
func lineDiff(a, b string) string {
	x := strings.Split(strings.TrimSuffix(a, "\n"), "\n")
	y := strings.Split(strings.TrimSuffix(b, "\n"), "\n")
	// lcs[i][j] is the length of the longest common subsequence of x[i:]
	// and y[j:].
	lcs := make([][]int, len(x)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out strings.Builder
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			out.WriteString("  " + x[i] + "\n")
			i, j = i+1, j+1
		case j < len(y) && (i == len(x) || lcs[i][j+1] > lcs[i+1][j]):
			out.WriteString("+ " + y[j] + "\n")
			j++
		default:
			out.WriteString("- " + x[i] + "\n")
			i++
		}
	}
	return out.String()
}
