package suggest

import "testing"

func TestDistance(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"abc", "", 3}, {"", "abc", 3},
		{"featureGate", "featureGate", 0},
		{"featureGates", "featureGate", 1},
		{"expectedErorr", "expectedError", 2},
		{"kitten", "sitting", 3},
		{"Enum", "enum", 1},
	}
	for _, c := range cases {
		if got := Distance(c.a, c.b); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}
