package watch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
	"github.com/gatedcrd/gatedcrd/tools/pkg/generator"
	"github.com/gatedcrd/gatedcrd/tools/pkg/goload"
	"github.com/gatedcrd/gatedcrd/tools/pkg/pipeline"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// DefaultDebounce is how long the events of one save must have stopped
// before a cycle starts: editors save by several writes, or by writing a
// new file and renaming it over the old one, within a few milliseconds.
const DefaultDebounce = 75 * time.Millisecond

// eventBuffer is how many notifications wait for the watcher in
// fsnotify's channel: a cycle started at once takes those that came while
// it ran just before it writes (superseded), and they must be there, not
// in the kernel's queue behind a notification fsnotify could not hand on.
const eventBuffer = 256

// Options configure a Watcher.
type Options struct {
	// NewRun returns the pipeline run of one cycle, with the options of a
	// one-shot crd-manifests run (pipeline.New). The watcher sets its
	// Keep, LoadUniverse, WriteLock and OnLoaded and restricts
	// GroupVersions for an incremental cycle; it must run every stage.
	NewRun func() *pipeline.Run
	// BeforeReport, when set, is called after a cycle's generation,
	// before its problems are printed (codegen adds the strict baseline's
	// report there).
	BeforeReport func(*pipeline.Run)
	// Debounce is DefaultDebounce when zero.
	Debounce time.Duration
	// Out receives one line per cycle and the cycle's problems, as a
	// one-shot run prints them ("warning: file:line: ...").
	Out io.Writer
	// Quiet prints only errors and the cycle lines.
	Quiet bool
	// Full makes every cycle a full run (no group-version restriction).
	Full bool
	// OnCycle, when set, is called with the report of every cycle.
	OnCycle func(Report)
	// Observe, when set, names files that are no input of the
	// generation but whose changes a cycle reports (in Report.Changed)
	// without regenerating anything for them: codegen watch --suites
	// re-runs the API test suites that were edited.
	Observe func(path string) bool
	// Outputs are generators of each API package's own Go files that
	// read only that package's files (codegen passes swaggerdocs, with
	// its flags): a cycle runs them, after the CRD stages and into the
	// same tree, for the packages whose Go files changed, restricted as
	// --api-group-versions restricts a run, so their files are written
	// with the CRDs'. Each group's .codegen.yaml applies as in a bare
	// codegen run.
	Outputs []generator.Generator
	// GengoOutputs are such generators that need a gengo universe
	// (deepcopy, modelname): they run after a cycle that saw the code or
	// +k8s: tags of a package change (not for doc comments alone), for
	// that package and the packages whose types reach a changed
	// declaration of it, from a universe of just those and what they
	// import; in the background under Run (a cycle of a later save does
	// not wait for them), else when Settle is called. Their report has
	// Generators set.
	GengoOutputs []generator.Generator
}

// Report is what one cycle did.
type Report struct {
	// Cycle counts from 1, the full run at the start. A run of
	// Options.GengoOutputs has the number of the last cycle.
	Cycle int
	// Generators, set for a run of Options.GengoOutputs, name its
	// generators; its Scope then lists the package directories it
	// regenerated the files of, relative to the base directory.
	Generators []string
	// Changed are the inputs that changed since the last cycle, relative
	// to the base directory (none for the first).
	Changed []string
	// Scope are the group-versions regenerated; nil for a full run.
	Scope []string
	// Kinds restricts Scope further (pipeline.Options.Kinds): for a
	// group-version it lists, only the CRDs of these root types were
	// regenerated (the types of its package reaching a changed
	// declaration); nil when every CRD of Scope was.
	Kinds map[string][]string
	// Written and Removed count the files written and removed.
	Written, Removed int
	// Files are the files written (created or changed), relative to the
	// base directory, sorted.
	Files []string
	// Errors and Warnings count the problems reported.
	Errors, Warnings int
	// Err is the cycle's error: pipeline.ErrInput (wrapped) for bad input,
	// with the problems printed, or a failure to read or write files.
	Err error
	// Duration is the wall time from the start of the cycle to its files
	// being on disk.
	Duration time.Duration
	// Waited is how long the save's events had to be quiet before the
	// cycle started: zero after Go files renamed into place that parse
	// (the cycle starts at once), RenameSettle for them when such a
	// cycle was superseded by a later event before it wrote, else the
	// debounce; zero for the first cycle and for Cycle called directly.
	Waited time.Duration
	// PackagesKept says the cycle used the Go packages kept from the
	// previous cycles without listing them with the go command;
	// PackagesInvalidated is how many of them it parsed and
	// type-checked again (the changed packages and their importers).
	PackagesKept        bool
	PackagesInvalidated int
}

// Watcher watches one tree. Its methods must not be called concurrently.
type Watcher struct {
	opts Options
	base string
	fsw  *fsnotify.Watcher
	// watched are the directories being watched.
	watched map[string]bool
	// seen is the content hash of each input as the watcher last saw it
	// or wrote it ("" hash: absent); an event that leaves it as it was
	// starts no cycle.
	seen map[string][32]byte
	// graph is what the last loads read (nil until a load succeeded).
	graph *graph
	// full makes the next cycle a full run (the first one, and after a
	// failed cycle, whose files were not written).
	full   bool
	cycles int
	// payloadDir, moduleDir are known once a run discovered the tree.
	payloadDir, moduleDir string
	// session keeps the loaded Go packages between cycles; unseen are the
	// changed Go files it has not been told about yet.
	session *goload.Session
	unseen  []string
	// keep is what each cycle's run keeps for the next (pipeline.Keep).
	// Its discovery memo keeps the listings of the watched directories;
	// an event forgets its directory, a cycle the directories of the
	// files that changed, and everything before it loads the Go packages
	// afresh.
	keep *pipeline.Keep
	// decls hashes the declarations of each Go file (declHashes) as the
	// watcher last saw it; edited collects which declarations the saves
	// since the last cycle changed.
	decls  map[string]map[string][32]byte
	edited declEdits
	// parsed are the Go files of the save being collected parsed while
	// it waited for quiet or before its cycle (collect, complete), for
	// changedOf.
	parsed map[string]parsedGo
	// save collects the events of the save under way (Run). speculative
	// says the cycle under way started without waiting for quiet: it is
	// dropped if a later event supersedes it before it writes. carried
	// and the edits put back in edited are those of dropped cycles, for
	// the next one; runErr is a notification error met meanwhile.
	save        save
	speculative bool
	carried     []string
	runErr      error
	// types is the type graph of the root packages the cycles checked.
	types typeRefs
	// written and replaced hold the contents of the YAML files the
	// current cycle wrote and those it replaced or removed, for the
	// keep's manifest memo (see memo.go).
	written, replaced [][]byte
	// out is what the watcher keeps to regenerate the Go files of the
	// packages the saves change (outputs.go).
	out outputs
}

// New returns a watcher of the tree at baseDir. Close it when done.
func New(baseDir string, opts Options) (*Watcher, error) {
	if opts.NewRun == nil {
		return nil, errors.New("watch: Options.NewRun is required")
	}
	if opts.Debounce == 0 {
		opts.Debounce = DefaultDebounce
	}
	if opts.Out == nil {
		opts.Out = io.Discard
	}
	base, err := filepath.Abs(baseDir)
	if err != nil {
		return nil, err
	}
	if real, err := filepath.EvalSymlinks(base); err == nil {
		base = real
	}
	fsw, err := fsnotify.NewBufferedWatcher(eventBuffer)
	if err != nil {
		return nil, fmt.Errorf("watch: %w", err)
	}
	w := &Watcher{opts: opts, base: base, fsw: fsw, watched: map[string]bool{}, seen: map[string][32]byte{}, full: true,
		decls: map[string]map[string][32]byte{}, parsed: map[string]parsedGo{},
		session: goload.NewSession(base), keep: pipeline.NewKeep(), out: newOutputs()}
	if err := w.watchTree(base); err != nil {
		fsw.Close()
		return nil, err
	}
	// Every change to a watched directory's entries comes as an event,
	// which forgets the directory (event).
	w.keep.Directories().KeepListings(func(dir string) bool { return w.watched[dir] })
	return w, nil
}

// Close stops watching, once the parses the last cycle started are done,
// and ends the validation programs the cycles kept running.
func (w *Watcher) Close() error {
	return errors.Join(w.keep.Close(), w.fsw.Close())
}

// Run runs the first, full cycle, then a cycle after every change, until
// ctx is done. It returns nil when ctx ends it, or an error of the
// file-notification machinery.
func (w *Watcher) Run(ctx context.Context) error {
	// Seed before the first cycle, not after: a save made while it runs
	// (or right after it reports) must differ from what was seen.
	w.seed()
	w.out.background = true
	w.Cycle(nil)
	s := &w.save
	s.pending = map[string]bool{}
	for {
		select {
		case <-ctx.Done():
			if s.timer != nil {
				s.timer.Stop()
			}
			return nil
		case err, ok := <-w.fsw.Errors:
			if !ok {
				return nil
			}
			if err := w.lost(err); err != nil {
				return err
			}
		case ev, ok := <-w.fsw.Events:
			if !ok {
				return nil
			}
			w.collect(ev)
		case res := <-w.out.done:
			w.finishLater(res)
		case <-s.fire:
			s.fire = nil
			if s.waited == 0 && w.superseded() {
				// More of a burst of saves was already queued behind
				// the timer: wait for the burst to end instead of
				// starting a cycle to drop.
				if w.runErr != nil {
					return w.runErr
				}
				continue
			}
			if !s.q.slow && !complete(s.pending, w.parsed) {
				// Caught mid-write: wait the rest of the full debounce.
				s.q.slow = true
				s.arm(w.opts.Debounce - s.waited)
				s.waited = w.opts.Debounce
				continue
			}
			s.q.reset()
			changed := w.changedOf(s.pending)
			clear(s.pending)
			changed = w.withCarried(changed)
			if len(changed) > 0 || w.full {
				w.speculative = s.waited == 0
				w.cycle(changed, s.waited)
				w.speculative = false
			}
			if w.runErr != nil {
				return w.runErr
			}
		}
	}
}

// event handles one notification: it watches new directories and says
// whether the event may concern an input.
func (w *Watcher) event(ev fsnotify.Event) bool {
	p := filepath.Clean(ev.Name)
	// Whatever it is, the entry may change what discovery finds there
	// (a package clause, a go.mod): discovery lists the directory again.
	w.keep.Directories().Forget(filepath.Dir(p))
	if ev.Has(fsnotify.Create) {
		if info, err := os.Stat(p); err == nil && info.IsDir() {
			if skipDir(p, filepath.Base(p)) {
				return false
			}
			// A new directory may bring a package or overrides; its
			// files may have been written before the watch was added.
			_ = w.watchTree(p)
			w.full = true
			return true
		}
	}
	if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
		if w.watched[p] {
			delete(w.watched, p)
			_ = w.fsw.Remove(p)
			w.full = true
			return true
		}
	}
	return w.relevant(p) != notInput
}

// Cycle runs one cycle now for the given changed inputs (absolute paths;
// none for a full run) and reports it. Run calls it; benchmarks and tests
// may call it directly after editing files themselves.
func (w *Watcher) Cycle(changed []string) Report { return w.cycle(changed, 0) }

// cycle is Cycle for a save whose events were quiet for waited.
func (w *Watcher) cycle(changed []string, waited time.Duration) Report {
	start := time.Now()
	w.cycles++
	rep := Report{Cycle: w.cycles, Waited: waited}
	for _, p := range changed {
		rep.Changed = append(rep.Changed, tree.Rel(w.base, p))
	}
	fresh := w.full || !w.keepsPackages(changed)
	w.forgetDiscovered(changed, fresh)
	for _, p := range changed {
		if w.relevant(p) == goSource {
			w.unseen = append(w.unseen, p)
		}
	}
	edited := w.edited
	w.edited = declEdits{}
	for _, p := range changed {
		// A change that did not come through changedOf: any type.
		if dir := filepath.Dir(p); w.relevant(p) == goSource && !edited.has(dir) {
			edited.add(dir, nil, true)
			w.out.codeEdited[dir] = true
		}
	}
	w.dueOutputs(changed, edited)
	scope, full := w.scope(changed)
	var kinds map[string][]string
	if !full {
		kinds = w.kindsReaching(scope, edited, w.overridden(changed))
		scope = w.withoutUnreached(scope, kinds, edited)
	}
	if !full && len(scope) == 0 {
		// Nothing that a selected group-version reads changed.
		rep.Scope = scope
		rep.Duration = time.Since(start)
		w.print(rep, nil)
		w.report(rep)
		return rep
	}
	if !full {
		// A restricted cycle allocates a few hundred MiB at most; a
		// full one, the first above all, would grow the process to the
		// memory limit.
		releaseGC := holdGC()
		defer releaseGC()
	}
	r, err := w.generate(scope, kinds, fresh)
	if err != nil && !full && !errors.Is(err, errSuperseded) {
		// A restricted run found errors: run in full, so that what is
		// reported is what a one-shot run reports.
		scope, kinds = nil, nil
		r, err = w.generate(nil, nil, true)
	}
	if errors.Is(err, errSuperseded) {
		w.drop(changed, edited)
		return Report{}
	}
	rep.PackagesKept, rep.PackagesInvalidated = r.kept, r.invalidated
	if !full {
		rep.Scope, rep.Kinds = scope, kinds
	}
	rep.Err = err
	if err != nil {
		w.full = true
	} else {
		w.full = false
	}
	rep.Written, rep.Removed = r.written, r.removed
	for _, p := range r.files {
		rep.Files = append(rep.Files, tree.Rel(w.base, p))
	}
	sort.Strings(rep.Files)
	for _, d := range r.run.Problems.Items() {
		if d.Severity == diag.Error {
			rep.Errors++
		} else {
			rep.Warnings++
		}
	}
	rep.Duration = time.Since(start)
	w.print(rep, r.run)
	w.report(rep)
	w.remember(r)
	w.afterCycle(err == nil)
	if scope == nil {
		collectAfterFullRun()
	}
	w.startLater()
	return rep
}

// drop forgets a cycle a later event superseded: its changed inputs and
// the declarations they changed are carried to the next cycle, which
// regenerates what they reach along with what the later saves do.
func (w *Watcher) drop(changed []string, edited declEdits) {
	w.cycles--
	w.carried = append(w.carried, changed...)
	w.edited.merge(edited)
}

// withCarried adds to changed the inputs of the cycles dropped since the
// last one that ran, sorted and once each.
func (w *Watcher) withCarried(changed []string) []string {
	if len(w.carried) == 0 {
		return changed
	}
	out := slices.Concat(changed, w.carried)
	w.carried = nil
	slices.Sort(out)
	return slices.Compact(out)
}

func (w *Watcher) report(rep Report) {
	if w.opts.OnCycle != nil {
		w.opts.OnCycle(rep)
	}
}

// forgetDiscovered drops what discovery keeps of the directories of the
// changed files, or of every directory before a cycle that loads the Go
// packages afresh: a new or removed directory, a lost event or a change
// to go.mod or the configuration may concern any.
func (w *Watcher) forgetDiscovered(changed []string, fresh bool) {
	if fresh {
		w.keep.Directories().Reset()
		return
	}
	for _, p := range changed {
		w.keep.Directories().Forget(filepath.Dir(p))
	}
}

// cycleRun is one pipeline run of a cycle and what it wrote.
type cycleRun struct {
	run              *pipeline.Run
	written, removed int
	files            []string // the files written
	// kept says the run's packages came from the session's kept ones,
	// invalidated how many of them it loaded again.
	kept        bool
	invalidated int
	// changes are what a successful run wrote; loaded and
	// universe what it loaded (nil when it loaded nothing), all of the
	// tree when full. The watcher takes note of them once the cycle is
	// reported (remember).
	changes  []tree.Change
	loaded   *graph
	universe *goload.Universe
	full     bool
}

// keepsPackages says whether the loaded Go packages may be kept across
// changed: Go files (the session decides for each whether the go command
// must list the packages again), overrides and payload files, which no
// package load reads.
func (w *Watcher) keepsPackages(changed []string) bool {
	for _, p := range changed {
		switch w.relevant(p) {
		case goSource, override, payloadFile, observed:
		default:
			return false
		}
	}
	return true
}

// generate runs the pipeline, restricted to scope when not nil (and to
// the CRDs of kinds, pipeline.Options.Kinds), holding
// the write lock from the start of the generation to the end of the
// write, and writes the changes. Its Go packages come from the session:
// listed and loaded afresh when fresh, else the kept ones with those the
// changed files invalidate loaded again.
func (w *Watcher) generate(scope []string, kinds map[string][]string, fresh bool) (out cycleRun, err error) {
	r := w.opts.NewRun()
	out.run = r
	defer func() {
		if err != nil && !errors.Is(err, errSuperseded) {
			// A failed run may leave packages half-indexed.
			w.session.Forget()
		}
	}()
	r.Options.Keep = w.keep
	r.Options.LoadUniverse = func(_ string, paths []string, opts goload.Options) (*goload.Universe, error) {
		u, kept, err := w.session.Universe(paths, w.unseen, fresh, opts)
		if err != nil {
			return nil, err
		}
		w.unseen = nil
		if kept {
			out.kept, out.invalidated = true, w.session.Invalidated
		}
		return u, nil
	}
	lock, err := pipeline.LockWrites(w.base, w.opts.Out)
	if err != nil {
		r.Problems.AddError(err)
		return out, err
	}
	defer lock.Unlock()
	r.Options.WriteLock = lock
	if scope != nil {
		r.Options.GroupVersions = scope
		r.Options.Kinds = kinds
	}
	var loaded *graph
	var universe *goload.Universe
	var disc *discovery.Result
	r.Options.OnLoaded = func(l *pipeline.Loaded) { loaded, universe, disc = graphOf(l), l.Universe, l.Discovery }
	changes, err := r.Generate()
	if w.speculative && w.superseded() {
		if err != nil {
			w.session.Forget()
			w.full = true
		}
		return out, errSuperseded
	}
	if w.opts.BeforeReport != nil {
		w.opts.BeforeReport(r)
	}
	if err != nil {
		return out, err
	}
	w.payloadDir = r.PayloadDir()
	if scope == nil {
		w.out.snapshot(disc)
	}
	if err := w.inCycle(r, changes); err != nil {
		return out, err
	}
	if err := changes.Write(); err != nil {
		return out, err
	}
	clear(w.out.docs)
	for _, c := range changes.List {
		switch c.Kind {
		case tree.Create, tree.Update:
			out.written++
			out.files = append(out.files, c.Path)
		default:
			out.removed++
		}
	}
	out.changes, out.loaded, out.universe, out.full = changes.List, loaded, universe, scope == nil
	if loaded != nil {
		// Before the report: a save right after it must be seen.
		for _, dir := range loaded.watchDirs(w.base) {
			_ = w.add(dir)
		}
	}
	if w.payloadDir != "" && !within(w.base, w.payloadDir) {
		_ = w.add(w.payloadDir)
	}
	return out, nil
}

// remember takes note of what a successful run wrote and loaded, once its
// cycle is reported: nothing needs it before the next event is taken, and
// the author waits for the report. It records the content of each file
// written, so that the events of the watcher's own writes start no cycle,
// and hands it to the memo (noteWritten); and the types and package graph
// that the next cycles are restricted by.
func (w *Watcher) remember(r cycleRun) {
	for _, c := range r.changes {
		if c.Kind == tree.Create || c.Kind == tree.Update {
			w.noteOwnWrite(c.Path, c.Old, c.New)
		}
		w.noteWritten(c)
	}
	if r.loaded != nil {
		w.recordTypes(r.loaded, r.universe, r.full)
		w.moduleDir = r.loaded.moduleDir
		w.graph = w.graph.update(r.loaded, r.full)
	}
}

// recordTypes records the types of the root packages a successful run
// type-checked; a root it did not check has its types forgotten (all its
// CRDs regenerate when a change concerns it). A full run's replace the
// graph, so types deleted or renamed since do not stay in it.
func (w *Watcher) recordTypes(g *graph, u *goload.Universe, full bool) {
	if full || w.types.refs == nil {
		w.types = typeRefs{refs: map[string][]string{}, roots: map[string][]string{}}
	}
	names := map[string]string{}
	for gv, path := range g.versionPaths {
		names[path] = gv
	}
	for _, root := range u.Roots {
		gv, ok := names[root.PkgPath]
		switch {
		case !ok:
		case root.Types == nil:
			delete(w.types.roots, gv)
		default:
			w.types.record(gv, root.Types)
		}
	}
}

// print writes the cycle's problems, as a one-shot run prints them, and
// its line.
func (w *Watcher) print(rep Report, r *pipeline.Run) {
	out := w.opts.Out
	if r != nil {
		for _, d := range r.Problems.Items() {
			if d.Severity == diag.Warning && w.opts.Quiet {
				continue
			}
			fmt.Fprintf(out, "%s: %s\n", d.Severity, r.Relative(d))
		}
		if rep.Err != nil && !errors.Is(rep.Err, pipeline.ErrInput) {
			fmt.Fprintf(out, "error: %s\n", r.RelativeText(rep.Err.Error()))
		}
	}
	what := "full run"
	if len(rep.Changed) > 0 {
		what = summarize(rep.Changed)
	}
	scope := ""
	if rep.Scope != nil {
		scope = fmt.Sprintf(" [%s]", strings.Join(scopeNames(rep), ", "))
		if len(rep.Scope) == 0 {
			scope = " [no group-version selected reads it]"
		}
	}
	if rep.PackagesKept {
		scope += fmt.Sprintf(" (Go packages kept, %d loaded again)", rep.PackagesInvalidated)
	}
	result := fmt.Sprintf("%d written, %d removed", rep.Written, rep.Removed)
	if rep.Err != nil {
		result = "nothing written, the files of the last good cycle stay"
	}
	fmt.Fprintf(out, "watch #%d: %s%s: %s; %d error(s), %d warning(s); %s\n",
		rep.Cycle, what, scope, result, rep.Errors, rep.Warnings, rep.Duration.Round(time.Millisecond))
}

// scopeNames names the group-versions of a restricted cycle, with the
// number of root types whose CRDs it regenerated when it did not
// regenerate them all.
func scopeNames(rep Report) []string {
	out := make([]string, len(rep.Scope))
	for i, gv := range rep.Scope {
		out[i] = gv
		if kinds, ok := rep.Kinds[gv]; ok {
			out[i] = fmt.Sprintf("%s: %d type(s) reach the change", gv, len(kinds))
		}
	}
	return out
}

// summarize names the changed files, at most three.
func summarize(changed []string) string {
	if len(changed) <= 3 {
		return strings.Join(changed, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(changed[:3], ", "), len(changed)-3)
}

// scope decides what a cycle regenerates: full, or the group-versions
// that read one of the changed inputs (possibly none).
func (w *Watcher) scope(changed []string) ([]string, bool) {
	if w.full || w.opts.Full || w.graph == nil || !w.graph.partialSafe || len(changed) == 0 {
		return nil, true
	}
	affected := map[string]bool{}
	for _, p := range changed {
		switch w.relevant(p) {
		case goSource:
			gvs, ok := w.graph.byDir[filepath.Dir(p)]
			if !ok {
				return nil, true
			}
			for gv := range gvs {
				affected[gv] = true
			}
		case override:
			gv, ok := w.graph.versionOf(p)
			if !ok {
				return nil, true
			}
			affected[gv] = true
		case observed:
			// Read by no group-version.
		default:
			return nil, true
		}
	}
	out := []string{}
	for gv := range affected {
		out = append(out, gv)
	}
	sort.Strings(out)
	return out, false
}

// overridden returns the group-versions whose overrides changed: all
// their CRDs regenerate.
func (w *Watcher) overridden(changed []string) map[string]bool {
	out := map[string]bool{}
	for _, p := range changed {
		if w.relevant(p) != override {
			continue
		}
		if gv, ok := w.graph.versionOf(p); ok {
			out[gv] = true
		}
	}
	return out
}

// inputKind classifies a path.
type inputKind int

const (
	notInput inputKind = iota
	goSource
	override
	config
	payloadFile
	observed // Options.Observe
)
