// Package suggest measures how far a misspelled name is from the names a
// tool knows, for "did you mean ...?" hints in error messages. It is shared
// by every module of the repository (internal packages are visible to all
// import paths below github.com/gatedcrd/gatedcrd).
package suggest

// Distance is the Levenshtein edit distance between a and b, counted in
// bytes. Callers that want case-insensitive hints lower-case both first.
func Distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
