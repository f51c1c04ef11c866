package manifestmerge

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/gatedcrd/gatedcrd/internal/diag"
)

// droppedListKeys are the atomic lists whose silent replacement changes what
// the API server enforces: a CEL rule or a required field of a gate's file
// that a file merged later leaves out.
var droppedListKeys = map[string]bool{"x-kubernetes-validations": true, "required": true}

// droppedItem is one list element of a gated input that did not survive the
// merge.
type droppedItem struct {
	path []string
	key  string
	item any
}

// checkDropped warns when the merge of seq loses a CEL rule or a required
// field contributed by a gated (non-ungated) generated manifest: plain rules
// and required fields appear in every gate's file, so whenever two gates
// apply together, the file merged later replaces the earlier gate's list at
// that node with its own copy. The reference merges the same way; the
// warning makes the loss visible. Each loss is reported once per CRD.
func (cm *crdMerge) checkDropped(seq []int, merged map[string]any) {
	haves := map[int][][]any{}
	for pos, idx := range seq {
		pm := cm.all[idx]
		if idx >= len(cm.inputs.generated) || len(pm.gates) == 0 {
			continue
		}
		for _, d := range cm.places.lost(pm.listSites(&cm.places), merged, haves) {
			key := pm.path + "\x00" + strings.Join(d.path, ".") + "\x00" + d.key + "\x00" + encode(d.item)
			if cm.warned[key] {
				continue
			}
			cm.warned[key] = true
			by := cm.replacedBy(seq[pos+1:], d)
			cm.rep.add(diag.Warningf(pm.file, 0, strings.Join(slices.Concat(d.path, []string{d.key}), "."),
				"%s %s is lost whenever %s is merged after this file: that file sets its own %s list at this node, and atomic lists are replaced, not combined; "+
					"carry the rule in both gates' files (e.g. a requiredFeatureGate combination) or keep plain rules on another node",
				describe(d), encode(d.item), by, d.key))
		}
	}
}

func describe(d droppedItem) string {
	if d.key == "required" {
		return "required field"
	}
	return "CEL rule"
}

// replacedBy names the last manifest of later that sets the list at d's
// place: the one whose copy won.
func (cm *crdMerge) replacedBy(later []int, d droppedItem) string {
	name := "a later file"
	for _, idx := range later {
		if v := lookup(cm.all[idx].unstructured(), d.path); v != nil {
			if m, ok := v.(map[string]any); ok && m[d.key] != nil {
				name = cm.all[idx].name + ".yaml"
			}
		}
	}
	return name
}

func nameOf(v any) string {
	m, _ := v.(map[string]any)
	s, _ := m["name"].(string)
	return s
}

// containsItem says whether list holds an element with item's JSON
// encoding.
func containsItem(list []any, item any) bool {
	for _, h := range list {
		same, known := sameJSON(h, item)
		if !known {
			same = encode(h) == encode(item)
		}
		if same {
			return true
		}
	}
	return false
}

// lookup follows path (as built by collectDropped) in obj.
func lookup(obj any, path []string) any {
	cur := obj
	for _, p := range path {
		if i := strings.IndexByte(p, '['); i >= 0 && strings.HasSuffix(p, "]") {
			m, _ := cur.(map[string]any)
			list, _ := m[p[:i]].([]any)
			cur = nil
			for _, e := range list {
				if nameOf(e) == p[i+1:len(p)-1] {
					cur = e
				}
			}
			continue
		}
		m, _ := cur.(map[string]any)
		cur = m[p]
	}
	return cur
}

func encode(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(data)
}
