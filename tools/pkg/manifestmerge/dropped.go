package manifestmerge

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/gatedcrd/gatedcrd/tools/pkg/diag"
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

// listSite is one list of droppedListKeys in a manifest: where it is and
// what it holds. A manifest's sites are found once (sitesOf) and looked up
// in every merge that applies the manifest, instead of walking the whole
// manifest again for each.
type listSite struct {
	// path is the site as messages name it: keys, and "versions[<name>]"
	// for a version; steps is the same path for reach.
	path  []string
	steps []pathStep
	key   string
	items []any
}

// pathStep is one step of a listSite's path: the value at key, or, when
// version is set, every entry of the list at key with that name.
type pathStep struct {
	key, version string
}

// checkDropped warns when the merge of seq loses a CEL rule or a required
// field contributed by a gated (non-ungated) generated manifest: plain rules
// and required fields appear in every gate's file, so whenever two gates
// apply together, the file merged later replaces the earlier gate's list at
// that node with its own copy. The reference merges the same way; the
// warning makes the loss visible. Each loss is reported once per CRD.
func (cm *crdMerge) checkDropped(seq []int, merged map[string]any) {
	for pos, idx := range seq {
		pm := cm.all[idx]
		if idx >= len(cm.inputs.generated) || len(pm.gates) == 0 {
			continue
		}
		for _, d := range droppedAt(pm.listSites(), merged) {
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

// listSites returns the manifest's list sites, found on first use. A CRD's
// manifests are only used by the goroutine merging that CRD.
func (pm *partialManifest) listSites() []listSite {
	if pm.sites == nil {
		pm.sites = []listSite{}
		collectSites(pm.unstructured(), nil, nil, &pm.sites)
	}
	return pm.sites
}

// collectSites finds the list sites of src. Maps are walked key by key;
// spec.versions entries by name (an entry without one is skipped, as no
// merged entry can match it).
func collectSites(src any, path []string, steps []pathStep, out *[]listSite) {
	sm, ok := src.(map[string]any)
	if !ok {
		return
	}
	for k, v := range sm {
		if droppedListKeys[k] {
			if list, ok := v.([]any); ok {
				*out = append(*out, listSite{path: slices.Clone(path), steps: slices.Clone(steps), key: k, items: list})
				continue
			}
		}
		switch sv := v.(type) {
		case map[string]any:
			collectSites(sv, append(path, k), append(steps, pathStep{key: k}), out)
		case []any:
			if k != "versions" {
				continue
			}
			for _, e := range sv {
				if name := nameOf(e); name != "" {
					collectSites(e, append(path, k+"["+name+"]"), append(steps, pathStep{key: k, version: name}), out)
				}
			}
		}
	}
}

// droppedAt returns the items of the sites that merged does not hold at
// their place. A missing map on the way loses every item below it; a
// version merged does not have is not looked at.
func droppedAt(sites []listSite, merged map[string]any) []droppedItem {
	var out []droppedItem
	for _, site := range sites {
		reach(merged, site.steps, func(node any) {
			m, _ := node.(map[string]any)
			have, _ := m[site.key].([]any)
			for _, item := range site.items {
				if !containsItem(have, item) {
					out = append(out, droppedItem{path: site.path, key: site.key, item: item})
				}
			}
		})
	}
	return out
}

// reach calls fn with every node of obj that steps lead to.
func reach(obj any, steps []pathStep, fn func(node any)) {
	if len(steps) == 0 {
		fn(obj)
		return
	}
	m, _ := obj.(map[string]any)
	step := steps[0]
	if step.version == "" {
		reach(m[step.key], steps[1:], fn)
		return
	}
	entries, _ := m[step.key].([]any)
	for _, e := range entries {
		if nameOf(e) == step.version {
			reach(e, steps[1:], fn)
		}
	}
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

// sameJSON compares a and b as their JSON encodings would compare, without
// encoding them, for the values the lists hold (strings, booleans, and maps
// and lists of them). known is false when it cannot tell that way: numbers,
// strings that are not valid UTF-8 (which encoding alters), nil containers
// and mixed types; the caller compares the encodings then.
func sameJSON(a, b any) (same, known bool) {
	switch x := a.(type) {
	case string:
		y, ok := b.(string)
		if !ok || !utf8.ValidString(x) || !utf8.ValidString(y) {
			return false, false
		}
		return x == y, true
	case bool:
		y, ok := b.(bool)
		return ok && x == y, ok
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || x == nil || y == nil {
			return false, false
		}
		return sameMaps(x, y)
	case []any:
		y, ok := b.([]any)
		if !ok || x == nil || y == nil {
			return false, false
		}
		return sameLists(x, y)
	}
	return false, false
}

func sameMaps(x, y map[string]any) (same, known bool) {
	for k := range x {
		if !utf8.ValidString(k) {
			return false, false
		}
	}
	for k := range y {
		if !utf8.ValidString(k) {
			return false, false
		}
	}
	if len(x) != len(y) {
		return false, true
	}
	same = true
	for k, xv := range x {
		yv, ok := y[k]
		if !ok {
			return false, true
		}
		s, known := sameJSON(xv, yv)
		if !known {
			return false, false
		}
		same = same && s
	}
	return same, true
}

func sameLists(x, y []any) (same, known bool) {
	if len(x) != len(y) {
		return false, true
	}
	same = true
	for i := range x {
		s, known := sameJSON(x[i], y[i])
		if !known {
			return false, false
		}
		same = same && s
	}
	return same, true
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
