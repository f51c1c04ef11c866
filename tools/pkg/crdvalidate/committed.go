package crdvalidate

import (
	"bufio"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// Committed reads files as committed at HEAD of the git repository holding
// dir, through one `git cat-file --batch` process. It is the "previous
// version" of a merged manifest for the update validation.
type Committed struct {
	mu   sync.Mutex
	dir  string
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Reader
	dead bool
}

// OpenCommitted returns a reader of HEAD for the repository holding dir,
// or nil when git cannot be started. The process starts in the background
// and asks for each file by its path relative to dir: when dir is not in a
// git work tree, the process ends at once and every Read returns nil, as
// it does for a file not committed at HEAD, or in a repository without a
// commit.
func OpenCommitted(dir string) *Committed {
	c := &Committed{dir: dir}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		c.dir = real
	}
	c.cmd = exec.Command("git", "-C", c.dir, "cat-file", "--batch")
	var err error
	if c.in, err = c.cmd.StdinPipe(); err != nil {
		return nil
	}
	stdout, err := c.cmd.StdoutPipe()
	if err != nil {
		return nil
	}
	c.out = bufio.NewReader(stdout)
	if err := c.cmd.Start(); err != nil {
		return nil
	}
	return c
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
	data, err := c.object("HEAD:./" + filepath.ToSlash(rel))
	if err != nil {
		c.dead = true
		return nil
	}
	return data
}

// object asks cat-file for one object: "<sha> blob <size>\n<data>\n", or
// "<name> missing\n".
func (c *Committed) object(name string) ([]byte, error) {
	if _, err := fmt.Fprintln(c.in, name); err != nil {
		return nil, err
	}
	header, err := c.out.ReadString('\n')
	if err != nil {
		return nil, err
	}
	fields := strings.Fields(header)
	if len(fields) != 3 || fields[1] != "blob" {
		return nil, nil
	}
	size, err := strconv.Atoi(fields[2])
	if err != nil {
		return nil, err
	}
	data := make([]byte, size+1)
	if _, err := io.ReadFull(c.out, data); err != nil {
		return nil, err
	}
	return data[:size], nil
}

// Close ends the git process.
func (c *Committed) Close() {
	if c == nil {
		return
	}
	c.in.Close()
	_ = c.cmd.Wait()
}
