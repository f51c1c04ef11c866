package discovery

import (
	"crypto/sha256"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/gatedcrd/gatedcrd/internal/diag"
)

// Memo keeps what discovery found in each package directory between runs
// over the same tree (codegen watch), so that a run reads and parses again
// only the directories whose Go files changed: reading every Go file of
// the tree is most of discovery's time (openshift/api: about 500 files),
// while a cycle of the watch changes one or two.
//
// A directory's entry is valid while the names, sizes and modification
// times of its non-test Go files are those it was read with; Forget drops
// an entry whose files changed in a way those may not show (an edit of
// the same size within the file system's timestamp granularity), and the
// watcher calls it for the directory of every file whose content changed.
// What is kept is the result of the first reading (parsePackage): whether
// the directory declares a group-version, its problems; not the files'
// contents or syntax, so the selected versions are still read and parsed
// whole by every run, into its own file set.
//
// A caller that is told of every change to a directory's entries (codegen
// watch, through file notification) may also have the memo keep the
// directory listings (KeepListings): a run then reads only the
// directories forgotten since the last one, instead of listing the
// whole tree and stamping every Go file in it.
//
// A Memo is safe for concurrent use.
type Memo struct {
	mu   sync.Mutex
	dirs map[string]*memoEntry
	// listings are the kept directory listings, watched says which
	// directories may have one (nil: none).
	listings map[string]*listing
	watched  func(dir string) bool
	// parsed hashes the content of each file a run parsed whole without
	// error (parseSelected).
	parsed map[string][32]byte
	// Reused counts the directories served from the memo, Read those read
	// afresh, since the memo was made; ListingsReused the listings served
	// from the memo.
	Reused, Read, ListingsReused int
}

// listing is what discovery read of a directory: its entries, and
// whether a go.mod makes it the root of a module.
type listing struct {
	entries []os.DirEntry
	module  bool
}

// memoEntry is what parsePackage found in one directory.
type memoEntry struct {
	stamps []fileStamp
	// version is a copy of the result without its files (nil: no
	// group-version), names the package's Go files.
	version  *Version
	names    []string
	problems []diag.Diagnostic
}

// fileStamp identifies a version of a file without reading it.
type fileStamp struct {
	name    string
	size    int64
	modTime int64 // nanoseconds since the epoch
}

// NewMemo returns an empty memo.
func NewMemo() *Memo {
	return &Memo{dirs: map[string]*memoEntry{}, listings: map[string]*listing{}, parsed: map[string][32]byte{}}
}

// KeepListings makes the memo keep, from the next run on, the listing of
// every directory that watched says is watched, and serve a directory
// whose listing it kept from what it found there without stamping its Go
// files. The caller must then call Forget for a directory whenever an
// entry of it may have been created, removed, renamed or written, and
// Reset when it may have missed that (a lost notification). watched is
// called on several goroutines during a run.
func (m *Memo) KeepListings(watched func(dir string) bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.watched = watched
}

// Forget drops what the memo holds for dir (an absolute path), and the
// listings of the directories above it: a directory new to them (dir
// itself, or one between them and dir) is not in them yet.
func (m *Memo) Forget(dir string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.dirs, dir)
	delete(m.listings, dir)
	for d := filepath.Dir(dir); d != dir; dir, d = d, filepath.Dir(d) {
		delete(m.listings, d)
	}
}

// Reset drops everything.
func (m *Memo) Reset() {
	m.mu.Lock()
	defer m.mu.Unlock()
	clear(m.dirs)
	clear(m.listings)
	clear(m.parsed)
}

// parsedBefore says whether a run parsed gf whole with its present bytes
// without error: parsing it again would find the same.
func (m *Memo) parsedBefore(gf *goFile) bool {
	if m == nil {
		return false
	}
	sum := sha256.Sum256(gf.src)
	m.mu.Lock()
	defer m.mu.Unlock()
	old, ok := m.parsed[gf.name]
	return ok && old == sum
}

// noteParsed records that gf parsed whole without error.
func (m *Memo) noteParsed(gf *goFile) {
	if m == nil {
		return
	}
	m.NoteParses(gf.name, sha256.Sum256(gf.src))
}

// NoteParses records that the Go file name (an absolute path) parses
// whole without error while its content has the SHA-256 sum: a caller
// that parsed it already (codegen watch, which parses a saved file to
// see which declarations changed) spares the next run parsing it again
// only to know that.
func (m *Memo) NoteParses(name string, sum [32]byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.parsed[name] = sum
}

// listing returns the kept listing of dir, or nil. A nil Memo keeps none.
func (m *Memo) listing(dir string) *listing {
	if m == nil {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	l := m.listings[dir]
	if l != nil {
		m.ListingsReused++
	}
	return l
}

// keepListing keeps the listing of dir for the next run when dir is
// watched.
func (m *Memo) keepListing(dir string, l *listing) {
	if m == nil {
		return
	}
	m.mu.Lock()
	watched := m.watched
	m.mu.Unlock()
	if watched == nil || !watched(dir) {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.listings[dir] = l
}

// parse is parsePackage through the memo: the kept result when the
// listing of dir was kept (nothing in dir changed since), or when dir's Go
// files are stamped as they were; else parsePackage's, kept for the next
// run unless it failed to read the directory.
func (m *Memo) parse(pd pkgDir, modDir, modPath string, fset *token.FileSet, problems *diag.List) (*Version, error) {
	dir := pd.path
	var stamps []fileStamp
	m.mu.Lock()
	e, ok := m.dirs[dir]
	m.mu.Unlock()
	if !ok || !pd.kept {
		var err error
		if stamps, err = stampGoFiles(pd); err != nil {
			return nil, err
		}
	}
	m.mu.Lock()
	if ok && (pd.kept || slices.Equal(e.stamps, stamps)) {
		m.Reused++
		m.mu.Unlock()
		problems.Add(e.problems...)
		return e.fresh(), nil
	}
	m.mu.Unlock()
	own := &diag.List{}
	v, err := parsePackage(pd, modDir, modPath, fset, own)
	problems.Add(own.Items()...)
	if err != nil {
		return nil, err
	}
	e = &memoEntry{stamps: stamps, problems: own.Items()}
	if v != nil {
		kept := *v
		kept.files = nil
		e.version = &kept
		for _, gf := range v.files {
			e.names = append(e.names, gf.name)
		}
	}
	m.mu.Lock()
	m.dirs[dir] = e
	m.Read++
	m.mu.Unlock()
	return v, nil
}

// fresh returns a version of its own for one run: the kept result with
// the package's files yet to be read (parseSelected reads them).
func (e *memoEntry) fresh() *Version {
	if e.version == nil {
		return nil
	}
	v := *e.version
	for _, name := range e.names {
		v.files = append(v.files, &goFile{name: name})
	}
	return &v
}

// stampGoFiles stamps the non-test Go files of a directory, in name
// order.
func stampGoFiles(pd pkgDir) ([]fileStamp, error) {
	var out []fileStamp
	for _, e := range pd.entries {
		if !isPackageFile(e) {
			continue
		}
		info, err := e.Info()
		if err != nil {
			return nil, err
		}
		out = append(out, fileStamp{name: filepath.Join(pd.path, e.Name()), size: info.Size(), modTime: info.ModTime().UnixNano()})
	}
	return out, nil
}

// isPackageFile says whether a directory entry is a Go file of the
// package (not a test).
func isPackageFile(e os.DirEntry) bool {
	n := e.Name()
	return !e.IsDir() && strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go")
}
