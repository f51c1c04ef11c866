package partialschemas

import (
	"bytes"
	"path/filepath"
	"sync"

	"github.com/gatedcrd/gatedcrd/internal/workers"
	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// existingFile is a file of a CRD directory as the tree holds it when stage
// 1 starts: its bytes and, unless they are blank, their parse.
type existingFile struct {
	once     sync.Once
	data     []byte
	readErr  error
	obj      map[string]any
	parseErr error
}

func (f *existingFile) load(t *tree.Tree, memo *manifest.Memo, path string) {
	f.once.Do(func() {
		f.data, f.readErr = t.ReadFile(path)
		if f.readErr == nil && len(bytes.TrimSpace(f.data)) > 0 {
			f.obj, f.parseErr = memo.Parse(f.data)
		}
	})
}

// Prefetch reads and parses the existing partial manifests on every core
// while the stage walks types and markers, or, when
// the caller starts it (StartPrefetch), while the Go packages load: on a
// tree whose manifests hold their schemas, parsing them is most of stage
// 1's work, and it needs nothing the walk finds. The stage only ever reads
// a partial manifest before it writes that path (and stage 1 writes nothing
// else below the CRD directories it reads, nor does any step before it),
// so an early read sees what a late one would.
type Prefetch struct {
	t     *tree.Tree
	memo  *manifest.Memo           // parses the files; nil parses every time
	files map[string]*existingFile // not modified once the workers start
	bg    workers.Pending
}

// StartPrefetch starts reading the existing partial manifests of every
// version of d that stage 1 processes, from t, parsing them through memo
// (Input.Memo; nil parses every file), for Input.Prefetch. Call Wait if
// Run is not called with it.
func StartPrefetch(t *tree.Tree, d *discovery.Result, memo *manifest.Memo) *Prefetch {
	var dirs []string
	for _, g := range d.Groups {
		for _, v := range g.Versions {
			if !g.Config.EmptyPartialSchema.Disabled {
				dirs = append(dirs, filepath.Join(v.Dir, ManifestsDirName))
			}
		}
	}
	return startPrefetch(t, memo, dirs)
}

// startPrefetch lists the CRD directories below manifestsDirs and starts
// reading their .yaml files, in listing order.
func startPrefetch(t *tree.Tree, memo *manifest.Memo, manifestsDirs []string) *Prefetch {
	p := &Prefetch{t: t, memo: memo, files: map[string]*existingFile{}}
	var paths []string
	for _, dir := range manifestsDirs {
		crds, err := t.ReadDir(dir)
		if err != nil {
			continue // reported, if it matters, when the stage lists it
		}
		for _, c := range crds {
			if !c.IsDir {
				continue
			}
			files, err := t.ReadDir(filepath.Join(dir, c.Name))
			if err != nil {
				continue
			}
			for _, f := range files {
				if !f.IsDir && filepath.Ext(f.Name) == ".yaml" {
					path := filepath.Join(dir, c.Name, f.Name)
					paths = append(paths, path)
					p.files[path] = &existingFile{}
				}
			}
		}
	}
	p.bg.Each(len(paths), func(i int) { p.files[paths[i]].load(t, memo, paths[i]) })
	return p
}

// get returns the file at path, read and parsed ahead or now.
func (p *Prefetch) get(path string) *existingFile {
	f, ok := p.files[path]
	if !ok {
		f = &existingFile{}
	}
	f.load(p.t, p.memo, path)
	return f
}

// Wait returns once every worker is done: no read outlives the stage.
func (p *Prefetch) Wait() { p.bg.Wait() }
