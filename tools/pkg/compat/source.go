package compat

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// A Source is one side of the comparison: a tree of files addressed by
// slash-separated paths relative to its root (the --base-dir of that side).
type Source interface {
	// Describe names the source in messages.
	Describe() string
	// Paths lists every file of the tree, skipping the directories the
	// discovery stage skips (version control, vendor, testdata, hidden).
	Paths() ([]string, error)
	// Read returns the content of the given paths.
	Read(paths []string) (map[string][]byte, error)
}

// skipped reports whether a directory name is never searched, as in
// discovery.
func skipped(name string) bool {
	switch name {
	case ".git", "vendor", "testdata":
		return true
	}
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")
}

// DirSource reads a directory on disk. Name, when set, names it in the
// report instead of Root.
type DirSource struct{ Root, Name string }

// Describe implements Source.
func (s DirSource) Describe() string {
	if s.Name != "" {
		return s.Name
	}
	return s.Root
}

// Paths implements Source.
func (s DirSource) Paths() ([]string, error) {
	var out []string
	err := filepath.WalkDir(s.Root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != s.Root && skipped(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		rel, err := filepath.Rel(s.Root, p)
		if err != nil {
			return err
		}
		out = append(out, filepath.ToSlash(rel))
		return nil
	})
	return out, err
}

// Read implements Source.
func (s DirSource) Read(paths []string) (map[string][]byte, error) {
	out := make(map[string][]byte, len(paths))
	for _, p := range paths {
		data, err := os.ReadFile(filepath.Join(s.Root, filepath.FromSlash(p)))
		if err != nil {
			return nil, err
		}
		out[p] = data
	}
	return out, nil
}

// GitSource reads the tree of a git revision: the directory Dir (inside a
// work tree) as it was at Rev. Only git's plumbing commands are used, one
// process to list and one to read every needed file.
type GitSource struct{ Dir, Rev string }

// Describe implements Source.
func (s GitSource) Describe() string { return s.Rev }

// prefix returns Dir's path inside the repository ("" at the top).
func (s GitSource) prefix() (string, error) {
	out, err := s.git(nil, "rev-parse", "--show-prefix")
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// Paths implements Source.
func (s GitSource) Paths() ([]string, error) {
	if _, err := s.git(nil, "rev-parse", "--verify", "--quiet", s.Rev+"^{tree}"); err != nil {
		return nil, fmt.Errorf("%s is not a revision of the git repository at %s", s.Rev, s.Dir)
	}
	out, err := s.git(nil, "ls-tree", "-r", "-z", "--name-only", s.Rev, ".")
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, p := range strings.Split(string(out), "\x00") {
		if p == "" || skippedPath(p) {
			continue
		}
		paths = append(paths, p)
	}
	return paths, nil
}

// skippedPath reports whether a directory of p is one Paths skips.
func skippedPath(p string) bool {
	for dir := path.Dir(p); dir != "." && dir != "/"; dir = path.Dir(dir) {
		if skipped(path.Base(dir)) {
			return true
		}
	}
	return false
}

// Read implements Source. It feeds every path to one git cat-file --batch.
func (s GitSource) Read(paths []string) (map[string][]byte, error) {
	if len(paths) == 0 {
		return map[string][]byte{}, nil
	}
	prefix, err := s.prefix()
	if err != nil {
		return nil, err
	}
	var in bytes.Buffer
	for _, p := range paths {
		fmt.Fprintf(&in, "%s:%s%s\n", s.Rev, prefix, p)
	}
	out, err := s.git(&in, "cat-file", "--batch")
	if err != nil {
		return nil, err
	}
	r := bufio.NewReader(bytes.NewReader(out))
	files := make(map[string][]byte, len(paths))
	for _, p := range paths {
		header, err := r.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("git cat-file: %s: %v", p, err)
		}
		fields := strings.Fields(header)
		if len(fields) != 3 || fields[1] != "blob" {
			return nil, fmt.Errorf("git cat-file: %s at %s: %s", p, s.Rev, strings.TrimSpace(header))
		}
		size, err := strconv.Atoi(fields[2])
		if err != nil {
			return nil, fmt.Errorf("git cat-file: %s: bad header %q", p, header)
		}
		data := make([]byte, size+1) // the content and a newline
		if _, err := io.ReadFull(r, data); err != nil {
			return nil, fmt.Errorf("git cat-file: %s: %v", p, err)
		}
		files[p] = data[:size]
	}
	return files, nil
}

// git runs git in s.Dir and returns its standard output.
func (s GitSource) git(stdin io.Reader, args ...string) ([]byte, error) {
	cmd := exec.Command("git", append([]string{"-C", s.Dir}, args...)...)
	cmd.Stdin = stdin
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("git %s: %s", args[0], msg)
	}
	return out, nil
}
