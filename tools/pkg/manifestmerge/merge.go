package manifestmerge

import (
	"fmt"
	"strconv"
	"strings"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/merge"
	"sigs.k8s.io/structured-merge-diff/v6/typed"

	"github.com/gatedcrd/gatedcrd/tools/pkg/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
)

// startObject is the object every merge starts from (SPEC §5.4).
func startObject() map[string]any {
	return map[string]any{
		"apiVersion": crdAPIVersion,
		"kind":       crdKind,
		"metadata": map[string]any{
			"annotations": map[string]any{manifest.MergedAnnotation: "true"},
		},
	}
}

// applied is the state after applying a sequence of manifests: the object
// and who manages which of its fields.
type applied struct {
	value    *typed.TypedValue
	managers fieldpath.ManagedFields
	err      error
}

// merger applies sequences of manifests to the start object with
// server-side-apply semantics. It remembers the state after every prefix
// it computed, so that sequences sharing a prefix (as most do: they all
// start with the ungated manifest) share its merges, and a sequence seen
// before costs nothing.
type merger struct {
	updater *merge.Updater
	start   applied
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
	return &merger{
		updater:  (&merge.UpdaterBuilder{Converter: sameVersion{}, ReturnInputOnNoop: true}).BuildUpdater(),
		start:    applied{value: start, managers: fieldpath.ManagedFields{}},
		prefixes: map[string]*applied{},
	}, nil
}

// sameVersion is the merge.Converter of a merge where every manager uses
// the same API version, so no conversion is ever needed.
type sameVersion struct{}

func (sameVersion) Convert(v *typed.TypedValue, version fieldpath.APIVersion) (*typed.TypedValue, error) {
	if version != crdAPIVersion {
		return nil, fmt.Errorf("no conversion to %s", version)
	}
	return v, nil
}

func (sameVersion) IsMissingVersionError(error) bool { return false }

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

// merge applies the manifests seq (indices into ms) in order, each with
// force as its own field manager, and returns the result. An error names
// the manifest that could not be applied.
func (m *merger) merge(ms []*partialManifest, seq []int) (*typed.TypedValue, error) {
	// Find the longest prefix already computed.
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
	value, managers, err := m.updater.Apply(state.value, pm.value, crdAPIVersion, state.managers.Copy(), pm.file, true)
	if err != nil {
		return &applied{err: diag.Errorf(pm.file, 0, "", "cannot apply: %v", err)}
	}
	return &applied{value: value, managers: managers}
}
