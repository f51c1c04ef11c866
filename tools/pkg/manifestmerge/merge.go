package manifestmerge

import (
	"fmt"
	"strconv"
	"strings"

	"sigs.k8s.io/structured-merge-diff/v6/typed"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
)

// startObject is the object every merge starts from: an empty CRD marked
// as stage 3's output.
func startObject() map[string]any {
	return map[string]any{
		"apiVersion": crdAPIVersion,
		"kind":       crdKind,
		"metadata": map[string]any{
			"annotations": map[string]any{manifest.MergedAnnotation: "true"},
		},
	}
}

// applied is the state after applying a sequence of manifests.
type applied struct {
	value *typed.TypedValue
	err   error
}

// merger applies sequences of manifests to the start object with
// server-side-apply semantics. It remembers the state after every prefix
// it computed, so that sequences sharing a prefix (as most do: they all
// start with the ungated manifest) share its merges, and a sequence seen
// before costs nothing.
//
// Each apply is the structured merge that server-side apply performs
// (typed.TypedValue.Merge, the first step of merge.Updater.Apply). The
// rest of Updater.Apply cannot change the object here: with force on,
// conflicts between managers are overridden instead of failing, and
// pruning only removes fields the applying manager set in an earlier
// apply, while every manifest is its own manager and applies once. What
// remains is managed-fields bookkeeping, which the stage removes from its
// output anyway, and which costs more than the rest of the stage (Updater
// reconciles every earlier manager's field set with the schema on every
// apply). TestMergeMatchesServerSideApply runs the full merge.Updater,
// one manager per manifest and force on, and expects the same objects.
type merger struct {
	start applied
	// prefixes maps a key of a manifest sequence (see sequenceKey) to the
	// state after applying it.
	prefixes map[string]*applied
	// applies counts the apply operations performed.
	applies int
}

func newMerger(crdType typed.ParseableType) (*merger, error) {
	start, err := crdType.FromUnstructured(startObject())
	if err != nil {
		return nil, fmt.Errorf("building the start object: %w", err)
	}
	return &merger{start: applied{value: start}, prefixes: map[string]*applied{}}, nil
}

// sequenceKey identifies the first n manifests of seq, by their index in
// the CRD's manifest list.
func sequenceKey(seq []int, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(seq[i]))
	}
	return b.String()
}

// merge applies the manifests seq (indices into ms) in order and returns
// the result. An error names the manifest that could not be applied.
func (m *merger) merge(ms []*partialManifest, seq []int) (*typed.TypedValue, error) {
	// Start from the longest prefix already computed.
	state, done := &m.start, 0
	for n := len(seq); n > 0; n-- {
		if s, ok := m.prefixes[sequenceKey(seq, n)]; ok {
			state, done = s, n
			break
		}
	}
	for ; done < len(seq); done++ {
		next := m.apply(state, ms[seq[done]])
		m.prefixes[sequenceKey(seq, done+1)] = next
		state = next
	}
	return state.value, state.err
}

func (m *merger) apply(state *applied, pm *partialManifest) *applied {
	if state.err != nil {
		return state
	}
	m.applies++
	value, err := state.value.Merge(pm.value)
	if err != nil {
		return &applied{err: diag.Errorf(pm.file, 0, "", "cannot apply: %v", err)}
	}
	return &applied{value: value}
}
