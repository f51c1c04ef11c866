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
	top  string
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Reader
	dead bool
}

// OpenCommitted returns a reader of HEAD for the repository holding dir,
// or nil when dir is not in a git work tree with a HEAD commit (or git is
// not installed): then there is no previous version to compare with.
func OpenCommitted(dir string) *Committed {
	top, err := exec.Command("git", "-C", dir, "rev-parse", "--show-toplevel").Output()
	if err != nil {
		return nil
	}
	if err := exec.Command("git", "-C", dir, "rev-parse", "--verify", "--quiet", "HEAD").Run(); err != nil {
		return nil
	}
	c := &Committed{top: strings.TrimSpace(string(top))}
	if real, err := filepath.EvalSymlinks(c.top); err == nil {
		c.top = real
	}
	c.cmd = exec.Command("git", "-C", c.top, "cat-file", "--batch")
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
// not committed there.
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
	rel, err := filepath.Rel(c.top, filepath.Join(dir, base))
	if err != nil || strings.HasPrefix(rel, "..") {
		return nil
	}
	data, err := c.object("HEAD:" + filepath.ToSlash(rel))
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
