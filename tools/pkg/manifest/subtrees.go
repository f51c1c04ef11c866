package manifest

import (
	"bytes"
	"crypto/rand"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
)

// Subtrees marshals manifests exactly as Marshal does, but keeps the text
// the emitter wrote for each large mapping, by its content and its column,
// and reuses it wherever the same mapping comes again at the same column:
// in another file of the same run (the partial manifests of one CRD share
// most of their schema) or in a later cycle of codegen watch (an edit to
// one field leaves every other field's schema as it was). Only the
// mappings on the way from the document's root to what changed are
// emitted again, and the emitter (go.yaml.in/yaml/v2, the one sigs.k8s.io/yaml
// uses) writes most of a large manifest's cost.
//
// Why the text can be reused: in block style the emitter writes the value
// of a key that is a non-empty mapping on the lines after "key:", each
// entry from the mapping's column, and nothing in those lines depends on
// what came before but that column (long plain scalars wrap at a fixed
// width, counted from the start of the line). So a mapping is rendered
// once at its column, inside dummy one-key mappings that put it there,
// and its large values are left to their own renderings: the emitter
// writes a placeholder scalar instead ("key: <placeholder>"), which is
// then replaced by ":" and the value's lines. Anything that does not go
// exactly so (a placeholder not found once, a header line not as
// expected) falls back to Marshal's own emission of the whole document.
//
// A Subtrees is safe for concurrent use. It holds at most subtreeBudget
// bytes of text and forgets everything when it would hold more; codegen
// watch also has it forget, once per cycle, what the last two cycles did
// not use (Advance). The nil *Subtrees marshals as Marshal does.
type Subtrees struct {
	nonce   string // starts every placeholder; random, so no content holds it
	minSize int    // minSubtree, smaller in tests
	budget  int    // subtreeBudget, smaller in tests

	mu    sync.Mutex
	texts map[subtreeKey]*rendered
	bytes int    // of the texts' own parts
	gen   uint64 // the generation (Advance)
}

// subtreeBudget bounds the text a Subtrees keeps. Renderings share their
// values' text, so little is kept: 3.4 MB for every CRD openshift/api
// generates, 1.4 MB while a watch regenerates Infrastructure's.
const subtreeBudget = 64 << 20

// minSubtree is the smallest mapping (in estimated bytes of text) that is
// rendered on its own: a smaller one costs more in the emitter's set-up and
// the dummy mappings around it than it saves.
const minSubtree = 1024

type subtreeKey struct {
	digest digest
	column int
}

// rendered is the text of a mapping at a column: its own lines with its
// large values' renderings in between.
type rendered struct {
	parts []renderedPart
	size  int // bytes of the whole text
	own   int // bytes of its own parts
	// used is the last generation a document used the rendering in,
	// through its own key or a rendering that holds it.
	used atomic.Uint64
}

// renderedPart is one piece of a rendering: text, or a value's rendering.
type renderedPart struct {
	text  []byte
	value *rendered
}

// NewSubtrees returns a Subtrees that holds nothing yet.
func NewSubtrees() *Subtrees {
	const letters = "abcdefghijklmnopqrstuvwxyz"
	nonce := make([]byte, 16)
	if _, err := rand.Read(nonce); err != nil {
		panic(err) // crypto/rand does not fail on supported systems
	}
	for i, b := range nonce {
		nonce[i] = letters[int(b)%len(letters)]
	}
	// Letters then digits: a plain YAML scalar that reads as a string.
	return &Subtrees{nonce: "gatedcrd" + string(nonce) + "x", minSize: minSubtree, budget: subtreeBudget, texts: map[subtreeKey]*rendered{}}
}

// Marshal returns Marshal(obj).
func (s *Subtrees) Marshal(obj any) ([]byte, error) {
	if s == nil {
		return Marshal(obj)
	}
	m, err := ToMap(obj)
	if err != nil {
		return nil, err
	}
	return marshalGeneric(m, s.emit)
}

// emit returns what emit(v) returns, v being a document as jsonLike
// returns it, from what s rendered before when v is a mapping.
func (s *Subtrees) emit(v any) ([]byte, error) {
	root, ok := v.(map[string]any)
	if !ok || len(root) == 0 {
		return emit(v)
	}
	r, ok := s.render(root, 0, digestsOf(root))
	if !ok {
		return emit(v)
	}
	return r.appendTo(make([]byte, 0, r.size)), nil
}

// appendTo appends the rendering's text to out.
func (r *rendered) appendTo(out []byte) []byte {
	for _, p := range r.parts {
		if p.value != nil {
			out = p.value.appendTo(out)
		} else {
			out = append(out, p.text...)
		}
	}
	return out
}

// render renders m's entries from column col, reusing what it rendered
// before; false when the emitter's text is not as expected.
func (s *Subtrees) render(m map[string]any, col int, digests map[mapID]nodeDigest) (*rendered, bool) {
	key := subtreeKey{digests[idOf(m)].digest, col}
	if col > 0 {
		if r := s.lookup(key); r != nil {
			return r, true
		}
	}
	var values []*rendered
	skeleton, ok := s.hollowMap(m, col, digests, &values)
	if !ok {
		return nil, false
	}
	text, ok := emitAt(skeleton, col)
	if !ok {
		return nil, false
	}
	r, ok := s.splice(text, values)
	if ok && col > 0 {
		s.store(key, r)
	}
	return r, ok
}

// hollowMap returns a copy of m, a mapping whose entries are written from
// column col, with each large mapping value replaced by a placeholder
// whose index in values is its rendering's, and the same done inside the
// mappings of its lists: values holds the renderings the copy's text
// needs.
func (s *Subtrees) hollowMap(m map[string]any, col int, digests map[mapID]nodeDigest, values *[]*rendered) (map[string]any, bool) {
	out := make(map[string]any, len(m))
	for k, e := range m {
		switch x := e.(type) {
		case map[string]any:
			if len(x) > 0 && simpleKey(k) && s.large(x, digests) {
				r, ok := s.render(x, col+2, digests)
				if !ok {
					return nil, false
				}
				out[k] = s.placeholder(len(*values))
				*values = append(*values, r)
				continue
			}
		case []any:
			if simpleKey(k) {
				l, ok := s.hollowList(x, col, digests, values)
				if !ok {
					return nil, false
				}
				out[k] = l
				continue
			}
		}
		out[k] = e
	}
	return out, true
}

// hollowList returns l, the list value of a key at column col, with its
// large mappings hollowed (hollowMap): the emitter writes such a list's
// items from the key's column ("- "), and their entries two columns
// further. Lists in lists are left as they are.
func (s *Subtrees) hollowList(l []any, col int, digests map[mapID]nodeDigest, values *[]*rendered) ([]any, bool) {
	var out []any // a copy, once an item changes
	for i, e := range l {
		item, ok := e.(map[string]any)
		if !ok || len(item) == 0 || !s.large(item, digests) {
			continue
		}
		h, ok := s.hollowMap(item, col+2, digests, values)
		if !ok {
			return nil, false
		}
		if out == nil {
			out = slices.Clone(l)
		}
		out[i] = h
	}
	if out == nil {
		return l, true
	}
	return out, true
}

// large reports whether m is rendered on its own: it has a digest, and
// is large enough to be worth it.
func (s *Subtrees) large(m map[string]any, digests map[mapID]nodeDigest) bool {
	nd, ok := digests[idOf(m)]
	return ok && nd.size >= s.minSize
}

// emitAt returns the emitter's lines for the entries of m written from
// column col, inside col/2 dummy one-key mappings whose lines it drops.
func emitAt(m map[string]any, col int) ([]byte, bool) {
	var v any = m
	for range col / 2 {
		v = map[string]any{"a": v}
	}
	text, err := emit(v)
	if err != nil {
		return nil, false
	}
	for depth := range col / 2 {
		header := len("a:\n") + 2*depth
		if len(text) < header || !bytes.HasPrefix(text[2*depth:], []byte("a:\n")) ||
			len(bytes.TrimLeft(text[:2*depth], " ")) != 0 {
			return nil, false
		}
		text = text[header:]
	}
	// A stream whose last scalar leaves it open ends with a line "...",
	// which would not be there with more after it: this emitter writes
	// none in block style, but should one, the document takes Marshal.
	if col > 0 && bytes.HasSuffix(text, []byte("\n...\n")) {
		return nil, false
	}
	return text, true
}

// placeholder is the scalar written for the i-th value of a rendering.
func (s *Subtrees) placeholder(i int) string {
	return s.nonce + strconv.Itoa(i)
}

// splice cuts text at the placeholder lines ("key: <placeholder>\n"),
// ends each cut line at "key:" and puts the value's rendering after it.
// Every placeholder must be found exactly once.
func (s *Subtrees) splice(text []byte, values []*rendered) (*rendered, bool) {
	marker := []byte(": " + s.nonce)
	r := &rendered{}
	seen := make([]bool, len(values))
	pos := 0
	for {
		j := bytes.Index(text[pos:], marker)
		if j < 0 {
			break
		}
		start := pos + j
		i, end, ok := placeholderIndex(text, start+len(marker))
		if !ok || i >= len(values) || seen[i] {
			return nil, false
		}
		seen[i] = true
		text[start+1] = '\n' // "key: <placeholder>\n" becomes "key:\n"
		r.add(renderedPart{text: text[pos : start+2]})
		r.add(renderedPart{value: values[i]})
		pos = end
	}
	for _, ok := range seen {
		if !ok {
			return nil, false
		}
	}
	r.add(renderedPart{text: text[pos:]})
	return r, true
}

// placeholderIndex reads the digits of a placeholder from at, which must
// end the line; it returns them and the offset after the line break.
func placeholderIndex(text []byte, at int) (n, end int, ok bool) {
	i := at
	for i < len(text) && text[i] >= '0' && text[i] <= '9' && i-at < 9 {
		n = n*10 + int(text[i]-'0')
		i++
	}
	if i == at || i >= len(text) || text[i] != '\n' {
		return 0, 0, false
	}
	return n, i + 1, true
}

func (r *rendered) add(p renderedPart) {
	switch {
	case p.value != nil:
		r.size += p.value.size
	case len(p.text) == 0:
		return
	default:
		r.size += len(p.text)
		r.own += len(p.text)
	}
	r.parts = append(r.parts, p)
}

func (s *Subtrees) lookup(key subtreeKey) *rendered {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.texts[key]
	if r != nil {
		r.touch(s.gen)
	}
	return r
}

// touch marks r and the renderings it holds used in generation gen.
func (r *rendered) touch(gen uint64) {
	if r.used.Swap(gen) == gen {
		return // and so are the renderings it holds
	}
	for _, p := range r.parts {
		if p.value != nil {
			p.value.touch(gen)
		}
	}
}

// Advance starts a new generation and forgets the renderings used in
// neither it nor the one before, as manifest.Memo.Advance does: an edit
// makes new renderings of the mappings on the way to it, which the cycles
// after it do not use once the text changes again.
func (s *Subtrees) Advance() {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gen++
	for key, r := range s.texts {
		if r.used.Load()+1 < s.gen {
			delete(s.texts, key)
			s.bytes -= r.own
		}
	}
}

// store keeps r, forgetting everything first when the budget would be
// exceeded. A rendering counts only its own text: its values are
// counted where they are stored themselves.
func (s *Subtrees) store(key subtreeKey, r *rendered) {
	if r.own > s.budget {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.bytes+r.own > s.budget {
		clear(s.texts)
		s.bytes = 0
	}
	if _, dup := s.texts[key]; !dup {
		r.used.Store(s.gen)
		s.bytes += r.own
		s.texts[key] = r
	}
}

// simpleKey reports whether the emitter writes k as a simple key, on the
// line of its value ("k: v"): keys of up to 128 characters on one line;
// shorter ones here, printable ASCII only, to stay well inside that.
func simpleKey(k string) bool {
	if len(k) == 0 || len(k) > 100 {
		return false
	}
	for i := 0; i < len(k); i++ {
		if c := k[i]; c < 0x20 || c >= 0x7F {
			return false
		}
	}
	return true
}
