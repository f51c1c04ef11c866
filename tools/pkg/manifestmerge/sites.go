package manifestmerge

import (
	"slices"
	"strconv"
	"strings"
)

// listPlace is a place of a list of droppedListKeys in a CRD's manifests.
type listPlace struct {
	// path is the place as messages name it: keys, and "versions[<name>]"
	// for a version; steps is the same path for reach.
	path  []string
	steps []pathStep
	key   string
}

// pathStep is one step of a listPlace's path: the value at key, or, when
// version is set, every entry of the list at key with that name.
type pathStep struct {
	key, version string
}

// listPlaces numbers the places of the lists of a CRD's manifests. Most
// lists are at the same places in every manifest (the plain rules and
// required fields): a merge looks each place up once, however many of its
// manifests have a list there.
type listPlaces struct {
	ids    map[string]int
	places []listPlace
}

// listSite is one list of a manifest: its place in listPlaces and its
// items.
type listSite struct {
	place int
	items []any
}

// id numbers the place of the list key at path.
func (lp *listPlaces) id(path []string, steps []pathStep, key string) int {
	// Length-prefixed, so that no two paths share a key.
	var b strings.Builder
	for _, p := range path {
		b.WriteString(strconv.Itoa(len(p)))
		b.WriteByte(':')
		b.WriteString(p)
	}
	b.WriteString(key)
	k := b.String()
	if id, ok := lp.ids[k]; ok {
		return id
	}
	if lp.ids == nil {
		lp.ids = map[string]int{}
	}
	id := len(lp.places)
	lp.ids[k] = id
	lp.places = append(lp.places, listPlace{path: slices.Clone(path), steps: slices.Clone(steps), key: key})
	return id
}

// listSites returns the manifest's lists, found on first use, their places
// numbered in lp. A CRD's manifests are only used by the goroutine merging
// that CRD, always with the same listPlaces.
func (pm *partialManifest) listSites(lp *listPlaces) []listSite {
	if pm.sites == nil {
		pm.sites = []listSite{}
		lp.collect(pm.unstructured(), nil, nil, &pm.sites)
	}
	return pm.sites
}

// collect finds the lists of src. Maps are walked key by key;
// spec.versions entries by name (an entry without one is skipped, as no
// merged entry can match it).
func (lp *listPlaces) collect(src any, path []string, steps []pathStep, out *[]listSite) {
	sm, ok := src.(map[string]any)
	if !ok {
		return
	}
	for k, v := range sm {
		if droppedListKeys[k] {
			if list, ok := v.([]any); ok {
				*out = append(*out, listSite{place: lp.id(path, steps, k), items: list})
				continue
			}
		}
		switch sv := v.(type) {
		case map[string]any:
			lp.collect(sv, append(path, k), append(steps, pathStep{key: k}), out)
		case []any:
			if k != "versions" {
				continue
			}
			for _, e := range sv {
				if name := nameOf(e); name != "" {
					lp.collect(e, append(path, k+"["+name+"]"), append(steps, pathStep{key: k, version: name}), out)
				}
			}
		}
	}
}

// lost returns the items of sites that merged does not hold at their
// place. A missing map on the way loses every item below it; a version
// merged does not have is not looked at. haves keeps the lists of merged
// looked up, by place, for the next call on the same merged object.
func (lp *listPlaces) lost(sites []listSite, merged map[string]any, haves map[int][][]any) []droppedItem {
	var out []droppedItem
	for _, site := range sites {
		place := &lp.places[site.place]
		hs, ok := haves[site.place]
		if !ok {
			hs = place.lists(merged)
			haves[site.place] = hs
		}
		for _, have := range hs {
			if sameList(site.items, have) {
				continue
			}
			for _, item := range site.items {
				if !containsItem(have, item) {
					out = append(out, droppedItem{path: place.path, key: place.key, item: item})
				}
			}
		}
	}
	return out
}

// lists returns the list at the place in every node of obj its steps lead
// to (nil for a node without one).
func (p *listPlace) lists(obj map[string]any) [][]any {
	var out [][]any
	reach(obj, p.steps, func(node any) {
		m, _ := node.(map[string]any)
		list, _ := m[p.key].([]any)
		out = append(out, list)
	})
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
