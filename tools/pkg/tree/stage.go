package tree

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/gatedcrd/gatedcrd/internal/workers"
)

// stagedFile is new content written next to its target, not yet renamed.
// createdDir is the topmost directory created for it, if any.
type stagedFile struct{ tmp, target, createdDir string }

// stageAll stages the new content of every created or updated file of
// changes, on every core: writing the files is most of a commit's time,
// system calls, and a watch cycle waits for it. When a file fails, every
// file staged is removed, with the directories created for them, and
// the error of the first failing file in changes' order is returned: the
// disk is left as it was.
func stageAll(changes []Change) ([]stagedFile, error) {
	var writes []Change
	for _, c := range changes {
		if c.Kind == Create || c.Kind == Update {
			writes = append(writes, c)
		}
	}
	targets := make([]string, len(writes))
	for i, c := range writes {
		targets[i] = c.Path
	}
	sweepLeftovers(targets)
	staged := make([]stagedFile, len(writes))
	errs := make([]error, len(writes))
	workers.Each(len(writes), func(i int) { staged[i], errs[i] = stageFile(writes[i].Path, writes[i].New) })
	for _, err := range errs {
		if err != nil {
			unstage(staged)
			return nil, err
		}
	}
	return staged, nil
}

// renameAll moves every staged file into place, on every core: a rename
// replacing a file has the file system write the new data out first (ext4
// does, so that a crash leaves the old or the new content), which made
// the renames of a commit take as long as its staging. Each rename that
// fails leaves its target as it was and its temporary file is removed;
// the error of the first failing file in order is returned.
func renameAll(staged []stagedFile) error {
	errs := make([]error, len(staged))
	workers.Each(len(staged), func(i int) {
		if errs[i] = os.Rename(staged[i].tmp, staged[i].target); errs[i] != nil {
			_ = os.Remove(staged[i].tmp)
		}
	})
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// unstage removes staged files and the directories created for them.
func unstage(staged []stagedFile) {
	for i := len(staged) - 1; i >= 0; i-- {
		if staged[i].tmp != "" {
			_ = os.Remove(staged[i].tmp)
		}
		if staged[i].createdDir != "" {
			// It did not exist before this commit: nothing else is in it.
			_ = os.RemoveAll(staged[i].createdDir)
		}
	}
}

// stage writes data to a temporary file in path's directory, with the mode
// path has (or DefaultFileMode), and returns it for renaming.
func stage(path string, data []byte) (stagedFile, error) {
	sweepLeftovers([]string{path})
	return stageFile(path, data)
}

// sweepLeftovers removes the temporary files of the targets that a run
// killed between staging and renaming left behind, reading each
// directory once.
func sweepLeftovers(targets []string) {
	byDir := map[string][]string{}
	for _, p := range targets {
		dir := filepath.Dir(p)
		byDir[dir] = append(byDir[dir], tempPrefix(p))
	}
	for dir, prefixes := range byDir {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue // not there yet: nothing to sweep
		}
		for _, e := range entries {
			for _, prefix := range prefixes {
				if strings.HasPrefix(e.Name(), prefix) {
					_ = os.Remove(filepath.Join(dir, e.Name()))
					break
				}
			}
		}
	}
}

// tempPrefix starts the name of every temporary file staged for path.
func tempPrefix(path string) string { return "." + filepath.Base(path) + ".tmp-" }

// stageFile is stage without the sweep.
func stageFile(path string, data []byte) (stagedFile, error) {
	dir := filepath.Dir(path)
	mode := DefaultFileMode
	created := ""
	// A file that exists has its directory: only a new one may need
	// directories made, and most files of a commit replace one.
	if info, err := os.Stat(path); err == nil {
		if info.IsDir() {
			return stagedFile{}, fmt.Errorf("%s: is a directory where a file is expected", path)
		}
		mode = info.Mode().Perm()
	} else {
		created = topmostMissing(dir)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return stagedFile{createdDir: created}, err
		}
	}
	tmp, err := os.CreateTemp(dir, tempPrefix(path)+"*")
	if err != nil {
		return stagedFile{createdDir: created}, err
	}
	name := tmp.Name()
	fail := func(err error) (stagedFile, error) {
		_ = tmp.Close()
		_ = os.Remove(name)
		return stagedFile{createdDir: created}, err
	}
	if _, err := tmp.Write(data); err != nil {
		return fail(err)
	}
	if err := tmp.Chmod(mode); err != nil {
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		_ = os.Remove(name)
		return stagedFile{createdDir: created}, err
	}
	return stagedFile{tmp: name, target: path, createdDir: created}, nil
}

// topmostMissing returns the highest ancestor of dir (or dir itself) that
// does not exist yet, or "" when dir exists.
func topmostMissing(dir string) string {
	missing := ""
	for d := dir; ; {
		if _, err := os.Stat(d); err == nil {
			return missing
		}
		missing = d
		parent := filepath.Dir(d)
		if parent == d {
			return missing
		}
		d = parent
	}
}
