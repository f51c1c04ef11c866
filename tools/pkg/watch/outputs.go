package watch

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"k8s.io/klog/v2"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
	"github.com/gatedcrd/gatedcrd/tools/pkg/generator"
	"github.com/gatedcrd/gatedcrd/tools/pkg/genfiles"
	"github.com/gatedcrd/gatedcrd/tools/pkg/gengo"
	"github.com/gatedcrd/gatedcrd/tools/pkg/pipeline"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// outputs is what the watcher keeps to regenerate the Go files of each
// API package (Options.Outputs and Options.GengoOutputs) for the
// packages a save changed.
//
// The in-cycle generators (swagger docs) read only the package's own
// files: a cycle runs them for the packages whose Go files it saw
// change, into its run's tree, so their files are written with the
// CRDs'. The gengo generators (deepcopy, model names) need a gengo
// universe, whose load parses and type-checks every package the
// packages import from source (seconds on openshift/api, however few
// packages): they run after the cycle, in the background (Run) or when
// Settle is called, from a universe of just the packages due and what
// they import, and only for a save that changed what their output can
// depend on (codeHash): a doc-comment edit needs no load.
type outputs struct {
	// code is the codeHash of each Go file as the watcher last saw it;
	// absent when unknown or the file does not scan.
	code map[string][32]byte
	// codeEdited are the directories whose Go files' codeHash changed
	// since the last cycle.
	codeEdited map[string]bool
	// docs and later are the version directories whose in-cycle and
	// gengo outputs are due: kept until a run of them succeeds, so that
	// a failed or dropped cycle leaves them for the next.
	docs, later map[string]bool
	// disc is what the last full cycle discovered (snapshot).
	disc *discovery.Result
	// inputs counts the cycles that saw changed inputs: a gengo run that
	// started before one read sources that may have changed since.
	inputs int
	// running is set while a gengo run is under way in the background;
	// done receives its result.
	running bool
	done    chan laterResult
	// background says Run drives the watcher: gengo runs start after a
	// cycle on their own.
	background bool
}

func newOutputs() outputs {
	return outputs{code: map[string][32]byte{}, codeEdited: map[string]bool{}, docs: map[string]bool{}, later: map[string]bool{},
		done: make(chan laterResult, 1)}
}

// noteCode records the codeHash of the Go file p, data being its content
// (nil: gone), and whether it changed.
func (w *Watcher) noteCode(p string, data []byte) {
	o := &w.out
	if o.code == nil {
		*o = newOutputs()
	}
	old, known := o.code[p]
	sum, ok := codeHash(data)
	if data == nil || !ok {
		delete(o.code, p)
	} else {
		o.code[p] = sum
	}
	if data == nil || !ok || !known || old != sum {
		o.codeEdited[filepath.Dir(p)] = true
	}
}

// seedCode records the codeHash of the Go file p before the first cycle.
func (w *Watcher) seedCode(p string, data []byte) {
	if sum, ok := codeHash(data); ok {
		w.out.code[p] = sum
	}
}

// dueOutputs marks the outputs of the packages the changed inputs of a
// cycle concern: the in-cycle ones of every version whose Go files
// changed, the gengo ones of every version whose code changed and of the
// versions whose types reach a declaration of a package whose code
// changed (deepcopy of a type holding another package's type depends on
// that type: whether it is assignable, its DeepCopyInto method).
func (w *Watcher) dueOutputs(changed []string, edited declEdits) {
	o := &w.out
	if len(changed) > 0 {
		o.inputs++
	}
	for _, p := range changed {
		if w.relevant(p) == goSource {
			o.docs[filepath.Dir(p)] = true
		}
	}
	code := o.codeEdited
	o.codeEdited = map[string]bool{}
	if len(w.opts.GengoOutputs) == 0 || len(code) == 0 {
		return
	}
	maps.Copy(o.later, code)
	for _, dir := range w.importersReaching(code, edited) {
		o.later[dir] = true
	}
}

// importersReaching returns the version directories whose types reach a
// changed declaration of the packages in code, or, where the watcher
// knows no types, that import one of them.
func (w *Watcher) importersReaching(code map[string]bool, e declEdits) []string {
	g := w.graph
	if g == nil {
		return nil
	}
	changedPkgs, changedTypes := map[string]bool{}, map[string]bool{}
	for dir := range code {
		if path, ok := g.pathOf[dir]; ok {
			if e.packages[dir] || e.types[dir] == nil {
				changedPkgs[path] = true
			}
			for n := range e.types[dir] {
				changedTypes[path+"."+n] = true
			}
		}
	}
	reach := w.types.reaching(func(key string) bool {
		i := strings.LastIndexByte(key, '.')
		return changedTypes[key] || (i > 0 && changedPkgs[key[:i]])
	})
	var out []string
	for dir := range code {
		for gv := range g.byDir[dir] {
			roots, ok := w.types.roots[gv]
			if !ok || slices.ContainsFunc(roots, func(k string) bool { return reach[k] }) {
				out = append(out, g.versionDirs[gv])
			}
		}
	}
	return out
}

// snapshot keeps what a full cycle discovered: the groups, with their
// .codegen.yaml, and the versions, without their parsed files.
func (o *outputs) snapshot(d *discovery.Result) {
	if d == nil {
		return
	}
	s := &discovery.Result{BaseDir: d.BaseDir, ModulePath: d.ModulePath, ModuleDir: d.ModuleDir, Fset: d.Fset}
	for _, g := range d.Groups {
		ng := &discovery.Group{Name: g.Name, Dir: g.Dir, Config: g.Config, ConfigFile: g.ConfigFile}
		for _, v := range g.Versions {
			nv := *v
			nv.Files, nv.Unparsed = nil, nil
			ng.Versions = append(ng.Versions, &nv)
		}
		s.Groups = append(s.Groups, ng)
	}
	o.disc = s
}

// only is the snapshot restricted to the versions in dirs (which may
// name other directories: the packages a save changed that are no
// version's).
func (o *outputs) only(dirs map[string]bool) *discovery.Result {
	s := *o.disc
	s.Groups = nil
	for _, g := range o.disc.Groups {
		ng := *g
		ng.Versions = nil
		for _, v := range g.Versions {
			if dirs[v.Dir] {
				ng.Versions = append(ng.Versions, v)
			}
		}
		if len(ng.Versions) > 0 {
			s.Groups = append(s.Groups, &ng)
		}
	}
	return &s
}

// inCycle runs the in-cycle generators for the packages due into the
// cycle's tree, after its CRD stages (which may have edited doc comments:
// the compatibility lines), and lists the cycle's changes again.
func (w *Watcher) inCycle(r *pipeline.Run, changes *pipeline.Changes) error {
	o := &w.out
	if len(w.opts.Outputs) == 0 || len(o.docs) == 0 || o.disc == nil {
		return nil
	}
	disc := o.only(o.docs)
	if len(disc.Groups) == 0 {
		return nil
	}
	ctx := &generator.Context{Discovery: disc, Tree: r.Tree, Problems: r.Problems}
	if err := generator.Run(ctx, w.opts.Outputs...); err != nil {
		return err
	}
	if r.Problems.HasErrors() {
		return pipeline.ErrInput
	}
	list, _, err := r.Tree.Changes()
	if err != nil {
		return err
	}
	changes.List = list
	return nil
}

// laterRun is one run of the gengo generators.
type laterRun struct {
	dirs     map[string]bool
	disc     *discovery.Result
	patterns []string
	gens     []generator.Generator
	inputs   int
}

// klogExit is the panic that stands for klog's exit of the process
// during a gengo run.
type klogExit int

// laterResult is what a laterRun generated.
type laterResult struct {
	run      *laterRun
	tree     *tree.Tree
	problems *diag.List
	err      error
	took     time.Duration
}

// laterDue says whether a gengo run may start: outputs are due, the last
// cycle succeeded, and no run is under way.
func (w *Watcher) laterDue() bool {
	o := &w.out
	if len(o.later) == 0 || o.running || w.full || o.disc == nil || len(w.opts.GengoOutputs) == 0 {
		return false
	}
	if len(o.only(o.later).Groups) == 0 {
		clear(o.later) // no version's package
		return false
	}
	return true
}

// newLaterRun takes the due gengo outputs into a run.
func (w *Watcher) newLaterRun() *laterRun {
	o := &w.out
	j := &laterRun{dirs: o.later, disc: o.only(o.later), gens: w.opts.GengoOutputs, inputs: o.inputs}
	o.later = map[string]bool{}
	j.patterns = w.gengoPatterns(j.disc)
	return j
}

// gengoPatterns are the packages a gengo run of the versions of disc
// loads: those, and the packages they import that a whole run's load
// requests too (every API package, the Kubernetes packages OpenAPI
// documents). gengo reads the comments of the requested packages' types
// only, so a type of another package looks the same to the generators as
// in a whole run's universe, and each file is byte for byte what a bare
// codegen run writes.
func (w *Watcher) gengoPatterns(disc *discovery.Result) []string {
	api := map[string]bool{}
	for _, v := range w.out.disc.Versions() {
		api[v.ImportPath] = true
	}
	out := map[string]bool{}
	for _, v := range disc.Versions() {
		out[v.ImportPath] = true
		if w.graph == nil {
			continue
		}
		for d := range w.graph.reads[v.Name()] {
			if p, ok := w.graph.pathOf[d]; ok && (api[p] || kubernetesPackage(p)) {
				out[p] = true
			}
		}
	}
	return slices.Sorted(maps.Keys(out))
}

// kubernetesPackage says whether a whole run's gengo load requests the
// package at import path p as one OpenAPI documents.
func kubernetesPackage(p string) bool {
	for _, pat := range gengo.OpenAPIKubernetesPackages {
		if prefix, ok := strings.CutSuffix(pat, "/..."); ok {
			if p == prefix || strings.HasPrefix(p, prefix+"/") {
				return true
			}
		} else if p == pat {
			return true
		}
	}
	return false
}

// execute runs the gengo generators of j into a tree of their own. A
// generator that panics, or ends the process through klog (deepcopy-gen
// and the model name generator do on a malformed +k8s: tag, which a save
// mid-edit may hold), fails the run, not the watch: klog has printed its
// message by then.
func (j *laterRun) execute() (res laterResult) {
	start := time.Now()
	res = laterResult{run: j, tree: tree.New(), problems: &diag.List{}}
	exit := klog.OsExit
	klog.OsExit = func(code int) { panic(klogExit(code)) }
	defer func() {
		klog.OsExit = exit
		switch p := recover().(type) {
		case nil:
		case klogExit:
			res.err = errors.New("a generator stopped on the error printed above; the files stay as they were")
		default:
			res.err = fmt.Errorf("generating Go files: %v", p)
		}
		res.took = time.Since(start)
	}()
	ctx := &generator.Context{Discovery: j.disc, Tree: res.tree, Problems: res.problems, GengoPatterns: j.patterns}
	res.err = generator.Run(ctx, j.gens...)
	return res
}

// startLater starts a gengo run in the background, when one is due.
func (w *Watcher) startLater() {
	if !w.out.background || !w.laterDue() {
		return
	}
	j := w.newLaterRun()
	w.out.running = true
	go func() { w.out.done <- j.execute() }()
}

// finishLater handles the result of a background gengo run: its files
// are written, unless a cycle saw changed inputs since it started or a
// save is being collected (it may have read them half saved): its
// packages are then due again, for a run after that save's cycle.
func (w *Watcher) finishLater(res laterResult) {
	w.out.running = false
	if res.run.inputs != w.out.inputs || len(w.save.pending) > 0 {
		maps.Copy(w.out.later, res.run.dirs)
	} else {
		w.writeLater(res)
	}
	w.startLater()
}

// Settle runs the gengo generators for the packages whose outputs are
// due now, in the calling goroutine, writes their files and reports it;
// false when none are due. Run starts such runs itself after every cycle;
// tests and benchmarks that call Cycle call Settle after it.
func (w *Watcher) Settle() (Report, bool) {
	if !w.laterDue() {
		return Report{}, false
	}
	return w.writeLater(w.newLaterRun().execute()), true
}

// writeLater writes what a gengo run generated, holding the tree's write
// lock, and reports it as a line following the cycle's. A run that
// failed writes nothing, and its packages stay due.
func (w *Watcher) writeLater(res laterResult) Report {
	start := time.Now()
	rep := Report{Cycle: w.cycles, Generators: generatorNames(res.run.gens)}
	for _, v := range res.run.disc.Versions() {
		rep.Scope = append(rep.Scope, tree.Rel(w.base, v.Dir))
	}
	rep.Err = res.err
	if rep.Err == nil && res.problems.HasErrors() {
		rep.Err = pipeline.ErrInput
	}
	if rep.Err == nil {
		rep.Err = w.commitLater(res.tree, &rep)
	}
	if rep.Err != nil {
		maps.Copy(w.out.later, res.run.dirs)
	}
	for _, d := range res.problems.Items() {
		if d.Severity == diag.Error {
			rep.Errors++
		} else {
			rep.Warnings++
		}
	}
	rep.Duration = res.took + time.Since(start)
	w.printLater(rep, res.problems)
	w.report(rep)
	return rep
}

// commitLater writes the files of t that differ from the disk, and takes
// note of them as of a cycle's writes.
func (w *Watcher) commitLater(t *tree.Tree, rep *Report) error {
	lock, err := pipeline.LockWrites(w.base, w.opts.Out)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	changes, _, err := t.Changes()
	if err != nil {
		return err
	}
	if _, err := t.Commit(); err != nil {
		return err
	}
	for _, c := range changes {
		if c.Kind != tree.Create && c.Kind != tree.Update {
			continue
		}
		rep.Written++
		rep.Files = append(rep.Files, tree.Rel(w.base, c.Path))
		w.noteOwnWrite(c.Path, c.Old, c.New)
	}
	slices.Sort(rep.Files)
	return nil
}

// noteOwnWrite records a file the watcher wrote over old (nil: created),
// so that its event starts no cycle, and tells the kept packages of a Go
// file, unless they hold nothing of it before and after: a generated file
// the listing does not compile and whose build constraints stay (a
// deepcopy file), or one the load leaves out both times
// (genfiles.Unneeded: a swagger doc file). The packages would be listed
// again for nothing. Discovery sees the change itself (the file's size
// and time).
func (w *Watcher) noteOwnWrite(p string, old, data []byte) {
	w.seen[p] = sha256.Sum256(data)
	if !isGoSource(p) || old == nil {
		if isGoSource(p) {
			w.unseen = append(w.unseen, p)
		}
		return
	}
	name := filepath.Base(p)
	if genfiles.Unneeded(name, old) && genfiles.Unneeded(name, data) {
		return
	}
	if !w.session.Compiles(p) && sameConstraints(old, data) {
		return
	}
	w.unseen = append(w.unseen, p)
}

// sameConstraints says whether two contents of a Go file have the same
// text before their package clause (build constraints, file comments).
func sameConstraints(a, b []byte) bool {
	pa, oka := beforePackage(a)
	pb, okb := beforePackage(b)
	return oka && okb && bytes.Equal(pa, pb)
}

func beforePackage(src []byte) ([]byte, bool) {
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.PackageClauseOnly|parser.ParseComments)
	if err != nil {
		return nil, false
	}
	return src[:f.Package-1], true
}

func generatorNames(gens []generator.Generator) []string {
	out := make([]string, len(gens))
	for i, g := range gens {
		out[i] = g.Name()
	}
	return out
}

// printLater prints a gengo run's problems and its line.
func (w *Watcher) printLater(rep Report, problems *diag.List) {
	rel := func(s string) string { return strings.ReplaceAll(s, w.base+string(filepath.Separator), "") }
	for _, d := range problems.Items() {
		if d.Severity == diag.Warning && w.opts.Quiet {
			continue
		}
		if filepath.IsAbs(d.File) {
			d.File = tree.Rel(w.base, d.File)
		}
		fmt.Fprintf(w.opts.Out, "%s: %s\n", d.Severity, rel(d.String()))
	}
	if rep.Err != nil && !errors.Is(rep.Err, pipeline.ErrInput) {
		fmt.Fprintf(w.opts.Out, "error: %s\n", rel(rep.Err.Error()))
	}
	result := fmt.Sprintf("%d written", rep.Written)
	if rep.Err != nil {
		result = "nothing written, the files stay as they were"
	}
	fmt.Fprintf(w.opts.Out, "watch #%d: %s of %s: %s; %d error(s), %d warning(s); %s\n",
		rep.Cycle, strings.Join(rep.Generators, ", "), summarize(rep.Scope), result, rep.Errors, rep.Warnings, rep.Duration.Round(time.Millisecond))
}
