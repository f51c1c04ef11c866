package tree

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// DefaultFileMode is the mode of files the run creates.
const DefaultFileMode fs.FileMode = 0o644

// Entry is one name in a directory listing.
type Entry struct {
	Name  string
	IsDir bool
}

// Tree layers pending writes and removals over the disk. It is safe for
// concurrent use. Paths may be relative (to the process working directory)
// or absolute; they are compared after filepath.Abs.
type Tree struct {
	mu sync.Mutex
	// pending holds files written or removed during the run, by absolute path.
	pending map[string]*pendingFile
	// removedDirs holds directories removed as a whole during the run.
	removedDirs map[string]bool
	// disk caches file contents read from disk, so nothing is read twice.
	disk map[string][]byte
}

type pendingFile struct {
	data    []byte
	deleted bool
}

// New returns a Tree with no pending changes.
func New() *Tree {
	return &Tree{pending: map[string]*pendingFile{}, removedDirs: map[string]bool{}, disk: map[string][]byte{}}
}

func abs(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	return a
}

// ReadFile returns the content of path as the run currently sees it.
func (t *Tree) ReadFile(path string) ([]byte, error) {
	p := abs(path)
	t.mu.Lock()
	if f, ok := t.pending[p]; ok {
		t.mu.Unlock()
		if f.deleted {
			return nil, &fs.PathError{Op: "read", Path: path, Err: fs.ErrNotExist}
		}
		return f.data, nil
	}
	removed := t.underRemovedDir(p)
	data, read := t.disk[p]
	t.mu.Unlock()
	switch {
	case removed:
		return nil, &fs.PathError{Op: "read", Path: path, Err: fs.ErrNotExist}
	case read:
		return data, nil
	}
	// The disk is read without the lock: stages read their files on every
	// core, and holding it made those reads take turns.
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	return t.keepDisk(p, data), nil
}

// keepDisk records data as what the disk holds at p, unless a concurrent
// read recorded it first: every reader then gets the same bytes, which
// WriteFile compares against.
func (t *Tree) keepDisk(p string, data []byte) []byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	if kept, ok := t.disk[p]; ok {
		return kept
	}
	t.disk[p] = data
	return data
}

func (t *Tree) readDiskLocked(p string) ([]byte, error) {
	if data, ok := t.disk[p]; ok {
		return data, nil
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	t.disk[p] = data
	return data, nil
}

// underRemovedDir reports whether p lies in a directory removed as a whole.
func (t *Tree) underRemovedDir(p string) bool {
	for d := p; ; {
		if t.removedDirs[d] {
			return true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return false
		}
		d = parent
	}
}

// Exists reports whether path is a file or directory in the current view.
func (t *Tree) Exists(path string) bool {
	isDir, ok := t.Stat(path)
	return ok || isDir
}

// Stat reports whether path is a directory and whether it is a file.
func (t *Tree) Stat(path string) (isDir, isFile bool) {
	p := abs(path)
	t.mu.Lock()
	defer t.mu.Unlock()
	if f, ok := t.pending[p]; ok {
		return false, !f.deleted
	}
	if t.hasPendingChildLocked(p) {
		return true, false
	}
	if t.underRemovedDir(p) {
		return false, false
	}
	info, err := os.Stat(p)
	if err != nil {
		return false, false
	}
	return info.IsDir(), info.Mode().IsRegular()
}

func (t *Tree) hasPendingChildLocked(dir string) bool {
	prefix := dir + string(filepath.Separator)
	for p, f := range t.pending {
		if !f.deleted && strings.HasPrefix(p, prefix) {
			return true
		}
	}
	return false
}

// ReadDir lists dir, sorted by name. It fails with fs.ErrNotExist when the
// directory exists neither on disk nor through pending writes.
func (t *Tree) ReadDir(dir string) ([]Entry, error) {
	d := abs(dir)
	t.mu.Lock()
	defer t.mu.Unlock()
	names := map[string]bool{} // name -> isDir
	found := false
	if !t.underRemovedDir(d) {
		diskEntries, err := os.ReadDir(d)
		if err == nil {
			found = true
			for _, e := range diskEntries {
				child := filepath.Join(d, e.Name())
				if e.IsDir() && t.underRemovedDir(child) {
					continue
				}
				if f, ok := t.pending[child]; ok && f.deleted {
					continue
				}
				names[e.Name()] = e.IsDir()
			}
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	prefix := d + string(filepath.Separator)
	for p, f := range t.pending {
		if f.deleted || !strings.HasPrefix(p, prefix) {
			continue
		}
		found = true
		rest := p[len(prefix):]
		if i := strings.IndexRune(rest, filepath.Separator); i >= 0 {
			names[rest[:i]] = true
		} else {
			names[rest] = false
		}
	}
	if !found {
		return nil, &fs.PathError{Op: "readdir", Path: dir, Err: fs.ErrNotExist}
	}
	out := make([]Entry, 0, len(names))
	for n, isDir := range names {
		out = append(out, Entry{Name: n, IsDir: isDir})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// WriteFile records new content for path and returns the bytes the tree
// keeps for it, which a caller holding on to the content should keep
// instead of data. Nothing touches the disk until Commit. Content equal to
// the disk's, as read already, shares the bytes read instead of keeping a
// copy: most writes of a run over an up-to-date tree are such, and their
// copies would double what a run keeps live.
func (t *Tree) WriteFile(path string, data []byte) []byte {
	return t.write(path, data, true)
}

// Put is WriteFile for content its caller hands over, such as bytes just
// rendered: the tree keeps data itself rather than a copy, and the caller
// must not change it afterwards. A stage's outputs are most of what a run
// writes, and copying them is most of what recording them costs.
func (t *Tree) Put(path string, data []byte) []byte {
	return t.write(path, data, false)
}

// write records data for path, copied when copyData is set.
func (t *Tree) write(path string, data []byte, copyData bool) []byte {
	p := abs(path)
	t.mu.Lock()
	defer t.mu.Unlock()
	if old, ok := t.disk[p]; ok && bytes.Equal(old, data) {
		t.pending[p] = &pendingFile{data: old}
		return old
	}
	if copyData {
		data = append([]byte(nil), data...)
	}
	t.pending[p] = &pendingFile{data: data}
	return data
}

// Remove records the removal of the file at path.
func (t *Tree) Remove(path string) {
	p := abs(path)
	t.mu.Lock()
	defer t.mu.Unlock()
	t.pending[p] = &pendingFile{deleted: true}
}

// RemoveAll records the removal of dir and everything below it. Files
// written below dir afterwards are kept.
func (t *Tree) RemoveAll(dir string) {
	d := abs(dir)
	t.mu.Lock()
	defer t.mu.Unlock()
	prefix := d + string(filepath.Separator)
	for p := range t.pending {
		if strings.HasPrefix(p, prefix) {
			delete(t.pending, p)
		}
	}
	t.removedDirs[d] = true
}

// ChangeKind classifies a Change.
type ChangeKind int

const (
	// Create is a file that does not exist on disk yet.
	Create ChangeKind = iota
	// Update is a file whose content on disk differs.
	Update
	// Delete is a file on disk that the run removes.
	Delete
	// DeleteDir is a directory on disk that the run removes with its content.
	DeleteDir
)

func (k ChangeKind) String() string {
	return [...]string{"create", "update", "delete", "delete directory"}[k]
}

// Change is one difference between the run's view and the disk.
type Change struct {
	Path string
	Kind ChangeKind
	// Old is the disk content (Update, Delete), New the run's (Create, Update).
	Old, New []byte
}

// Stats counts what a Commit did or a Verify found.
type Stats struct {
	Written, Unchanged, Removed int
}

// Changes lists every difference between the run's view and the disk,
// sorted by path. Pending writes whose content equals the disk are not
// changes. It reads the disk but never writes.
func (t *Tree) Changes() ([]Change, Stats, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []Change
	var st Stats
	paths := make([]string, 0, len(t.pending))
	for p := range t.pending {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		f := t.pending[p]
		old, err := t.readDiskLocked(p)
		exists := err == nil
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			if info, serr := os.Stat(p); serr == nil && info.IsDir() {
				return nil, st, fmt.Errorf("%s: is a directory where a file is expected", p)
			}
			return nil, st, err
		}
		switch {
		case f.deleted && exists:
			out = append(out, Change{Path: p, Kind: Delete, Old: old})
			st.Removed++
		case f.deleted:
		case !exists:
			out = append(out, Change{Path: p, Kind: Create, New: f.data})
			st.Written++
		case !bytes.Equal(old, f.data):
			out = append(out, Change{Path: p, Kind: Update, Old: old, New: f.data})
			st.Written++
		default:
			st.Unchanged++
		}
	}
	dirs := make([]string, 0, len(t.removedDirs))
	for d := range t.removedDirs {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	for _, d := range dirs {
		if info, err := os.Stat(d); err == nil && info.IsDir() {
			out = append(out, Change{Path: d, Kind: DeleteDir})
			st.Removed++
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, st, nil
}

// Commit applies the changes to disk in two phases. First every new
// content is written to a temporary file next to its target; if any of
// those writes fails, the temporary files are removed and the disk is left
// exactly as it was. Then the temporary files are renamed into place, on
// every core (a reader, or a crash, sees either the old or the new content
// of each file, never a mixture; when a rename fails, the others still
// happen and its target stays as it was), and finally, when every rename
// succeeded, removed files and directories are deleted.
// Directories are created with mode 0755; new files get mode 0644 and
// updated files keep their mode.
func (t *Tree) Commit() (Stats, error) {
	changes, st, err := t.Changes()
	if err != nil {
		return st, err
	}
	staged, err := stageAll(changes)
	if err != nil {
		return st, err
	}
	if err := renameAll(staged); err != nil {
		return st, err
	}
	for _, c := range changes {
		if c.Kind == Delete {
			if err := os.Remove(c.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return st, err
			}
		}
	}
	for _, c := range changes {
		if c.Kind == DeleteDir {
			if err := t.removeDirKeepingPending(c.Path); err != nil {
				return st, err
			}
		}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.pending = map[string]*pendingFile{}
	t.removedDirs = map[string]bool{}
	t.disk = map[string][]byte{}
	return st, nil
}

// removeDirKeepingPending removes the files below dir that the run did not
// write, then every directory left empty.
func (t *Tree) removeDirKeepingPending(dir string) error {
	t.mu.Lock()
	keep := map[string]bool{}
	for p, f := range t.pending {
		if !f.deleted {
			keep[p] = true
		}
	}
	t.mu.Unlock()
	var dirs []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			dirs = append(dirs, p)
			return nil
		}
		if keep[p] {
			return nil
		}
		return os.Remove(p)
	})
	if err != nil {
		return err
	}
	for i := len(dirs) - 1; i >= 0; i-- {
		entries, err := os.ReadDir(dirs[i])
		if err != nil {
			return err
		}
		if len(entries) == 0 {
			if err := os.Remove(dirs[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

// WriteFileAtomic writes data to path through a temporary file in the same
// directory and a rename. An existing file keeps its mode; a new one gets
// DefaultFileMode. Missing parent directories are created with mode 0755.
func WriteFileAtomic(path string, data []byte) error {
	f, err := stage(path, data)
	if err != nil {
		return err
	}
	if err := os.Rename(f.tmp, f.target); err != nil {
		_ = os.Remove(f.tmp)
		return err
	}
	return nil
}

// Written returns the content of every file written (not removed) during
// the run, by absolute path.
func (t *Tree) Written() map[string][]byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make(map[string][]byte, len(t.pending))
	for p, f := range t.pending {
		if !f.deleted {
			out[p] = f.data
		}
	}
	return out
}
