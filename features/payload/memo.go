package payload

import (
	"bytes"
	"slices"
	"sync"
)

// Memo reads payload directories for a process that reads the same one
// again and again (codegen watch, once per cycle), keeping the last
// directory it read successfully with the files it was read from. A read
// lists the directory and reads its files every time, but parses them
// only when the directory, the era asked for, a file name or a byte of a
// file differs from the kept read: parsing is nearly all of a read.
//
// The Directory a Memo returns is shared by every read it serves: callers
// must not modify it. A nil Memo reads without keeping anything. A Memo
// is safe for concurrent use.
type Memo struct {
	mu   sync.Mutex
	last *memoRead
	// Parsed counts the reads that parsed the files, Reused those served
	// from the kept read.
	Parsed, Reused int
}

// memoRead is one successful read and its inputs.
type memoRead struct {
	dir     string
	era     Era
	files   []File
	skipped []SkippedFile
	d       *Directory
}

// ReadDirEra is the package's ReadDirEra through the memo.
func (m *Memo) ReadDirEra(dir string, era Era) (*Directory, error) {
	if m == nil {
		return ReadDirEra(dir, era)
	}
	files, skipped, err := listFiles(dir)
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	last := m.last
	if last.matches(dir, era, files, skipped) {
		m.Reused++
		m.mu.Unlock()
		return last.d, nil
	}
	m.mu.Unlock()
	d, err := readListed(dir, files, skipped, era)
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	m.last = &memoRead{dir: dir, era: era, files: files, skipped: skipped, d: d}
	m.Parsed++
	m.mu.Unlock()
	return d, nil
}

// matches says whether r is a read of the same inputs.
func (r *memoRead) matches(dir string, era Era, files []File, skipped []SkippedFile) bool {
	return r != nil && r.dir == dir && r.era == era && slices.Equal(r.skipped, skipped) &&
		slices.EqualFunc(r.files, files, func(a, b File) bool { return a.Name == b.Name && bytes.Equal(a.Data, b.Data) })
}
