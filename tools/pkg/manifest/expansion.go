package manifest

import (
	"errors"
	"fmt"
)

// ErrExpansion is the error of a document whose aliases expand it far
// beyond its own size; see expansionBudget.
var ErrExpansion = errors.New("YAML aliases expand the document too far")

// Bounds of expansionBudget.
const (
	expansionFactor = 16
	expansionSlack  = 1 << 20
)

// expansionBudget returns how many bytes a document of size bytes may
// stand for, written out as JSON (roughly: ownSize). go.yaml.in/yaml/v2
// bounds how many nodes aliases may add, not how large they are: a long
// string anchored once and referenced through a few levels of alias lists
// makes 12 KB stand for 300 MB. The parsed tree shares the string, but the
// library's JSON round trip (Parse's fallback) and every later marshal
// write it out in full, which takes seconds to minutes and as much memory.
// Without aliases a document stands for at most a few times its size
// (1.85 at most among openshift/api's YAML files), and the aliases of
// hand-written files (test suites reuse objects) add little, so the
// budget rejects only such blow-ups.
func expansionBudget(size int) int {
	return expansionFactor*size + expansionSlack
}

func expansionError(size int) error {
	return fmt.Errorf("%w: to more than %d bytes for %d bytes of YAML (%d times the YAML plus %d bytes are allowed)",
		ErrExpansion, expansionBudget(size), size, expansionFactor, expansionSlack)
}

// ownSize is v's own share of its size written out as JSON without
// escapes: a string's bytes and quotes, a container's brackets and
// separators, a few bytes for any other scalar. A container's keys and
// elements count on their own.
func ownSize(v any) int {
	switch x := v.(type) {
	case string:
		return len(x) + 2
	case map[any]any:
		return 2 + 2*len(x)
	case []any:
		return 2 + len(x)
	}
	return 8
}

// expandedSize returns the size of v written out (ownSize of v and of
// everything in it), or a number above budget once it exceeds budget.
func expandedSize(v any, budget int) int {
	n := ownSize(v)
	switch x := v.(type) {
	case map[any]any:
		for k, e := range x {
			if n += expandedSize(k, budget-n); n > budget {
				return n
			}
			if n += expandedSize(e, budget-n); n > budget {
				return n
			}
		}
	case []any:
		for _, e := range x {
			if n += expandedSize(e, budget-n); n > budget {
				return n
			}
		}
	}
	return n
}
