package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/gatedcrd/gatedcrd/internal/kubeprogram"
)

// WriteLock is an exclusive lock on writing the generated files of one Go
// module: every run that writes (Changes.Write) holds it while it commits,
// and codegen watch for a whole cycle, as codegen's writing commands do
// for a whole run (they take it before reading the tree), so that a
// one-shot run (make update-codegen-crds) and a running watch never
// interleave their writes, nor write files generated from sources older
// than those the other wrote from. It is an advisory lock (flock on unix) on a file in the gatedcrd
// cache directory named after the module directory, so the tree itself
// gets no new file; the operating system releases it when the process
// ends, however it ends.
type WriteLock struct {
	f *os.File
}

// WriteLockPath is the lock file of the tree at baseDir: one per Go module
// (the nearest directory with a go.mod, else baseDir itself), so runs with
// different --base-dir values inside one module share it.
func WriteLockPath(baseDir string) (string, error) {
	dir, err := filepath.Abs(baseDir)
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	key := dir
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			key = d
			break
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	cache, err := kubeprogram.CacheDir()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(key))
	return filepath.Join(cache, "locks", hex.EncodeToString(sum[:12])+".lock"), nil
}

// LockWrites takes the write lock of the tree at baseDir, waiting for
// another holder to release it. When it has to wait longer than a moment
// it says so on progress (when not nil), once.
func LockWrites(baseDir string, progress io.Writer) (*WriteLock, error) {
	p, err := WriteLockPath(baseDir)
	if err != nil {
		return nil, fmt.Errorf("write lock: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return nil, fmt.Errorf("write lock: %w", err)
	}
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("write lock: %w", err)
	}
	if ok, err := tryLock(f); err != nil || ok {
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("write lock %s: %w", p, err)
		}
		return &WriteLock{f: f}, nil
	}
	waiting := time.AfterFunc(200*time.Millisecond, func() {
		if progress != nil {
			fmt.Fprintf(progress, "codegen: waiting for another codegen run writing this tree (lock %s)\n", p)
		}
	})
	err = lock(f)
	waiting.Stop()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("write lock %s: %w", p, err)
	}
	return &WriteLock{f: f}, nil
}

// Unlock releases the lock; calling it again does nothing.
func (l *WriteLock) Unlock() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := unlock(l.f)
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	l.f = nil
	return err
}

// lockForWrite takes the write lock for Changes.Write unless the caller
// holds it for the whole run (Options.WriteLock); the returned function
// releases what it took.
func (r *Run) lockForWrite() (func(), error) {
	if r.Options.WriteLock != nil {
		return func() {}, nil
	}
	l, err := LockWrites(r.BaseDir(), r.Options.Progress)
	if err != nil {
		return nil, err
	}
	return func() { _ = l.Unlock() }, nil
}
