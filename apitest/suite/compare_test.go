package suite

import (
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/apitest/server"
)

// persistedWidget is an object as the server returns it.
const persistedWidget = `apiVersion: suite.gatedcrd.example/v1
kind: Widget
metadata:
  creationTimestamp: "2026-01-02T03:04:05Z"
  generateName: widgets-
  generation: 1
  labels:
    tier: gold
  managedFields:
  - apiVersion: suite.gatedcrd.example/v1
    fieldsType: FieldsV1
    manager: suite.test
    operation: Update
  name: widgets-x7k2p
  namespace: default
  resourceVersion: "123"
  uid: 0b7f3c0e-1111-2222-3333-444455556666
spec:
  colour: red
  size: 2
status:
  phase: Ready
`

func decode(t *testing.T, text string) map[string]any {
	t.Helper()
	obj, err := server.DecodeObject([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return obj.Object
}

func TestCompare(t *testing.T) {
	for _, tc := range []struct {
		name     string
		expected string
		want     []string // lines of the diff; none means equal
	}{
		{
			name:     "server metadata is ignored",
			expected: "apiVersion: suite.gatedcrd.example/v1\nkind: Widget\nspec: {colour: red, size: 2}\nstatus: {phase: Ready}\n",
		},
		{
			name: "metadata that expected sets is compared",
			expected: "apiVersion: suite.gatedcrd.example/v1\nkind: Widget\nmetadata: {labels: {tier: gold}, namespace: default}\n" +
				"spec: {colour: red, size: 2}\nstatus: {phase: Ready}\n",
		},
		{
			name: "server-populated metadata is ignored even when expected sets it",
			expected: "apiVersion: suite.gatedcrd.example/v1\nkind: Widget\nmetadata: {name: mine, uid: x, resourceVersion: '1', generation: 7}\n" +
				"spec: {colour: red, size: 2}\nstatus: {phase: Ready}\n",
		},
		{
			name:     "numbers compare by value",
			expected: "apiVersion: suite.gatedcrd.example/v1\nkind: Widget\nspec: {colour: red, size: 2.0}\nstatus: {phase: Ready}\n",
		},
		{
			name: "a different label",
			expected: "apiVersion: suite.gatedcrd.example/v1\nkind: Widget\nmetadata: {labels: {tier: silver}}\n" +
				"spec: {colour: red, size: 2}\nstatus: {phase: Ready}\n",
			want: []string{"  metadata:", "    labels:", "-     tier: silver", "+     tier: gold"},
		},
		{
			name:     "a different value",
			expected: "apiVersion: suite.gatedcrd.example/v1\nkind: Widget\nspec: {colour: blue, size: 2}\nstatus: {phase: Ready}\n",
			want:     []string{"--- expected", "+++ persisted", "  apiVersion: suite.gatedcrd.example/v1", "  spec:", "-   colour: blue", "+   colour: red", "    size: 2"},
		},
		{
			name:     "a field the server added",
			expected: "apiVersion: suite.gatedcrd.example/v1\nkind: Widget\nspec: {size: 2}\nstatus: {phase: Ready}\n",
			want:     []string{"+   colour: red"},
		},
		{
			name:     "a field the server dropped",
			expected: "apiVersion: suite.gatedcrd.example/v1\nkind: Widget\nspec: {colour: red, size: 2, fancy: x}\nstatus: {phase: Ready}\n",
			want:     []string{"-   fancy: x"},
		},
		{
			name:     "a missing status",
			expected: "apiVersion: suite.gatedcrd.example/v1\nkind: Widget\nspec: {colour: red, size: 2}\n",
			want:     []string{"+ status:", "+   phase: Ready"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			persisted := decode(t, persistedWidget)
			diff := Compare(decode(t, tc.expected), persisted)
			if len(tc.want) == 0 {
				if diff != "" {
					t.Errorf("objects differ:\n%s", diff)
				}
			} else {
				lines := strings.Split(diff, "\n")
				for _, want := range tc.want {
					if !containsLine(lines, want) {
						t.Errorf("diff\n%s\nhas no line %q", diff, want)
					}
				}
			}
			if got := decode(t, persistedWidget); toYAML(got) != toYAML(persisted) {
				t.Errorf("Compare modified the persisted object")
			}
		})
	}
}

func containsLine(lines []string, want string) bool {
	for _, l := range lines {
		if l == want {
			return true
		}
	}
	return false
}

func TestLineDiff(t *testing.T) {
	got := lineDiff("a\nb\nc\nd\n", "a\nc\nd\ne\n")
	want := "  a\n- b\n  c\n  d\n+ e\n"
	if got != want {
		t.Errorf("lineDiff:\n%s\nwant\n%s", got, want)
	}
	if got := lineDiff("", "x\n"); got != "- \n+ x\n" {
		t.Errorf("lineDiff from nothing: %q", got)
	}
}
