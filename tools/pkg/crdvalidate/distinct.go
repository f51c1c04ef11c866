package crdvalidate

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
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
// and so are their previous versions. A file that reuses another's verdict
// gets the server's annotation validation for its own annotations
// (apimachinery's ValidateAnnotations, which is what the server runs on
// them), so the verdict stays exactly the server's.
// It returns the results and the number of distinct CRDs.
func (in Input) checkDistinct(files []toCheck) ([]checked, int) {
	results := make([]checked, len(files))
	previous := make([][]byte, len(files))
	first := make([]int, len(files)) // the file whose verdict it shares; -1 when unreadable
	byKey := map[string]int{}
	var distinct []int
	for i, f := range files {
		results[i] = checked{path: f.path, obj: f.obj}
		first[i] = -1
		if f.err != nil {
			results[i].err = f.err
			continue
		}
		if in.Previous != nil {
			previous[i] = in.Previous(f.path)
		}
		k := identityKey(results[i].obj) + "\x00" + previousKey(previous[i])
		j, seen := byKey[k]
		if !seen {
			j = i
			byKey[k] = i
			distinct = append(distinct, i)
		}
		first[i] = j
	}
	workers.Each(len(distinct), func(n int) {
		i := distinct[n]
		data, err := files[i].content()
		if err != nil {
			results[i].err = err
			return
		}
		in.check(&results[i], data, previous[i])
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

// identityKey identifies what of a parsed manifest the server's CRD
// validation depends on beyond the syntax of its annotations: everything
// but the values of annotations other than api-approved.kubernetes.io.
func identityKey(obj map[string]any) string {
	stripped := map[string]any{}
	for k, v := range obj {
		stripped[k] = v
	}
	if meta, ok := obj["metadata"].(map[string]any); ok {
		m := map[string]any{}
		for k, v := range meta {
			m[k] = v
		}
		if ann, ok := meta["annotations"].(map[string]any); ok {
			keys := map[string]any{}
			for k, v := range ann {
				keys[k] = nil
				if k == apiextensionsv1.KubeAPIApprovedAnnotation {
					keys[k] = v
				}
			}
			m["annotations"] = keys
		}
		stripped["metadata"] = m
	}
	data, err := json.Marshal(stripped) // sorted keys: canonical
	if err != nil {
		return fmt.Sprintf("unkeyed %p", obj) // never shared
	}
	sum := sha256.Sum256(data)
	return string(sum[:])
}

// previousKey identifies the previous content of a file (nil: none).
func previousKey(previous []byte) string {
	if previous == nil {
		return "none"
	}
	obj, err := manifest.Parse(previous)
	if err != nil {
		sum := sha256.Sum256(previous)
		return "raw " + string(sum[:])
	}
	return identityKey(obj)
}
