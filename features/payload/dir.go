package payload

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// WriteDir makes dir contain exactly files. It creates dir if needed, writes
// each changed file to a temporary file in dir and renames it into place (so
// a reader never sees a half-written file), leaves unchanged files untouched,
// and only then removes the regular files that are not in files (so an
// interrupted run never loses the previous content).
//
// The directory is owned by the generator: every regular file in it that was
// not rendered is removed. A subdirectory is an error, reported before
// anything is written, because removing it could destroy unrelated work.
func WriteDir(dir string, files []File) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	existing, err := listDir(dir)
	if err != nil {
		return err
	}
	for _, e := range existing {
		if e.IsDir() {
			return fmt.Errorf("payload directory %s contains a subdirectory %q; remove it first", dir, e.Name())
		}
	}
	wanted := map[string]bool{}
	for _, f := range files {
		if err := checkBaseName(f.Name); err != nil {
			return err
		}
		wanted[f.Name] = true
		path := filepath.Join(dir, f.Name)
		// Unchanged files keep their modification time.
		if have, err := os.ReadFile(path); err == nil && bytes.Equal(have, f.Data) {
			continue
		}
		if err := WriteFileAtomic(path, f.Data); err != nil {
			return err
		}
	}
	for _, e := range existing {
		if !wanted[e.Name()] {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

// VerifyDir reports, without writing anything, how dir differs from files: a
// *StaleError listing every changed, missing and extra entry (subdirectories
// count as extra), or nil if dir holds exactly files. Other errors mean dir
// could not be read.
func VerifyDir(dir string, files []File) error {
	existing, err := listDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	onDisk := map[string]bool{}
	for _, e := range existing {
		onDisk[e.Name()] = true
	}
	var diffs []Difference
	rendered := map[string]bool{}
	for _, f := range files {
		rendered[f.Name] = true
		path := filepath.Join(dir, f.Name)
		if !onDisk[f.Name] {
			diffs = append(diffs, Difference{Path: path, Kind: Missing})
			continue
		}
		have, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if d := compareContent(path, have, f.Data); d != nil {
			diffs = append(diffs, *d)
		}
	}
	for _, e := range existing {
		if !rendered[e.Name()] {
			diffs = append(diffs, Difference{Path: filepath.Join(dir, e.Name()), Kind: Extra})
		}
	}
	if len(diffs) == 0 {
		return nil
	}
	slices.SortFunc(diffs, func(a, b Difference) int { return cmp.Compare(a.Path, b.Path) })
	return &StaleError{Differences: diffs}
}

func listDir(dir string) ([]os.DirEntry, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("reading payload directory: %w", err)
	}
	return entries, nil
}

func checkBaseName(name string) error {
	if name == "" || name != filepath.Base(name) || name == "." || name == ".." {
		return fmt.Errorf("rendered file name %q is not a plain file name", name)
	}
	return nil
}

// WriteFileAtomic replaces path with data through a temporary file in the same
// directory and a rename, so that path always holds either the old or the new
// content. The file is left with mode 0644.
func WriteFileAtomic(path string, data []byte) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Chmod(0o644); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
