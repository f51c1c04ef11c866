package strictmarkers

import (
	"sort"
	"strings"

	"github.com/gatedcrd/gatedcrd/internal/suggest"
)

// distance compares case-insensitively, so that +kubebuilder:enum finds
// ...:Enum.
func distance(a, b string) int {
	return suggest.Distance(strings.ToLower(a), strings.ToLower(b))
}

// closest returns up to n candidates nearest to name, nearest first, ties
// by name. Candidates whose last ':'-segment equals name's last segment
// (ignoring case) rank first: +kubebuilder:Required → ...:validation:Required.
func closest(name string, candidates []string, n int) []string {
	type scored struct {
		s string
		d int
	}
	last := func(s string) string { return strings.ToLower(s[strings.LastIndex(s, ":")+1:]) }
	var all []scored
	for _, c := range candidates {
		d := distance(name, c)
		if last(c) == last(name) && last(name) != "" {
			d = -1
		}
		all = append(all, scored{c, d})
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].d != all[j].d {
			return all[i].d < all[j].d
		}
		return all[i].s < all[j].s
	})
	var out []string
	for _, s := range all {
		if len(out) == n {
			break
		}
		// A suggestion further than half the name away helps nobody.
		if s.d > len(name)/2+2 {
			break
		}
		out = append(out, s.s)
	}
	return out
}
