package suite

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gatedcrd/gatedcrd/apitest/server"
	"github.com/gatedcrd/gatedcrd/features/payload"
	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/internal/workers"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// Options configure Run.
type Options struct {
	// BaseDir is searched for suites (see Discover). Each suite is matched
	// with the CRD files of its version directory's
	// zz_generated.crd-manifests.
	BaseDir string
	// PayloadDir holds the payload FeatureGate manifests that decide which
	// gates each CRD file has enabled. "" uses DefaultPayloadDir of
	// BaseDir when it exists, and otherwise, for the suites of each
	// version directory, the payload directory FindPayloadDir finds.
	PayloadDir string
	// Era is the payload format PayloadDir is read in (payload.ReadDirEra):
	// "" detects it, so that a pre-version directory (no file carries
	// release.openshift.io/major-version) is read by file name;
	// a repository's referenceEra forces one.
	Era payload.Era
	// Server runs the tests; nil means server.Shared(). RunPlan turns
	// its OpenAPI waits off (server.Server.SetOpenAPIWaits): no test
	// reads the OpenAPI documents.
	Server *server.Server
	// Timeout bounds each test, and each installation or removal of a
	// batch of CRDs (default 2 minutes).
	Timeout time.Duration
	// Parallel is how many variants run at once (default 4). Variants of
	// one group-version always run one after the other, so that the
	// tests of a CRD patch (initialCRDPatches) and the other tests of
	// its group-version never overlap.
	Parallel int
	// Strict rejects suite files with the defects that openshift/api's
	// own runner accepts, instead of running them as that runner does
	// (see ParseWith).
	Strict bool
	// Skip, when set, is asked about every test before it runs: a
	// non-empty reason skips the test, reported as skipped with that
	// reason. kind is OnCreate or OnUpdate.
	Skip func(s *Suite, kind, test string) (reason string)
	// Filter, when set, selects the tests to run by their full name
	// (see Variant.FullTestName); variants left without a test are not
	// installed.
	Filter func(fullTestName string) bool
	// Stats, when set, receives where RunPlan spent its time.
	Stats *Stats
	// Installed, when set, is what Server holds from earlier runs: RunPlan
	// runs first the variants whose CRD is installed already and leaves
	// the CRDs of its batches installed (see Installed). A server that
	// stays up for one run after another (apitest --serve) keeps one
	// Installed for all. Without it, RunPlan keeps the CRDs from batch to
	// batch alike, and removes them at the end.
	Installed *Installed
	// Results, when set, holds the outcomes of the tests of earlier runs
	// on Server: a test that did not change since the last run of its
	// pair is not run again, its outcome is reported again (see
	// Results). apitest --serve keeps one for all its runs unless asked
	// to run every test.
	Results *Results
}

// Stats says where a run of a plan spent its time, batch by batch: the
// installation of each batch's CRDs (until the server serves them), the
// tests, and the removal of the CRDs.
type Stats struct {
	Batches                int
	Install, Tests, Remove time.Duration
	// Kept and Updated count the CRDs that a run with Options.Installed
	// found installed with the spec it needed, and those it updated in
	// place.
	Kept, Updated int
	// Unchanged counts the tests that a run with Options.Results did
	// not run again, their outcome being that of the last run.
	Unchanged int
}

// String renders the stats for a progress line.
func (s *Stats) String() string {
	reused := ""
	if s.Kept+s.Updated > 0 {
		reused = fmt.Sprintf(" (%d kept installed, %d updated in place)", s.Kept, s.Updated)
	}
	return fmt.Sprintf("%d batches: CRD installs %v%s, tests %v, CRD removals %v",
		s.Batches, s.Install.Round(time.Millisecond), reused, s.Tests.Round(time.Millisecond), s.Remove.Round(time.Millisecond))
}

// Run runs every suite below opts.BaseDir against every CRD file it
// matches, as subtests of t: one per (suite, CRD file) named by
// Variant.TestName, holding "onCreate" and "onUpdate" subtests with one
// subtest per test. Problems with the suites themselves (see Prepare) fail
// t; the suites without problems run anyway.
func Run(t *testing.T, opts Options) {
	t.Helper()
	RunWith(testingReporter{t}, opts)
}

// Reporter is what the runner reports to: the part of *testing.T it uses.
// Run reports to a *testing.T; the apitest command has a Reporter of its
// own. Run is called from several goroutines at once (see
// Options.Parallel) and creates a subtest; a subtest without subtests of
// its own is one test.
type Reporter interface {
	Helper()
	Errorf(format string, args ...any)
	Logf(format string, args ...any)
	// Skipf marks the test skipped; the runner returns right after it.
	Skipf(format string, args ...any)
	Run(name string, f func(Reporter)) bool
	Context() context.Context
}

// PairReporter is a Reporter that wants to know which suite and CRD
// variant a (suite, CRD file) pair is: the runner calls RunPair instead of
// Run for the pair's subtest, with the name Run would get.
type PairReporter interface {
	Reporter
	RunPair(name string, v *Variant, s *Suite, f func(Reporter)) bool
}

// runPair runs the subtest of a (suite, variant) pair.
func runPair(r Reporter, v *Variant, s *Suite, f func(Reporter)) bool {
	if pr, ok := r.(PairReporter); ok {
		return pr.RunPair(v.TestName(s), v, s, f)
	}
	return r.Run(v.TestName(s), f)
}

type testingReporter struct{ *testing.T }

func (r testingReporter) Run(name string, f func(Reporter)) bool {
	return r.T.Run(name, func(t *testing.T) { f(testingReporter{t}) })
}

// RunWith is Run reporting to r.
func RunWith(r Reporter, opts Options) {
	r.Helper()
	plan, err := Prepare(opts)
	for _, e := range diag.Flatten(err) {
		r.Errorf("%v", e)
	}
	if plan != nil {
		for _, w := range plan.Warnings {
			r.Logf("warning: %v", w)
		}
	}
	RunPlan(r, plan, opts)
}

// RunPlan runs a plan made by Prepare (nil runs nothing), reporting to r.
// opts.BaseDir and opts.PayloadDir are not used: the plan holds what
// they lead to.
func RunPlan(r Reporter, plan *Plan, opts Options) {
	r.Helper()
	if opts.Timeout == 0 {
		opts.Timeout = 2 * time.Minute
	}
	if opts.Parallel <= 0 {
		opts.Parallel = 4
	}
	if plan != nil && opts.Filter != nil {
		plan = plan.Filter(opts.Filter)
	}
	if plan == nil || len(plan.Batches) == 0 {
		return
	}
	var err error
	srv := opts.Server
	if srv == nil {
		if srv, err = server.Shared(); err != nil {
			r.Errorf("starting the API server: %v", err)
			return
		}
	}
	srv.SetOpenAPIWaits(false)
	if opts.Installed == nil {
		opts.Installed = NewInstalled()
		defer removeInstalled(r, srv, opts)
	}
	plan = opts.Installed.order(plan)
	for _, batch := range plan.Batches {
		if !runBatch(r, srv, batch, opts) {
			return
		}
	}
}

// removeInstalled removes the CRDs a run without Options.Installed left
// installed, so that the server holds none of them afterwards.
func removeInstalled(r Reporter, srv *server.Server, opts Options) {
	r.Helper()
	begin := time.Now()
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), opts.Timeout)
	defer cancel()
	names := opts.Installed.Names()
	if err := opts.Installed.Remove(ctx, srv); err != nil {
		r.Errorf("removing the CRDs %s after their tests: %v", strings.Join(names, ", "), err)
	}
	if opts.Stats != nil {
		opts.Stats.Remove += time.Since(begin)
	}
}

// runBatch makes the server hold the CRDs of a batch of variants (see
// Installed.prepare), runs their suites, and removes the CRDs whose tests
// left objects behind. It returns false when those CRDs could not be
// removed, so that later batches, which reinstall the same names, are not
// attempted.
//
// The variants of one group-version run one after the other, those of
// different group-versions concurrently, opts.Parallel at a time.
func runBatch(r Reporter, srv *server.Server, batch []*Variant, opts Options) bool {
	r.Helper()
	timeout := opts.Timeout
	stats := opts.Stats
	if stats == nil {
		stats = &Stats{}
	}
	stats.Batches++
	begin := time.Now()
	ctx, cancel := context.WithTimeout(r.Context(), timeout)
	installErrs := opts.Installed.prepare(ctx, srv, batch, stats)
	cancel()
	stats.Install += time.Since(begin)
	begin = time.Now()
	groups := byGroupVersion(batch)
	workers.EachLimit(opts.Parallel, len(groups), func(i int) {
		for _, v := range groups[i] {
			for _, s := range v.Suites {
				runPair(r, v, s, func(r Reporter) {
					if err := installErrs[v]; err != nil {
						r.Errorf("%s: installing %s (version %s): %v", s.Path, v.File.Path, v.Version, err)
						return
					}
					x := &executor{srv: srv, variant: v, suite: s, timeout: timeout, filter: opts.Filter, skip: opts.Skip,
						results: opts.Results.begin(srv, v, s)}
					x.run(r)
					x.results.end()
				})
			}
		}
	})
	stats.Tests += time.Since(begin)
	stats.Unchanged += opts.Results.takeUnchanged()
	begin = time.Now()
	defer func() { stats.Remove += time.Since(begin) }()
	ctx, cancel = context.WithTimeout(context.WithoutCancel(r.Context()), timeout)
	defer cancel()
	before := opts.Installed.Names()
	err := opts.Installed.settle(ctx, srv, batch)
	for _, name := range before {
		if !slices.Contains(opts.Installed.Names(), name) {
			// Objects were left: the outcomes of its tests may depend
			// on them.
			opts.Results.forget(name)
		}
	}
	if err != nil {
		r.Errorf("removing CRDs whose tests left objects behind (later variants of them are not tested): %v", err)
		return false
	}
	return true
}

// install installs the CRDs of a batch as a whole, one per name (the
// variants of a name in a batch share it, see Plan.Batches), and if that
// fails, each on its own, so that one broken CRD fails only the suites of
// its variants. It returns the error of each variant whose CRD could not
// be installed and the CRDs installed, as the server has them.
func install(ctx context.Context, srv *server.Server, batch []*Variant) (map[*Variant]error, []*server.CRD) {
	if len(batch) == 0 {
		return nil, nil
	}
	var crds []*server.CRD
	sharing := map[string][]*Variant{}
	for _, v := range batch {
		if sharing[v.CRD.Name] == nil {
			crds = append(crds, v.CRD)
		}
		sharing[v.CRD.Name] = append(sharing[v.CRD.Name], v)
	}
	failed := func(errs map[*Variant]error, crd *server.CRD, err error) map[*Variant]error {
		for _, v := range sharing[crd.Name] {
			errs[v] = err
		}
		return errs
	}
	installed, err := srv.InstallCRDs(ctx, crds...)
	if err == nil || len(crds) == 1 {
		if err != nil {
			return failed(map[*Variant]error{}, crds[0], err), nil
		}
		return nil, installed
	}
	errs := map[*Variant]error{}
	installed = nil
	for _, crd := range crds {
		one, err := srv.InstallCRDs(ctx, crd)
		if err != nil {
			failed(errs, crd, err)
			continue
		}
		installed = append(installed, one...)
	}
	return errs, installed
}

// namespace returns the namespace a test's object of a variant is
// created in: the one its initial object names, as the suites of API
// repositories expect (their expected objects repeat it), else
// server.DefaultNamespace; none for a cluster-scoped resource. The server
// needs no Namespace object for it (see package server).
func namespace(crd *server.CRD, initial *unstructured.Unstructured) string {
	if crd.Spec.Scope != apiextensionsv1.NamespaceScoped {
		return ""
	}
	if ns := initial.GetNamespace(); ns != "" {
		return ns
	}
	return server.DefaultNamespace
}

// byGroupVersion splits a batch into its group-versions, keeping the
// order of the batch.
func byGroupVersion(batch []*Variant) [][]*Variant {
	return groupBy(batch, func(v *Variant) string { return v.CRD.Spec.Group + "/" + v.Version })
}

// byName splits a batch into the variants of each CRD name, keeping the
// order of the batch.
func byName(batch []*Variant) [][]*Variant {
	return groupBy(batch, func(v *Variant) string { return v.CRD.Name })
}

// groupBy splits a batch into groups of the variants with the same key,
// in the order each key first appears, keeping the order of the batch
// within each group.
func groupBy(batch []*Variant, key func(*Variant) string) [][]*Variant {
	index := map[string]int{}
	var groups [][]*Variant
	for _, v := range batch {
		k := key(v)
		i, ok := index[k]
		if !ok {
			i = len(groups)
			index[k] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], v)
	}
	return groups
}

// executor runs the tests of one suite against one installed variant.
type executor struct {
	srv     *server.Server
	variant *Variant
	suite   *Suite
	timeout time.Duration
	filter  func(string) bool // nil runs every test
	skip    func(s *Suite, kind, test string) string
	results *pairRun // nil reuses no outcome
}

func (x *executor) run(r Reporter) {
	runKind(x, r, OnCreate, x.suite.OnCreate, x.create)
	runKind(x, r, OnUpdate, x.suite.OnUpdate, x.update)
}

// aTest is what runKind needs of a test of either kind.
type aTest interface {
	testName() string
	testLine() int
	key() string // see Results
}

func (t CreateTest) testName() string { return t.Name }
func (t CreateTest) testLine() int    { return t.Line }
func (t UpdateTest) testName() string { return t.Name }
func (t UpdateTest) testLine() int    { return t.Line }

// runKind runs the selected tests of one kind (onCreate or onUpdate) as
// sub-tests of a group named after the kind, or reports the outcome of
// their last run when they did not change (see Results); a kind with no
// selected test reports nothing.
func runKind[T aTest](x *executor, r Reporter, kind string, tests []T, body func(Reporter, T)) {
	tests = selected(x, kind, tests, T.testName)
	if len(tests) == 0 {
		return
	}
	r.Run(kind, func(r Reporter) {
		for _, t := range tests {
			r.Run(t.testName(), func(r Reporter) {
				if x.skipped(r, kind, t.testName()) {
					return
				}
				x.results.test(r, x.suite, t.key(), t.testLine(), func(r Reporter) { body(r, t) })
			})
		}
	})
}

// skipped skips the test when Options.Skip gives a reason, and says
// whether it did.
func (x *executor) skipped(r Reporter, kind, test string) bool {
	if x.skip == nil {
		return false
	}
	reason := x.skip(x.suite, kind, test)
	if reason != "" {
		r.Skipf("%s", reason)
	}
	return reason != ""
}

// selected returns the tests of one kind that the executor's filter
// keeps.
func selected[T any](x *executor, kind string, tests []T, name func(T) string) []T {
	if x.filter == nil {
		return tests
	}
	var out []T
	for _, t := range tests {
		if x.filter(x.variant.FullTestName(x.suite, kind, name(t))) {
			out = append(out, t)
		}
	}
	return out
}

// failure reports a failed check of a test: where the suite says what
// failed, which test it was, and which CRD file it ran against.
type failure struct {
	r    Reporter
	x    *executor
	kind string // onCreate or onUpdate
	name string
}

func (f failure) at(line int, format string, args ...any) {
	f.r.Helper()
	f.r.Errorf("%s: %s test %q against %s: %s", f.x.suite.at(line), f.kind, f.name, f.x.variant.File.Path, fmt.Sprintf(format, args...))
}

func (x *executor) context(r Reporter) (context.Context, context.CancelFunc) {
	return context.WithTimeout(r.Context(), x.timeout)
}

func (x *executor) create(r Reporter, t CreateTest) {
	fail := failure{r: r, x: x, kind: OnCreate, name: t.Name}
	ctx, cancel := x.context(r)
	defer cancel()
	objects := x.objects(t.Initial)
	created, err := objects.Create(ctx, t.Initial.Object.DeepCopy())
	if err == nil {
		defer x.remove(r, objects, created)
	}
	if t.ExpectedError != "" {
		checkError(fail, t.Line, "the create", err, t.ExpectedError, created)
		return
	}
	if err != nil {
		fail.at(t.Initial.Line, "creating the initial object: %v", err)
		return
	}
	if t.Expected != nil {
		x.compare(ctx, fail, objects, created.GetName(), t.Expected)
	}
}

func (x *executor) update(r Reporter, t UpdateTest) {
	fail := failure{r: r, x: x, kind: OnUpdate, name: t.Name}
	ctx, cancel := x.context(r)
	defer cancel()
	var revert func(context.Context) error
	if len(t.InitialCRDPatches) > 0 {
		patch, err := patchJSON(t.InitialCRDPatches)
		if err == nil {
			revert, err = x.srv.PatchCRD(ctx, x.variant.CRD.Name, patch)
		}
		if err != nil {
			fail.at(t.InitialCRDPatches[0].Line, "applying initialCRDPatches: %v", err)
			return
		}
		defer func() {
			if revert == nil {
				return
			}
			// Revert even when the test's context has ended: later tests
			// need the CRD as generated.
			ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), x.timeout)
			defer cancel()
			if err := revert(ctx); err != nil {
				fail.at(t.InitialCRDPatches[0].Line, "reverting initialCRDPatches: %v", err)
			}
		}()
	}
	objects := x.objects(t.Initial)
	obj, err := objects.Create(ctx, t.Initial.Object.DeepCopy())
	if err != nil {
		fail.at(t.Initial.Line, "creating the initial object: %v", err)
		return
	}
	defer x.remove(r, objects, obj)
	if t.Initial.hasStatus() && x.hasStatusSubresource() {
		obj, err = objects.UpdateStatus(ctx, withStatusOf(obj, t.Initial.Object))
		if err != nil {
			fail.at(t.Initial.Line, "setting the status of the initial object: %v", err)
			return
		}
	}
	if revert != nil {
		err := revert(ctx)
		revert = nil
		if err != nil {
			fail.at(t.InitialCRDPatches[0].Line, "reverting initialCRDPatches: %v", err)
			return
		}
	}
	updated := t.Updated.Object.DeepCopy()
	updated.SetName(obj.GetName())
	updated.SetResourceVersion(obj.GetResourceVersion())
	stored, err := objects.Update(ctx, updated)
	if t.ExpectedError != "" {
		checkError(fail, t.Line, "the update", err, t.ExpectedError, stored)
		return
	}
	if err != nil {
		fail.at(t.Updated.Line, "updating the object: %v", err)
		return
	}
	switch {
	case t.Updated.hasStatus() && x.hasStatusSubresource():
		stored, err = objects.UpdateStatus(ctx, withStatusOf(stored, t.Updated.Object))
		if t.ExpectedStatusError != "" {
			checkError(fail, t.Line, "the status update", err, t.ExpectedStatusError, stored)
			return
		}
		if err != nil {
			fail.at(t.Updated.Line, "updating the status of the object: %v", err)
			return
		}
	case t.ExpectedStatusError != "":
		fail.at(t.Line, "expectedStatusError: version %s of the CRD has no status subresource, so the status is updated with the object and no status update can fail",
			x.variant.Version)
		return
	}
	if t.Expected != nil {
		x.compare(ctx, fail, objects, obj.GetName(), t.Expected)
	}
}

// checkError checks the outcome of an operation that should fail with an
// error containing want. obj is what the operation returned.
func checkError(fail failure, line int, operation string, err error, want string, obj *unstructured.Unstructured) {
	fail.r.Helper()
	if err == nil {
		persisted := ""
		if obj != nil {
			shown := obj.DeepCopy()
			shown.SetManagedFields(nil)
			persisted = "\nthe persisted object is:\n" + indent(toYAML(shown.Object))
		}
		fail.at(line, "%s succeeded, want an error containing\n\t%s%s", operation, want, persisted)
		return
	}
	if !strings.Contains(err.Error(), want) {
		fail.at(line, "%s failed with\n\t%v\nwant an error containing\n\t%s", operation, err, want)
	}
}

// compare reads the persisted object and compares it with expected.
func (x *executor) compare(ctx context.Context, fail failure, objects *server.Objects, name string, expected *Object) {
	persisted, err := objects.Get(ctx, name)
	if err != nil {
		fail.at(expected.Line, "reading the persisted object: %v", err)
		return
	}
	if diff := Compare(expected.Object.Object, persisted.Object); diff != "" {
		fail.at(expected.Line, "the persisted object differs from expected:\n%s", indent(diff))
	}
}

// objects returns the objects of the variant's resource in the namespace
// of a test whose initial object is initial.
func (x *executor) objects(initial Object) *server.Objects {
	return x.srv.Objects(server.Resource(x.variant.CRD, x.variant.Version), namespace(x.variant.CRD, initial.Object))
}

func (x *executor) hasStatusSubresource() bool {
	for _, v := range x.variant.CRD.Spec.Versions {
		if v.Name == x.variant.Version {
			return v.Subresources != nil && v.Subresources.Status != nil
		}
	}
	return false
}

// remove deletes an object a test created, so that a test giving its
// object a fixed name does not collide with the next one. The CRD's
// removal after the batch would delete it anyway, so failures are only
// logged.
func (x *executor) remove(r Reporter, objects *server.Objects, obj *unstructured.Unstructured) {
	if obj == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), x.timeout)
	defer cancel()
	if err := objects.Delete(ctx, obj.GetName()); err != nil && !apierrors.IsNotFound(err) {
		r.Logf("deleting %s after the test: %v", obj.GetName(), err)
	}
}

// withStatusOf returns a copy of obj carrying the status of from.
func withStatusOf(obj, from *unstructured.Unstructured) *unstructured.Unstructured {
	out := obj.DeepCopy()
	out.Object["status"] = runtime.DeepCopyJSONValue(from.Object["status"])
	return out
}

// patchJSON renders patch operations as an RFC 6902 document.
func patchJSON(ops []PatchOperation) ([]byte, error) {
	doc := make([]map[string]any, len(ops))
	for i, op := range ops {
		m := map[string]any{"op": op.Op, "path": op.Path}
		if op.From != "" {
			m["from"] = op.From
		}
		if op.Value != nil {
			m["value"] = json.RawMessage(op.Value)
		}
		doc[i] = m
	}
	return json.Marshal(doc)
}

func indent(text string) string {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	return "\t" + strings.Join(lines, "\n\t")
}
