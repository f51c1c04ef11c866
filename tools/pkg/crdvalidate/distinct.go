package crdvalidate

import (
	"bytes"
	"fmt"
	"hash/maphash"
	"strings"
	"sync"

	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/gatedcrd/gatedcrd/internal/workers"
	"github.com/gatedcrd/gatedcrd/tools/pkg/crdvalidate/admission"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
)

// checkDistinct validates every file, but each distinct CRD only once.
// The files of a CRD's variants differ in their annotations (the
// ClusterProfiles and FeatureSets they stand for) and often in nothing
// else, and validation, mostly CEL compilation, is the stage's whole
// cost. Two files are the same CRD when they are equal but for annotation
// values other than api-approved.kubernetes.io (which the server reads),
// and so are their previous versions (and the texts of their schema
// descriptions may differ too, see fingerprint). A file that reuses another's verdict
// gets the server's annotation validation for its own annotations
// (apimachinery's ValidateAnnotations, which is what the server runs on
// them), so the verdict stays exactly the server's.
// It returns the results and the number of distinct CRDs.
func (in Input) checkDistinct(files []toCheck) ([]checked, int) {
	results := make([]checked, len(files))
	previous := make([][]byte, len(files))
	groups := make([][32]byte, len(files))
	keys := make([]string, len(files)) // the verdict cache's
	var sameBodies bodies
	workers.Each(len(files), func(i int) {
		f := files[i]
		if f.err != nil {
			return
		}
		// First, while git (Committed) may still be starting.
		fp := sameBodies.fingerprintOf(f.obj)
		var prev *fingerprint
		if in.Previous != nil {
			if previous[i] = in.Previous(f.path); previous[i] != nil {
				prev = previousFingerprint(previous[i])
			}
		}
		groups[i], keys[i] = requestKeys(&fp, prev, f.asJSON, in.CostTop > 0)
	})
	first := make([]int, len(files)) // the file whose verdict it shares; -1 when unreadable
	byKey := map[[32]byte]int{}
	var distinct []int
	for i, f := range files {
		results[i] = checked{path: f.path, obj: f.obj}
		first[i] = -1
		if f.err != nil {
			results[i].err = f.err
			continue
		}
		j, seen := byKey[groups[i]]
		if !seen {
			j = i
			byKey[groups[i]] = i
			distinct = append(distinct, i)
		}
		first[i] = j
	}
	workers.Each(len(distinct), func(n int) {
		i := distinct[n]
		in.check(&results[i], files[i], previous[i], keys[i])
	})
	for i := range files {
		if j := first[i]; j >= 0 && j != i {
			results[i] = shared(results[j], results[i].path, results[i].obj)
		}
	}
	return results, len(distinct)
}

// shared is the verdict of rep for a file (path, obj) that differs from it
// in annotation values only.
func shared(rep checked, path string, obj map[string]any) checked {
	c := rep
	c.path, c.obj = path, obj
	if rep.verdict == nil {
		return c
	}
	annPath := field.NewPath("metadata", "annotations")
	v := &Verdict{Upgrade: rep.verdict.Upgrade}
	for _, f := range rep.verdict.Findings {
		if f.Path != annPath.String() && !strings.HasPrefix(f.Path, annPath.String()+"[") {
			v.Findings = append(v.Findings, f)
		}
	}
	ann := map[string]string{}
	for k, val := range annotations(obj) {
		ann[k] = fmt.Sprint(val)
	}
	for _, e := range apivalidation.ValidateAnnotations(ann, annPath) {
		v.Findings = append(v.Findings, Finding{Path: e.Field, Message: admission.Message(e), OnCreate: true, OnUpdate: rep.verdict.Upgrade})
	}
	c.verdict = v.Sorted()
	return c
}

// previousFingerprint returns the fingerprint of a previous version:
// of its parsed object, or of its bytes when it does not parse. Previous
// versions are the committed manifests, the same in every cycle of codegen
// watch, so each is parsed once per process (while fewer than
// previousMemoSize are kept).
func previousFingerprint(data []byte) *fingerprint {
	sum := maphash.Bytes(previousMemo.seed, data)
	previousMemo.Lock()
	e, ok := previousMemo.of[sum]
	previousMemo.Unlock()
	if ok && bytes.Equal(e.data, data) {
		return e.f
	}
	e = previousEntry{data: data}
	if obj, err := manifest.Parse(data); err == nil {
		fp := fingerprintOf(obj)
		e.f = &fp
	} else {
		e.f = rawFingerprint(data)
	}
	previousMemo.Lock()
	defer previousMemo.Unlock()
	if len(previousMemo.of) >= previousMemoSize {
		clear(previousMemo.of)
	}
	previousMemo.of[sum] = e
	return e.f
}

// previousMemoSize bounds the previous versions kept with their
// fingerprints: those of a cycle's CRDs, with room to spare.
const previousMemoSize = 64

type previousEntry struct {
	data []byte
	f    *fingerprint
}

var previousMemo = struct {
	sync.Mutex
	seed maphash.Seed
	of   map[uint64]previousEntry
}{seed: maphash.MakeSeed(), of: map[uint64]previousEntry{}}
