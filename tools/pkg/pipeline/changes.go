package pipeline

import (
	"context"
	"path/filepath"
	"runtime/trace"
	"strings"
	"time"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// Changes are the file changes a run computed: what Write puts on disk
// atomically, or what makes a --verify run fail.
type Changes struct {
	Run *Run
	// List holds every file to write or remove, sorted by path.
	List  []tree.Change
	Stats tree.Stats
}

// Changes computes the file changes of the run.
func (d *Documented) Changes() (*Changes, error) {
	r := d.Run
	list, stats, err := r.Tree.Changes()
	if err != nil {
		return nil, err
	}
	r.Stats.setFiles(stats)
	return &Changes{Run: r, List: list, Stats: stats}, nil
}

// Stale reports whether the files on disk differ from the run's output.
func (c *Changes) Stale() bool { return len(c.List) > 0 }

// Describe lists the changes relative to the base directory, with a diff
// of each changed file: what --verify prints.
func (c *Changes) Describe() string { return tree.Describe(c.List, c.Run.base) }

// Write commits the changes atomically (see tree.Tree.Commit), holding
// the tree's write lock (WriteLock) while it does.
func (c *Changes) Write() error {
	defer trace.StartRegion(context.Background(), "commit").End()
	start := time.Now()
	release, err := c.Run.lockForWrite()
	if err != nil {
		return err
	}
	defer release()
	if _, err := c.Run.Tree.Commit(); err != nil {
		return err
	}
	c.Run.Stats.addStage("commit", time.Since(start))
	return nil
}

// Relative renders a diagnostic with its file relative to the base
// directory, also when discovery failed before resolving it, and with
// absolute paths quoted in its message (go list's, the OS's) made
// relative too. It is the one place positions are rendered for people.
func (r *Run) Relative(d diag.Diagnostic) string {
	base := r.base
	if base == "" {
		if abs, err := filepath.Abs(r.Options.BaseDir); err == nil {
			base = abs
		}
	}
	if base != "" && filepath.IsAbs(d.File) {
		d.File = tree.Rel(base, d.File)
	}
	if base != "" {
		d.Message = strings.ReplaceAll(d.Message, base+string(filepath.Separator), "")
	}
	return d.String()
}

// RelativeText makes the paths below the base directory in text relative
// to it.
func (r *Run) RelativeText(text string) string {
	if r.base == "" {
		return text
	}
	return strings.ReplaceAll(text, r.base+string(filepath.Separator), "")
}

// BaseDir is the absolute base directory once discovery ran, else the
// option as given.
func (r *Run) BaseDir() string {
	if r.base != "" {
		return r.base
	}
	return r.Options.BaseDir
}
