package manifest

import (
	"crypto/sha256"
	"sync"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/gatedcrd/gatedcrd/internal/workers"
)

// Memo remembers what Parse returned for the bytes it parsed, keyed by
// their SHA-256, for a process that parses the same files again and
// again: codegen watch, whose cycles read back the manifests the
// previous cycle wrote and the many it left alone. A one-shot run has no
// Memo; a nil *Memo parses every time, exactly as Parse.
//
// An entry holds exactly Parse(data) for its bytes. Parse hands out deep
// copies, so that no caller can change what a later one (in this run or
// the next) gets, whatever it does with its object; copying costs a few
// percent of parsing. Only View lends the entry's own object, to a caller
// that reads it and keeps it only through Own. Prewarm makes the first
// copy in the background too, which the next Parse of the bytes takes
// instead of copying on its caller's time.
//
// Entries are evicted by generation (Advance): one not used in the
// current or the previous generation is dropped, so the memo holds what
// the last cycles parsed and nothing older, and memory stays flat over
// any number of cycles. Its methods may be called concurrently.
type Memo struct {
	mu      sync.Mutex
	gen     uint64
	entries map[[sha256.Size]byte]*memoEntry
	hits    int
	misses  int
	spares  int
	// bg parses the bytes Prewarm was given; Wait waits for it.
	bg workers.Pending
}

// memoEntry is the parse of one content. The first of Parse or a Prewarm
// worker to need it parses it (once); anyone else waits for that parse.
type memoEntry struct {
	once sync.Once
	data []byte // the bytes to parse, until parsed
	obj  map[string]any
	err  error
	used uint64 // the last generation that used the entry
	// spare is a deep copy of obj made by Prewarm, for the next Parse to
	// take (guarded by Memo.mu).
	spare map[string]any
}

// NewMemo returns an empty memo.
func NewMemo() *Memo {
	return &Memo{entries: map[[sha256.Size]byte]*memoEntry{}}
}

// Parse returns Parse(data): a deep copy of the memoised object when the
// same bytes were parsed (or are being parsed) before, else the object
// parsed now. A nil memo just parses.
func (m *Memo) Parse(data []byte) (map[string]any, error) {
	if m == nil {
		return Parse(data)
	}
	e := m.view(data)
	if spare := m.takeSpare(e); spare != nil {
		return spare, e.err
	}
	return m.Own(e.obj), e.err
}

// View is Parse for a caller that only reads the object to decide
// whether it needs it (stage 2 looking for CRD manifests among every YAML
// file): it may be the memo's own, shared with every caller, so it must
// not be modified, nor kept unless Own made it the caller's. A nil memo
// parses.
func (m *Memo) View(data []byte) (map[string]any, error) {
	if m == nil {
		return Parse(data)
	}
	e := m.view(data)
	return e.obj, e.err
}

// view returns the parsed entry of data, counting the hit or miss.
func (m *Memo) view(data []byte) *memoEntry {
	e, known := m.entry(data)
	m.mu.Lock()
	if known {
		m.hits++
	} else {
		m.misses++
	}
	m.mu.Unlock()
	e.parse()
	return e
}

// takeSpare hands out the entry's spare copy, if Prewarm made one.
func (m *Memo) takeSpare(e *memoEntry) map[string]any {
	m.mu.Lock()
	defer m.mu.Unlock()
	spare := e.spare
	if spare != nil {
		e.spare = nil
		m.spares++
	}
	return spare
}

// makeSpare gives a parsed entry a spare copy unless it has one.
func (m *Memo) makeSpare(e *memoEntry) {
	m.mu.Lock()
	has := e.spare != nil
	m.mu.Unlock()
	if e.obj == nil || has {
		return
	}
	cp := runtime.DeepCopyJSON(e.obj)
	m.mu.Lock()
	defer m.mu.Unlock()
	if e.spare == nil {
		e.spare = cp
	}
}

// Own returns an object View returned as one the caller may keep and
// modify: a deep copy, or obj itself when m is nil (View parsed it for
// the caller alone).
func (m *Memo) Own(obj map[string]any) map[string]any {
	if m == nil || obj == nil {
		return obj
	}
	return runtime.DeepCopyJSON(obj)
}

// ParseFile is the package's ParseFile, parsing through m.
func (m *Memo) ParseFile(path string, data []byte) *File {
	return fileOf(path, data, m.Parse)
}

// ViewFile is ParseFile through View: its Object is for reading only.
func (m *Memo) ViewFile(path string, data []byte) *File {
	return fileOf(path, data, m.View)
}

// entry returns the entry of data, marked used in the current
// generation, creating it (unparsed) when there is none; known says it
// existed.
func (m *Memo) entry(data []byte) (e *memoEntry, known bool) {
	key := sha256.Sum256(data)
	m.mu.Lock()
	defer m.mu.Unlock()
	e, known = m.entries[key]
	if !known {
		e = &memoEntry{data: data}
		m.entries[key] = e
	}
	e.used = m.gen
	return e, known
}

// parse parses the entry's bytes, unless that was done or is under way
// (then it waits for it).
func (e *memoEntry) parse() {
	e.once.Do(func() {
		e.obj, e.err = Parse(e.data)
		if e.err != nil {
			e.obj = nil
		}
		e.data = nil
	})
}

// Prewarm parses contents in the background, on every core, so that a
// later Parse of the same bytes finds them parsed, and copied once for
// it: codegen watch hands it the files a cycle wrote, between cycles. A Parse that needs a content
// still being parsed waits for it instead of parsing it again. The
// entries count as used in the current generation. The caller must not
// modify contents.
func (m *Memo) Prewarm(contents [][]byte) {
	if m == nil || len(contents) == 0 {
		return
	}
	entries := make([]*memoEntry, len(contents))
	for i, data := range contents {
		entries[i], _ = m.entry(data)
	}
	m.bg.Each(len(entries), func(i int) {
		entries[i].parse()
		m.makeSpare(entries[i])
	})
}

// Wait returns once the parses Prewarm started are done.
func (m *Memo) Wait() {
	if m != nil {
		m.bg.Wait()
	}
}

// Advance starts a new generation and drops the entries used in neither
// it nor the one before: codegen watch advances once per cycle, so an
// entry lives while one of the last two cycles (or the parses prewarmed
// for the next) used it.
func (m *Memo) Advance() {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.gen++
	for key, e := range m.entries {
		if e.used+1 < m.gen {
			delete(m.entries, key)
		}
	}
}

// Forget drops the entries of contents: codegen watch forgets the
// contents of the files a cycle replaced or removed, which nothing reads
// any more (a file that still holds the same bytes is parsed again when
// read).
func (m *Memo) Forget(contents [][]byte) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, data := range contents {
		delete(m.entries, sha256.Sum256(data))
	}
}

// MemoStats counts a memo's entries and how its parses went.
type MemoStats struct {
	// Entries is the number of contents held.
	Entries int
	// Hits counts the parses of contents held (or being prewarmed),
	// Misses those of new contents, since the memo was made; Spares the
	// copies Prewarm made that a Parse handed out.
	Hits, Misses, Spares int
}

// Stats returns the memo's counts (none for a nil memo).
func (m *Memo) Stats() MemoStats {
	if m == nil {
		return MemoStats{}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return MemoStats{Entries: len(m.entries), Hits: m.hits, Misses: m.misses, Spares: m.spares}
}
