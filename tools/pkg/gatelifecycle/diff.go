package gatelifecycle

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/gatedcrd/gatedcrd/tools/pkg/markerdefs"
)

// diffSchema appends to out what the gated schema s adds to the ungated
// schema u at one node. path is the JSON path shown to readers,
// serverPath the suffix of the API server's field path that Locate reads.
// A property missing from u is reported once, not its subtree.
func diffSchema(u, s map[string]any, path, serverPath string, out *[]found) {
	uProps, _ := u["properties"].(map[string]any)
	sProps, _ := s["properties"].(map[string]any)
	for _, name := range slices.Sorted(maps.Keys(sProps)) {
		sub, _ := sProps[name].(map[string]any)
		p, sp := path+"."+name, serverPath+".properties["+name+"]"
		uSub, ok := uProps[name].(map[string]any)
		if !ok {
			detail := "added"
			if t, _ := sub["type"].(string); t != "" {
				detail = "added (" + t + ")"
			}
			*out = append(*out, found{path: p, serverPath: sp, what: Field, detail: detail, marker: markerdefs.EnableFeatureGateName})
			continue
		}
		diffSchema(uSub, sub, p, sp, out)
	}
	for _, child := range []struct{ key, path, server string }{
		{"items", "[*]", ".items"},
		{"additionalProperties", "{*}", ".additionalProperties"},
	} {
		uc, ok1 := u[child.key].(map[string]any)
		sc, ok2 := s[child.key].(map[string]any)
		if ok1 && ok2 {
			diffSchema(uc, sc, path+child.path, serverPath+child.server, out)
		}
	}
	shown := path
	if shown == "" {
		shown = "."
	}
	if d := enumDetail(u["enum"], s["enum"]); d != "" {
		*out = append(*out, found{path: shown, serverPath: serverPath, what: Enum, detail: d, marker: markerdefs.GateAwareEnumName})
	}
	for _, rule := range newRules(u, s) {
		*out = append(*out, found{path: shown, serverPath: serverPath, what: Rule, detail: "`" + rule + "`",
			marker: markerdefs.GateAwareXValidationNm, rule: rule})
	}
	if sMax, ok := s["maxItems"]; ok && !reflect.DeepEqual(sMax, u["maxItems"]) {
		d := fmt.Sprintf("maxItems %v", sMax)
		if uMax, ok := u["maxItems"]; ok {
			d = fmt.Sprintf("maxItems %v → %v", uMax, sMax)
		}
		*out = append(*out, found{path: shown, serverPath: serverPath, what: MaxItems, detail: d, marker: markerdefs.GateAwareMaxItemsName})
	}
}

// enumDetail describes how the gated enum s differs from the ungated u:
// values added and, since an enum is an atomic list the gate's file
// replaces, values dropped. No enum in s changes nothing.
func enumDetail(u, s any) string {
	sl, _ := s.([]any)
	if sl == nil {
		return ""
	}
	ul, _ := u.([]any)
	if ul == nil {
		return "restricted to " + quoteAll(sl)
	}
	added, dropped := minus(sl, ul), minus(ul, sl)
	var parts []string
	if len(added) > 0 {
		parts = append(parts, "adds "+quoteAll(added))
	}
	if len(dropped) > 0 {
		parts = append(parts, "drops "+quoteAll(dropped))
	}
	return strings.Join(parts, "; ")
}

// newRules returns the rule texts of s's x-kubernetes-validations that u
// does not have.
func newRules(u, s map[string]any) []string {
	have := map[string]bool{}
	for _, r := range rules(u) {
		have[r] = true
	}
	var out []string
	for _, r := range rules(s) {
		if !have[r] {
			out = append(out, r)
		}
	}
	return out
}

func rules(schema map[string]any) []string {
	list, _ := schema["x-kubernetes-validations"].([]any)
	var out []string
	for _, v := range list {
		if m, ok := v.(map[string]any); ok {
			if r, ok := m["rule"].(string); ok {
				out = append(out, r)
			}
		}
	}
	return out
}

// minus returns the values of a that b lacks, in a's order.
func minus(a, b []any) []any {
	var out []any
	for _, v := range a {
		found := false
		for _, w := range b {
			if reflect.DeepEqual(v, w) {
				found = true
				break
			}
		}
		if !found {
			out = append(out, v)
		}
	}
	return out
}

func quoteAll(values []any) string {
	parts := make([]string, len(values))
	for i, v := range values {
		parts[i] = fmt.Sprintf("`%v`", v)
	}
	return strings.Join(parts, ", ")
}
