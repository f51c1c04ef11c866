package crdvalidate

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// A fingerprint identifies what of a parsed CRD manifest the server's
// verdict can depend on, blind to the text of schema descriptions.
//
// The server's CRD validation (1.30 to 1.37) looks at a schema's
// description in two places only, and only at whether it is empty: inside
// allOf, anyOf, oneOf and not it must be ("must be empty to be
// structural"), and so must the root's metadata schema (which may only
// list name and generateName); no finding quotes it. It also
// compares whole schemas: versions with equal schemas are hoisted into
// spec.validation when decoded, and a version whose schema equals the
// previous manifest's is exempt from the per-expression cost limit. So
// what matters of descriptions is which are empty and which are equal to
// which, within a manifest and across it and its previous version. A
// fingerprint keeps everything else exactly and the non-empty description
// texts aside, in order (descriptions); a key made of two fingerprints
// numbers those texts by first appearance over both (see
// requestKeys), so a doc-comment edit keeps the key, while a description
// becoming empty or non-empty, or equal to another, changes it.
// Descriptions of printer columns and externalDocs are kept as they are,
// and so is any non-string or invalid UTF-8 description (which the server
// may reject or see changed by JSON encoding).
type fingerprint struct {
	// body covers everything but metadata.
	body [32]byte
	// meta covers metadata; stripped leaves out the values of annotations
	// other than api-approved.kubernetes.io (see checkDistinct).
	meta, stripped [32]byte
	descriptions   []string
	// raw is set for a manifest that does not parse: body is the SHA-256
	// of its bytes.
	raw bool
}

// fingerprintOf returns the fingerprint of a parsed manifest.
func fingerprintOf(obj map[string]any) fingerprint {
	return (*bodies)(nil).fingerprintOf(obj)
}

// bodies shares the part of fingerprints that covers everything but
// metadata among manifests whose top-level values but metadata are the
// same maps and strings: the files of one merged CRD's variants
// (manifestmerge.Output) share them and differ in their metadata. A nil
// bodies shares nothing. The maps must not change while it is in use.
type bodies struct {
	mu sync.Mutex
	of map[string]*sharedBody
}

type sharedBody struct {
	once         sync.Once
	body         [32]byte
	descriptions []string
}

// fingerprintOf returns the fingerprint of obj, its body computed once
// for all the manifests sharing it. Safe for concurrent use.
func (b *bodies) fingerprintOf(obj map[string]any) fingerprint {
	var f fingerprint
	sb := b.body(obj)
	sb.once.Do(func() { sb.body, sb.descriptions = bodyOf(obj) })
	f.body, f.descriptions = sb.body, sb.descriptions
	meta := obj["metadata"]
	f.meta = plainDigest(meta)
	f.stripped = plainDigest(strippedMetadata(meta))
	return f
}

// body returns the entry of obj's body: a new one unless a manifest
// with the same top-level values but metadata has one.
func (b *bodies) body(obj map[string]any) *sharedBody {
	if b == nil {
		return &sharedBody{}
	}
	key, ok := sharingKey(obj)
	if !ok {
		return &sharedBody{}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.of == nil {
		b.of = map[string]*sharedBody{}
	}
	sb := b.of[key]
	if sb == nil {
		sb = &sharedBody{}
		b.of[key] = sb
	}
	return sb
}

// sharingKey names the top-level values of obj but metadata: maps by
// identity, strings by value. ok is false for other values.
func sharingKey(obj map[string]any) (key string, ok bool) {
	keys := make([]string, 0, len(obj))
	for k := range obj {
		if k != "metadata" {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var b strings.Builder
	for _, k := range keys {
		switch v := obj[k].(type) {
		case map[string]any:
			fmt.Fprintf(&b, "%q:%p;", k, v)
		case string:
			fmt.Fprintf(&b, "%q=%q;", k, v)
		default:
			return "", false
		}
	}
	return b.String(), true
}

// bodyOf digests everything of obj but metadata, descriptions aside.
func bodyOf(obj map[string]any) ([32]byte, []string) {
	d := newDigester()
	rest := make(map[string]any, len(obj))
	for k, v := range obj {
		if k != "metadata" {
			rest[k] = v
		}
	}
	d.walk(rest, crdRoot)
	return d.sum(), d.descriptions
}

// plainDigest digests a value as it is.
func plainDigest(v any) [32]byte {
	d := newDigester()
	d.walk(v, plain)
	return d.sum()
}

// strippedMetadata is meta without the values of annotations other than
// api-approved.kubernetes.io, which the server reads: files of a CRD's
// variants differ in the others.
func strippedMetadata(meta any) any {
	m, ok := meta.(map[string]any)
	if !ok {
		return meta
	}
	ann, ok := m["annotations"].(map[string]any)
	if !ok {
		return meta
	}
	keys := make(map[string]any, len(ann))
	for k, v := range ann {
		keys[k] = nil
		if k == apiextensionsv1.KubeAPIApprovedAnnotation {
			keys[k] = v
		}
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	out["annotations"] = keys
	return out
}

// role says what a value of a CRD manifest is, so that the digester knows
// which maps are schemas (whose "description" is the keyword) and which
// hold arbitrary data (default, example, enum, a property named
// description).
type role int

const (
	plain        role = iota // any value, digested as it is
	crdRoot                  // the manifest without metadata
	crdSpec                  // spec
	crdVersions              // spec.versions
	crdVersion               // spec.versions[i]
	schemaHolder             // spec.validation, spec.versions[i].schema
	schema                   // a JSON schema
	schemaByName             // properties, patternProperties, definitions, dependencies
	schemaList               // allOf, anyOf, oneOf, items as a list
)

// child is the role of the value at key of a map of role r.
func (r role) child(key string) role {
	switch r {
	case crdRoot:
		if key == "spec" {
			return crdSpec
		}
	case crdSpec:
		switch key {
		case "versions":
			return crdVersions
		case "validation":
			return schemaHolder
		}
	case crdVersion:
		if key == "schema" {
			return schemaHolder
		}
	case schemaHolder:
		if key == "openAPIV3Schema" {
			return schema
		}
	case schema:
		switch key {
		case "properties", "patternProperties", "definitions", "dependencies":
			return schemaByName
		case "allOf", "anyOf", "oneOf":
			return schemaList
		case "items", "not", "additionalProperties", "additionalItems":
			// A schema, or a list of them (items) or a boolean.
			return schema
		}
	case schemaByName:
		// A schema, or a list of property names (dependencies).
		return schema
	}
	return plain
}

// element is the role of the elements of a list of role r.
func (r role) element() role {
	switch r {
	case crdVersions:
		return crdVersion
	case schemaList, schema:
		return schema
	}
	return plain
}

// digester writes a canonical encoding of a value into h: tagged and
// length-prefixed, map keys sorted, numbers as their shortest decimal
// form, and the non-empty descriptions of schemas as a mark, their texts
// appended to descriptions. It buffers what it writes: a manifest is
// thousands of small pieces.
type digester struct {
	h            hash.Hash
	buf          []byte
	keys         [][]string // the sorted keys of the maps being walked, by depth
	depth        int
	descriptions []string
}

// flushAt is the size of the buffer written to the hash at once.
const flushAt = 32 << 10

// buffers are digesters' buffers, kept between digests.
var buffers = sync.Pool{New: func() any { b := make([]byte, 0, flushAt); return &b }}

func newDigester() *digester {
	return &digester{h: sha256.New(), buf: *buffers.Get().(*[]byte)}
}

// sum ends the digest.
func (d *digester) sum() (sum [32]byte) {
	d.flush()
	d.h.Sum(sum[:0])
	buf := d.buf[:0]
	buffers.Put(&buf)
	d.buf = nil
	return sum
}

func (d *digester) flush() {
	d.h.Write(d.buf)
	d.buf = d.buf[:0]
}

func (d *digester) walk(v any, r role) {
	switch x := v.(type) {
	case map[string]any:
		d.tag('m', len(x))
		keys := d.sortedKeys(x)
		d.depth++
		for _, k := range keys {
			d.text('k', k)
			if s, ok := x[k].(string); ok && r == schema && k == "description" && s != "" && utf8.ValidString(s) {
				d.tag('d', 0)
				d.descriptions = append(d.descriptions, s)
				continue
			}
			d.walk(x[k], r.child(k))
		}
		d.depth--
	case []any:
		d.tag('l', len(x))
		for _, e := range x {
			d.walk(e, r.element())
		}
	case string:
		d.text('s', x)
	case bool:
		d.tag('b', boolInt(x))
	case nil:
		d.tag('z', 0)
	case int64:
		d.number(strconv.AppendInt(append(d.buf, 'i'), x, 10))
	case int:
		d.number(strconv.AppendInt(append(d.buf, 'i'), int64(x), 10))
	case float64:
		d.number(strconv.AppendFloat(append(d.buf, 'f'), x, 'g', -1, 64))
	default:
		data, err := json.Marshal(x)
		if err != nil {
			// Never sent either (toCheck.content fails the same way).
			data = fmt.Appendf(nil, "%T %v", x, err)
		}
		d.text('j', string(data))
	}
}

// sortedKeys returns m's keys sorted, in a slice reused for the maps of
// the same depth.
func (d *digester) sortedKeys(m map[string]any) []string {
	if len(d.keys) <= d.depth {
		d.keys = append(d.keys, nil)
	}
	keys := d.keys[d.depth][:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	d.keys[d.depth] = keys
	return keys
}

// number ends a number appended to the buffer.
func (d *digester) number(buf []byte) {
	d.buf = append(buf, ';')
	d.maybeFlush()
}

func (d *digester) tag(t byte, n int) {
	d.buf = binary.AppendUvarint(append(d.buf, t), uint64(n))
	d.maybeFlush()
}

func (d *digester) text(t byte, s string) {
	d.tag(t, len(s))
	if len(d.buf)+len(s) > cap(d.buf) {
		d.flush()
	}
	if len(s) > cap(d.buf) {
		io.WriteString(d.h, s)
		return
	}
	d.buf = append(d.buf, s...)
}

// maybeFlush keeps room for a tag or number in the buffer.
func (d *digester) maybeFlush() {
	if len(d.buf) > cap(d.buf)-32 {
		d.flush()
	}
}

// requestKeys returns the keys of a request: checkDistinct's (group),
// blind to annotation values other than api-approved.kubernetes.io, and
// the verdict cache's, which keeps them and adds whether the manifest is
// sent as JSON (an object handed over by the merge) or as its bytes, and
// whether costs are asked for. Both cover the manifest's fingerprint, its
// previous version's (nil: none) and the numbering of their descriptions
// by first appearance over both (which keeps which are equal to which,
// and not their text).
func requestKeys(data, previous *fingerprint, asJSON, costs bool) (group [32]byte, verdict string) {
	all := []*fingerprint{data}
	if previous != nil {
		all = append(all, previous)
	}
	numbers := numbering(all)
	digest := func(annotationValues bool) [32]byte {
		d := newDigester()
		d.tag('n', len(all))
		for _, f := range all {
			meta := f.stripped
			if annotationValues {
				meta = f.meta
			}
			d.buf = append(append(append(d.buf, f.body[:]...), meta[:]...), byte(boolInt(f.raw)))
		}
		d.buf = append(d.buf, numbers[:]...)
		return d.sum()
	}
	whole := digest(true)
	h := sha256.New()
	fmt.Fprintf(h, "verdict 2 json %t costs %t\n", asJSON, costs)
	h.Write(whole[:])
	return digest(false), hex.EncodeToString(h.Sum(nil))
}

// numbering digests the descriptions of fingerprints as numbers, by
// first appearance over all of them.
func numbering(all []*fingerprint) [32]byte {
	d := newDigester()
	numbers := map[string]int{}
	for _, f := range all {
		d.tag('D', len(f.descriptions))
		for _, s := range f.descriptions {
			n, seen := numbers[s]
			if !seen {
				n = len(numbers)
				numbers[s] = n
			}
			d.tag('#', n)
		}
	}
	return d.sum()
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// rawFingerprint is the fingerprint of a manifest that does not parse:
// its bytes, exactly.
func rawFingerprint(data []byte) *fingerprint {
	return &fingerprint{raw: true, body: sha256.Sum256(data)}
}
