package manifestmerge

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"sigs.k8s.io/structured-merge-diff/v6/typed"

	"github.com/gatedcrd/gatedcrd/features/featuregate"
	fgpayload "github.com/gatedcrd/gatedcrd/features/payload"
	"github.com/gatedcrd/gatedcrd/internal/workers"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// Input is what the stage needs.
type Input struct {
	// Discovery lists the API group-versions to process. Groups whose
	// .codegen.yaml disables manifestMerge are skipped.
	Discovery *discovery.Result
	// Tree is read for the partial manifests and overrides (including files
	// earlier stages wrote in the same run) and receives the outputs.
	Tree *tree.Tree
	// Problems receives every problem found in the inputs. When nil, Run
	// returns the errors it would have recorded as its error.
	Problems *diag.List
	// Files are the manifests stage 2 produced in the same process; the
	// stage takes them as they are instead of reading and parsing their
	// files again. Every other input is read through the Tree (all of
	// them, for the separate sub-command).
	Files []*manifest.File
	// Payload is the payload FeatureGate directory, as
	// features/payload read it; its Path names it in messages. Without a
	// versioned manifest in it the stage fails.
	Payload *fgpayload.Directory
	// Era is the era of the reference whose rules the stage follows (see
	// fgpayload.Era); "" means the era the payload directory was read in
	// (Payload.Era). Its payload format must be the directory's.
	Era fgpayload.Era
	// Untouched are the CRDs a restricted run leaves alone: they are not
	// merged, and their outputs stay in the output directory.
	Untouched manifest.Untouched
	// Subtrees, when set, renders the merged CRDs, reusing the text of
	// what it rendered before (codegen watch keeps one from cycle to
	// cycle); nil renders each with manifest.Marshal.
	Subtrees *manifest.Subtrees

	// inspect, when set, sees the CRD jobs once merged and decided,
	// before their files are written: tests compare the decisions with
	// the written annotations.
	inspect func(jobs []*crdJob)
}

// Result says what the stage did, for progress output.
type Result struct {
	// Versions are the processed version directories, in discovery order.
	// Version directories without a featuregated directory are absent.
	Versions []*VersionResult
}

// VersionResult is the work done for one version directory.
type VersionResult struct {
	// Group is the API group name, Dir the absolute version directory.
	Group, Dir string
	// CRDs are the CRDs of the featuregated directory, sorted by name.
	CRDs []*CRDResult
	// Written lists the absolute paths written through the tree (outputs
	// and doc.go), whether or not their content changed.
	Written []string
	// Outputs are the merged CRD files among them, in the order written,
	// as values: the checks after the merge take them instead of reading
	// and parsing the files again.
	Outputs []*Output
	// Removed lists the absolute paths of stale outputs removed.
	Removed []string
	// Failed is set when an input of the directory had an error; nothing
	// was then written or removed there.
	Failed bool
}

// CRDResult is the work done for one CRD.
type CRDResult struct {
	Name string
	// Manifests counts the generated manifests and overrides read.
	Manifests int
	// Tuples counts the tuples considered, TuplesWithData those that
	// selected at least one generated manifest.
	Tuples, TuplesWithData int
	// InputSets counts the distinct ordered sets of pertinent manifests:
	// each was merged once, however many tuples selected it.
	InputSets int
	// Applies counts the manifests applied to compute those sets; prefixes
	// shared between sets are applied once.
	Applies int
	// Files are the base names of the CRD's output files.
	Files []string
}

// Totals sums the counters of a Result.
type Totals struct {
	VersionDirs, CRDs, Tuples, TuplesWithData, InputSets, Applies, Files, Removed int
}

// Totals sums the counters of every CRD and version directory.
func (r *Result) Totals() Totals {
	var t Totals
	for _, v := range r.Versions {
		t.VersionDirs++
		t.Removed += len(v.Removed)
		for _, c := range v.CRDs {
			t.CRDs++
			t.Tuples += c.Tuples
			t.TuplesWithData += c.TuplesWithData
			t.InputSets += c.InputSets
			t.Applies += c.Applies
			t.Files += len(c.Files)
		}
	}
	return t
}

// Outputs are the merged CRD files of every version directory.
func (r *Result) Outputs() []*Output {
	var out []*Output
	for _, v := range r.Versions {
		out = append(out, v.Outputs...)
	}
	return out
}

// Run executes the crd-manifest-merge stage: for every selected version
// directory with a featuregated directory, it merges each CRD's pertinent
// manifests for every tuple, writes the fewest files representing all
// tuples plus doc.go into zz_generated.crd-manifests/, and removes stale
// entries there. Problems in the inputs go to in.Problems; the error
// result is for problems that stop the whole stage (no versioned payload
// FeatureGate manifest, an unusable CRD schema).
func Run(in Input) (*Result, error) {
	if in.Discovery == nil || in.Tree == nil {
		return nil, errors.New("manifestmerge: Input.Discovery and Input.Tree are required")
	}
	problems := in.Problems
	if problems == nil {
		problems = &diag.List{}
	}
	rules, err := rulesFor(in.Era, in.Payload)
	if err != nil {
		return nil, err
	}
	crdType, err := rules.crdType()
	if err != nil {
		return nil, err
	}
	pl, err := readPayload(in.Payload, problems)
	if err != nil {
		return nil, err
	}
	reader := &inputReader{tree: in.Tree, files: manifest.NewReader(in.Tree, in.Files), base: in.Discovery.BaseDir, crdType: crdType, rules: rules, knownGates: map[string]bool{}}
	if in.Payload != nil {
		for _, g := range in.Payload.Gates() {
			reader.knownGates[string(g)] = true
		}
	}

	res := &Result{}
	var jobs []*crdJob
	var dirs []*versionJob
	for _, g := range in.Discovery.Groups {
		if g.Config.ManifestMerge.Disabled {
			continue
		}
		for _, v := range g.Versions {
			vj := &versionJob{group: g, version: v, result: &VersionResult{Group: g.Name, Dir: v.Dir}, rep: &reporter{list: problems}}
			gatedDir := filepath.Join(v.Dir, FeatureGatedDirName)
			if isDir, isFile := in.Tree.Stat(gatedDir); !isDir {
				if isFile {
					problems.Add(diag.Errorf(reader.rel(gatedDir), 0, "", "is a file; expected a directory of CRD directories"))
				}
				continue
			}
			for _, c := range reader.crdsOf(v.Dir, vj.rep) {
				if in.Untouched[c.name] {
					continue
				}
				j := &crdJob{inputs: c, result: &CRDResult{Name: c.name}, rep: &reporter{list: problems}, subtrees: in.Subtrees}
				vj.crds = append(vj.crds, j)
				jobs = append(jobs, j)
			}
			dirs = append(dirs, vj)
			res.Versions = append(res.Versions, vj.result)
		}
	}

	// The jobs hand the rendering of their files to the same workers, so
	// that a CRD merged early has its files rendered while a larger one
	// is still merging.
	bg := workers.NewBackground()
	for _, j := range jobs {
		bg.Go(func() { j.run(crdType, pl, reader, bg) })
	}
	bg.Wait()
	for _, j := range jobs {
		j.finish()
	}

	if in.inspect != nil {
		in.inspect(jobs)
	}
	for _, vj := range dirs {
		vj.write(in.Tree, reader, in.Untouched)
	}
	if in.Problems == nil {
		return res, problems.Err()
	}
	return res, nil
}

// versionJob is the work for one version directory.
type versionJob struct {
	group   *discovery.Group
	version *discovery.Version
	crds    []*crdJob
	result  *VersionResult
	// rep reports the problems of the directory itself.
	rep *reporter
}

// Output is one merged CRD file: its absolute path, the object it
// serialises and its bytes. Object is shared with the stage's other
// outputs and must not be modified; its numbers are int64 or float64 as
// the merge produced them, so encoding it as JSON yields the same values
// as its YAML.
type Output struct {
	Path   string
	Object map[string]any
	Data   []byte
}

// output is one file to write.
type output struct {
	name string
	obj  map[string]any
	data []byte
	// crd identifies the merged CRD the file holds (record.data).
	crd int
	// problem, when set, is why the file cannot be written; it and the
	// files after it are dropped (finish).
	problem *diag.Diagnostic
}

// crdJob is the work for one CRD.
type crdJob struct {
	inputs  *crdInputs
	result  *CRDResult
	outputs []output
	rep     *reporter
	// records are the tuples with a CRD, one each, as merged.
	records []record
	// subtrees renders the files (Input.Subtrees).
	subtrees *manifest.Subtrees
}

// mergedSet is the outcome of merging one distinct ordered set of
// manifests.
type mergedSet struct {
	// data identifies the cleaned CRD among the distinct results.
	data int
	// pattern is the file name pattern of the merged CRD; named is false
	// when it has no plural name.
	pattern filePattern
	named   bool
	failed  bool
}

// crdMerge computes the CRD of every tuple, merging each distinct ordered
// set of pertinent manifests once.
type crdMerge struct {
	inputs *crdInputs
	// all is generated then overrides; sequences index it.
	all    []*partialManifest
	merger *merger
	sets   map[string]*mergedSet
	// datas are the distinct cleaned CRDs; ids maps their canonical JSON
	// encoding to their index.
	datas []map[string]any
	ids   map[string]int
	rep   *reporter
	file  string // the CRD directory, for messages
	// warned records the lost list items already reported (checkDropped),
	// places numbers the places of the manifests' lists.
	warned map[string]bool
	places listPlaces
}

// sequence lists the manifests pertinent for t, generated ones first, and
// how many of them are generated.
func (cm *crdMerge) sequence(t featuregate.TupleGates) (seq []int, generated int) {
	for i, pm := range cm.inputs.generated {
		if pm.pertinent(t) {
			seq = append(seq, i)
		}
	}
	generated = len(seq)
	for i, pm := range cm.inputs.overrides {
		if pm.pertinent(t) {
			seq = append(seq, len(cm.inputs.generated)+i)
		}
	}
	return seq, generated
}

// result merges seq unless an earlier tuple selected the same manifests.
func (cm *crdMerge) result(seq []int) *mergedSet {
	k := sequenceKey(seq, len(seq))
	if s := cm.sets[k]; s != nil {
		return s
	}
	s := &mergedSet{}
	cm.sets[k] = s
	value, err := cm.merger.merge(cm.all, seq)
	if err != nil {
		cm.rep.addError(err)
		s.failed = true
		return s
	}
	// cleanUp changes the top level and metadata alone: the rest is shared
	// with the merge's inputs and its other results, which nothing changes.
	merged, _ := value.AsValue().Unstructured().(map[string]any)
	obj := withOwnAnnotations(merged)
	cm.checkDropped(seq, obj)
	s.pattern, s.named = patternOf(obj) // before cleanUp drops the file-name annotations
	cleanUp(obj)
	canonical, err := json.Marshal(obj)
	if err != nil {
		cm.rep.add(diag.Errorf(cm.file, 0, "", "cannot encode the merged CRD: %v", err))
		s.failed = true
		return s
	}
	id, seen := cm.ids[string(canonical)]
	if !seen {
		id = len(cm.datas)
		cm.ids[string(canonical)] = id
		cm.datas = append(cm.datas, obj)
	}
	s.data = id
	return s
}

// run reads the CRD's manifests, merges them for every tuple, decides the
// CRD's files and has them rendered on bg.
func (j *crdJob) run(crdType typed.ParseableType, pl *payload, r *inputReader, bg *workers.Background) {
	c, rep := j.inputs, j.rep
	r.read(c, rep)
	j.result.Manifests = len(c.generated) + len(c.overrides)
	if rep.failed || len(c.generated) == 0 {
		return
	}
	m, err := newMerger(crdType)
	if err != nil {
		rep.addError(err)
		return
	}
	cm := &crdMerge{
		inputs: c,
		all:    append(append([]*partialManifest(nil), c.generated...), c.overrides...),
		merger: m,
		sets:   map[string]*mergedSet{},
		ids:    map[string]int{},
		rep:    rep,
		file:   r.rel(c.dir),
		warned: map[string]bool{},
	}
	var records []record
	var first *mergedSet
	var overridesOnly []featuregate.TupleGates
	for _, t := range pl.tuples {
		j.result.Tuples++
		seq, generated := cm.sequence(t)
		if generated == 0 {
			if len(seq) > 0 {
				overridesOnly = append(overridesOnly, t)
			}
			continue
		}
		j.result.TuplesWithData++
		s := cm.result(seq)
		if s.failed {
			continue
		}
		if first == nil {
			first = s
		}
		records = append(records, record{data: s.data, versions: []int{t.Version}, profiles: []int{profileIndexOf(t.ClusterProfile)}, featureSets: []string{string(t.FeatureSet)}})
	}
	j.result.InputSets = len(cm.sets)
	j.result.Applies = m.applies
	if len(overridesOnly) > 0 {
		rep.add(diag.Warningf(r.rel(c.overridesDir), 0, "",
			"manual overrides apply to %d tuple(s) where no generated manifest does (first: %s); no CRD is produced for them", len(overridesOnly), overridesOnly[0].Tuple))
	}
	if rep.failed || first == nil {
		return
	}
	if !first.named {
		rep.add(diag.Errorf(cm.file, 0, "spec.names.plural", "the merged CRD has no plural name, so its output file cannot be named"))
		return
	}
	j.records = records
	j.emit(cm, records, pl, first.pattern, r.rules, bg)
}

// write records the outputs and doc.go of a version directory in the tree
// and removes stale entries of its output directory (docs/reference-rules.md,
// "Stale files and verify").
func (vj *versionJob) write(t *tree.Tree, r *inputReader, untouched manifest.Untouched) {
	res, rep := vj.result, vj.rep
	outDir := filepath.Join(vj.version.Dir, OutputDirName)
	expected := map[string]string{DocFileName: "(doc.go)"}
	var outputs []output
	for _, j := range vj.crds {
		res.CRDs = append(res.CRDs, j.result)
		if j.rep.failed {
			rep.failed = true
			continue
		}
		for _, o := range j.outputs {
			if other, dup := expected[o.name]; dup {
				rep.add(diag.Errorf(r.rel(filepath.Join(outDir, o.name)), 0, "", "would be written for both %s and %s", other, j.inputs.name))
				continue
			}
			expected[o.name] = j.inputs.name
			outputs = append(outputs, o)
		}
	}
	pkg, err := packageName(filepath.Base(vj.group.Dir), filepath.Base(vj.version.Dir))
	if err != nil {
		rep.add(diag.Errorf(r.rel(vj.version.Dir), 0, "", "%v", err))
	}
	if _, isFile := t.Stat(outDir); isFile {
		rep.add(diag.Errorf(r.rel(outDir), 0, "", "is a file; expected the output directory"))
	}
	if rep.failed {
		res.Failed = true
		return
	}
	for _, o := range outputs {
		p := filepath.Join(outDir, o.name)
		// The checks after the merge get the tree's bytes: on an
		// up-to-date tree, those read from disk rather than a second copy;
		// else the rendered bytes themselves, which nothing else holds.
		data := t.Put(p, o.data)
		res.Written = append(res.Written, p)
		res.Outputs = append(res.Outputs, &Output{Path: p, Object: o.obj, Data: data})
	}
	docPath := filepath.Join(outDir, DocFileName)
	t.WriteFile(docPath, []byte("package "+pkg+"\n"))
	res.Written = append(res.Written, docPath)

	entries, err := t.ReadDir(outDir)
	if err != nil {
		rep.add(diag.Errorf(r.rel(outDir), 0, "", "cannot list directory: %v", err))
		return
	}
	for _, e := range entries {
		p := filepath.Join(outDir, e.Name)
		if e.IsDir {
			rep.add(diag.Errorf(r.rel(p), 0, "", "unexpected directory in the output directory; remove it"))
			continue
		}
		if _, ok := expected[e.Name]; !ok && !untouchedOutput(t, p, untouched) {
			t.Remove(p)
			res.Removed = append(res.Removed, p)
		}
	}
}

// untouchedOutput reports whether the file at p is an output of a CRD
// the run leaves alone, which stays.
func untouchedOutput(t *tree.Tree, p string, untouched manifest.Untouched) bool {
	if len(untouched) == 0 {
		return false
	}
	data, err := t.ReadFile(p)
	return err == nil && untouched.Merged(data)
}

// packageName is the Go package name of an output directory: group and
// version directory names with every character not allowed in a Go
// identifier (typically '-' and '.') replaced by '_'.
func packageName(groupDir, versionDir string) (string, error) {
	var b strings.Builder
	for _, r := range groupDir + "_" + versionDir + "_crdmanifests" {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	name := b.String()
	if name[0] >= '0' && name[0] <= '9' {
		return "", fmt.Errorf("group directory %q starts with a digit, so %s/doc.go cannot be given a Go package name", groupDir, OutputDirName)
	}
	return name, nil
}
