package crdvalidate

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// Committed reads files as committed at HEAD of the git repository holding
// dir, through `git cat-file`. It is the "previous version" of a merged
// manifest for the update validation.
type Committed struct {
	mu  sync.Mutex
	dir string
	// objects answers for each file: with its content (--batch), or, with
	// blobs, with its blob's id only (--batch-check), contents then
	// reading the blobs that blobs does not hold (started on first need).
	objects, contents *catFile
	blobs             *CommittedBlobs
	// used are the blobs read, by id, for blobs to keep.
	used map[string][]byte
	dead bool
}

// catFile is one `git cat-file` process.
type catFile struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

// OpenCommitted returns a reader of HEAD for the repository holding dir,
// or nil when git cannot be started. The process starts in the background
// and asks for each file by its path relative to dir: when dir is not in a
// git work tree, the process ends at once and every Read returns nil, as
// it does for a file not committed at HEAD, or in a repository without a
// commit.
func OpenCommitted(dir string) *Committed {
	return OpenCommittedWith(dir, nil)
}

// OpenCommittedWith is OpenCommitted reading through blobs, when not nil:
// git then only looks up which blob each file is at HEAD, and the content
// of a blob that blobs holds is not read again.
func OpenCommittedWith(dir string, blobs *CommittedBlobs) *Committed {
	c := &Committed{dir: dir, blobs: blobs, used: map[string][]byte{}}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		c.dir = real
	}
	mode := "--batch"
	if blobs != nil {
		mode = "--batch-check"
	}
	if c.objects = startCatFile(c.dir, mode); c.objects == nil {
		return nil
	}
	return c
}

// startCatFile starts `git cat-file mode` in dir, or returns nil.
func startCatFile(dir, mode string) *catFile {
	f := &catFile{cmd: exec.Command("git", "-C", dir, "cat-file", mode)}
	var err error
	if f.in, err = f.cmd.StdinPipe(); err != nil {
		return nil
	}
	stdout, err := f.cmd.StdoutPipe()
	if err != nil {
		return nil
	}
	f.out = bufio.NewReader(stdout)
	if err := f.cmd.Start(); err != nil {
		return nil
	}
	return f
}

// Read returns the content of path (absolute) at HEAD, or nil when it is
// not committed there or is outside the directory Committed was opened
// for (git would stop on a path outside its work tree).
func (c *Committed) Read(path string) []byte {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dead {
		return nil
	}
	dir, base := filepath.Split(path)
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	rel, err := filepath.Rel(c.dir, filepath.Join(dir, base))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil
	}
	// "./" makes the path relative to the process's directory, dir.
	data, err := c.read("HEAD:./" + filepath.ToSlash(rel))
	if err != nil {
		c.dead = true
		return nil
	}
	return data
}

// read returns the content of the blob name names, or nil when it names
// none.
func (c *Committed) read(name string) ([]byte, error) {
	id, kind, size, err := c.objects.ask(name)
	if err != nil || id == "" {
		return nil, err
	}
	if c.blobs == nil {
		// The content follows whatever the object is (a directory is a
		// tree): read past it.
		data, err := c.objects.content(size)
		if err != nil || kind != "blob" {
			return nil, err
		}
		return data, nil
	}
	if kind != "blob" {
		return nil, nil
	}
	data, ok := c.blobs.get(id)
	if !ok {
		if data, err = c.readBlob(id); err != nil {
			return nil, err
		}
	}
	c.used[id] = data
	return data, nil
}

// readBlob reads the content of the blob id, which blobs does not hold.
func (c *Committed) readBlob(id string) ([]byte, error) {
	if c.contents == nil {
		if c.contents = startCatFile(c.dir, "--batch"); c.contents == nil {
			return nil, errors.New("git cat-file --batch did not start")
		}
	}
	return c.contents.blob(id)
}

// ask sends name and reads the answer's header: "<id> <kind> <size>\n",
// the object's content following for --batch, or "<name> missing\n" (id
// is then "").
func (f *catFile) ask(name string) (id, kind string, size int, err error) {
	if _, err := fmt.Fprintln(f.in, name); err != nil {
		return "", "", 0, err
	}
	header, err := f.out.ReadString('\n')
	if err != nil {
		return "", "", 0, err
	}
	fields := strings.Fields(header)
	if len(fields) != 3 {
		return "", "", 0, nil
	}
	size, err = strconv.Atoi(fields[2])
	if err != nil {
		return "", "", 0, err
	}
	return fields[0], fields[1], size, nil
}

// content reads the size bytes of content after a --batch header, and
// the newline after them.
func (f *catFile) content(size int) ([]byte, error) {
	data := make([]byte, size+1)
	if _, err := io.ReadFull(f.out, data); err != nil {
		return nil, err
	}
	return data[:size], nil
}

// blob reads the blob id through a --batch process.
func (f *catFile) blob(id string) ([]byte, error) {
	got, kind, size, err := f.ask(id)
	if err != nil {
		return nil, err
	}
	if got != id || kind != "blob" {
		return nil, fmt.Errorf("git cat-file did not find blob %s", id)
	}
	return f.content(size)
}

// Close ends the git processes, and has the blobs kept across runs be
// those this reader read.
func (c *Committed) Close() {
	if c == nil {
		return
	}
	for _, f := range []*catFile{c.objects, c.contents} {
		if f != nil {
			f.in.Close()
			_ = f.cmd.Wait()
		}
	}
	if c.blobs != nil && !c.dead {
		c.blobs.keep(c.used)
	}
}

// CommittedBlobs keeps the content of committed files by the id of their
// blob across the runs that share it (codegen watch's cycles): in a
// repository, reading a merged CRD's committed version means undoing
// git's compression and deltas, several milliseconds a file, for content
// that does not change until HEAD does. An id names one content, so a
// blob kept is what git would read. It holds the blobs the last run read.
type CommittedBlobs struct {
	mu    sync.Mutex
	blobs map[string][]byte
}

// NewCommittedBlobs returns an empty keeper.
func NewCommittedBlobs() *CommittedBlobs {
	return &CommittedBlobs{blobs: map[string][]byte{}}
}

func (b *CommittedBlobs) get(id string) ([]byte, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	data, ok := b.blobs[id]
	return data, ok
}

// keep replaces the blobs held with used.
func (b *CommittedBlobs) keep(used map[string][]byte) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.blobs = used
}

// Len returns the number of blobs held.
func (b *CommittedBlobs) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.blobs)
}
