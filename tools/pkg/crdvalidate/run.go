package crdvalidate

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/crdvalidate/admission"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifestmerge"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// Input is what the validation stage needs.
type Input struct {
	// Tree holds the merged manifests (written by the merge stage in the
	// same run, or on disk).
	Tree *tree.Tree
	// BaseDir makes file names in messages relative.
	BaseDir string
	// Merged are the merged CRD manifests as the merge stage of the same
	// process produced them: validated without reading or parsing them
	// again, and sent to the server as JSON (cheaper to decode than YAML,
	// and the same object).
	Merged []*manifestmerge.Output
	// Files are the absolute paths of other CRD manifests, read through
	// Tree; files other than *.yaml (doc.go) are skipped.
	Files []string
	// Sources locates rules and fields in the Go sources. Optional: without
	// it a finding names the manifest file.
	Sources *Sources
	// Previous returns the previously committed content of a file, or nil
	// (called concurrently). Optional: without it only creation is
	// validated.
	Previous func(path string) []byte
	// Problems receives one error per distinct finding.
	Problems *diag.List
	// CostTop > 0 asks for the CostTop most expensive rules of each CRD.
	CostTop int
	// Server validates for the targeted release: nil is the linked one, in
	// this process; StartProgram returns the one of another release.
	Server Server
	// Verdicts, when set, keeps the server's outcomes across runs: a CRD
	// validated before by the same server is not validated again.
	Verdicts *Verdicts
}

// Result says what the stage did.
type Result struct {
	// Files counts the manifests validated, Upgrades those also validated
	// as an update of their committed version.
	Files, Upgrades int
	// Distinct counts the files validated by the server's code; the others
	// share the verdict of an equal CRD (see checkDistinct).
	Distinct int
	// Cached counts the distinct ones whose verdict came from
	// Input.Verdicts.
	Cached int
	// Findings counts the distinct findings reported.
	Findings int
	// Costs are the cost reports, by CRD name, when Input.CostTop > 0.
	Costs []CRDCosts
}

// CRDCosts is the cost report of one CRD over all its files.
type CRDCosts struct {
	Name string
	// Top are the most expensive expressions, most expensive first; the
	// same expression with the same cost in several files is listed once.
	Top []FileRuleCost
	// Total is the largest per-version total of any of its files.
	Total uint64
}

// FileRuleCost is a RuleCost with the files it was found in and its Go
// position.
type FileRuleCost struct {
	RuleCost
	Files  []string
	Origin Origin
}

// checked is one manifest and its verdict.
type checked struct {
	path    string
	obj     map[string]any
	verdict *Verdict
	costs   []RuleCost
	total   uint64
	err     error
}

// Run validates every file of in.Files. Each distinct finding (same Go
// position, CRD, path and message) becomes one error listing the files
// and variants it occurs in.
func Run(in Input) (*Result, error) {
	if in.Tree == nil || in.Problems == nil {
		return nil, fmt.Errorf("crdvalidate: Input.Tree and Input.Problems are required")
	}
	if in.Server == nil {
		in.Server = linked{}
	}
	in.Server = in.Verdicts.wrap(in.Server)
	manifests := in.manifests()
	results, distinct := in.checkDistinct(manifests)

	res := &Result{Files: len(manifests), Distinct: distinct}
	if c, ok := in.Server.(*cached); ok {
		res.Cached = int(c.hits.Load())
	}
	groups := map[string]*group{}
	var order []string
	for _, c := range results {
		rel := tree.Rel(in.BaseDir, c.path)
		if c.err != nil {
			in.Problems.Add(diag.Errorf(rel, 0, "", "%v", c.err))
			continue
		}
		if c.verdict.Upgrade {
			res.Upgrades++
		}
		fileVariants, err := decodeVariants(c.obj)
		if err != nil {
			in.Problems.Add(diag.Errorf(rel, 0, "metadata.annotations", "%v", err))
			continue
		}
		for _, f := range c.verdict.Findings {
			g := in.describe(c, f)
			k := g.key()
			if have := groups[k]; have != nil {
				have.files = append(have.files, filepath.Base(c.path))
				have.variants.add(fileVariants)
				continue
			}
			g.files = []string{filepath.Base(c.path)}
			g.variants = newVariants()
			g.variants.add(fileVariants)
			groups[k] = g
			order = append(order, k)
		}
	}
	for _, k := range order {
		in.Problems.Add(groups[k].diagnostic(in.BaseDir))
	}
	res.Findings = len(order)
	if in.CostTop > 0 {
		res.Costs = in.costReport(results)
	}
	return res, nil
}

// toCheck is one manifest to validate: its path, its object and the
// bytes sent to the server, or, with asJSON, none yet: obj encoded as
// JSON is sent (only for the files whose verdict is computed). err says
// why it could not be read or parsed.
type toCheck struct {
	path   string
	obj    map[string]any
	data   []byte
	asJSON bool
	err    error
}

// content returns the bytes to send to the server.
func (f toCheck) content() ([]byte, error) {
	if f.asJSON {
		return json.Marshal(f.obj)
	}
	return f.data, nil
}

// manifests returns in.Merged and the *.yaml files of in.Files, read
// through the tree, sorted by path.
func (in Input) manifests() []toCheck {
	var out []toCheck
	for _, o := range in.Merged {
		out = append(out, toCheck{path: o.Path, obj: o.Object, asJSON: true})
	}
	for _, f := range in.Files {
		if !strings.HasSuffix(f, ".yaml") {
			continue
		}
		m := toCheck{path: f}
		if m.data, m.err = in.Tree.ReadFile(f); m.err == nil {
			m.obj, m.err = manifest.Parse(m.data)
		}
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out
}

// check validates one file's content into c (its obj already parsed)
// and, when asked, estimates its costs. previous is its committed content,
// or nil; key names the verdict in Input.Verdicts (requestKeys), which
// spares encoding the file when it has it.
func (in Input) check(c *checked, f toCheck, previous []byte, key string) {
	request := func() (admission.Request, error) {
		data, err := f.content()
		return admission.Request{Data: data, Previous: previous, Costs: in.CostTop > 0}, err
	}
	var out admission.Outcome
	var err error
	if cache, ok := in.Server.(*cached); ok {
		out, err = cache.validate(key, request)
	} else {
		out, err = validateWith(in.Server, request)
	}
	if err != nil {
		c.err = err
		return
	}
	c.verdict, c.costs, c.total = out.Verdict, out.Costs, out.Total
	if out.Error != "" {
		c.err = errors.New(out.Error)
	}
}

// group is one distinct finding and where it occurs.
type group struct {
	crd, version, where, message string
	onCreate, onUpdate, upgrade  bool
	pos                          Origin
	files                        []string
	variants                     *variants
	crdFile                      string
}

func (g *group) key() string {
	return strings.Join([]string{g.pos.File, fmt.Sprint(g.pos.Line), g.crd, g.version, g.where, g.message, fmt.Sprint(g.onCreate, g.onUpdate)}, "\x00")
}

var ruleIndex = regexp.MustCompile(`\[\d+\]`)

// describe locates a finding of a checked file.
func (in Input) describe(c checked, f Finding) *group {
	name, apiGroup, kind := identity(c.obj)
	spec, _ := c.obj["spec"].(map[string]any)
	sp := parseSchemaPath(f.Path)
	g := &group{crd: name, message: f.Message, onCreate: f.OnCreate, onUpdate: f.OnUpdate, upgrade: c.verdict.Upgrade, crdFile: c.path}
	g.where = f.Path
	if sp.version >= 0 {
		versions, _ := spec["versions"].([]any)
		for i, v := range versions {
			if i == sp.version || sp.shared {
				name, _ := v.(map[string]any)["name"].(string)
				g.version = strings.TrimPrefix(g.version+","+name, ",")
			}
		}
		g.where = sp.dataPath()
		if sp.keyword != "" {
			// The index of a rule differs between variants (gated rules
			// come first); the marker position identifies it.
			g.where += " " + ruleIndex.ReplaceAllString(sp.keyword, "")
		}
		first, _, _ := strings.Cut(g.version, ",")
		rule := sp.ruleText(c.obj)
		if pos, ok := in.Sources.Locate(apiGroup, first, kind, f.Path, rule); ok {
			g.pos = pos
		}
		g.message += quoteHint(rule, f.Message)
	}
	return g
}

// quoteHint explains a CEL compile error of a rule that holds a
// typographic quote: gofmt rewrites two apostrophes in a doc comment into
// a right double quotation mark (and two backquotes into a left one), so a
// rule written with an empty string in single quotes in a Go comment
// reaches the CRD with a character CEL does not know.
func quoteHint(rule, message string) string {
	if !strings.ContainsAny(rule, "\u201c\u201d") || !strings.Contains(message, "compilation failed") {
		return ""
	}
	return "; the rule holds a typographic quote (\u201c or \u201d): gofmt turns '' in a doc comment into \u201d, so write the empty string as \"\" (e.g. size(self) == 0 instead of self == '')"
}

// diagnostic renders the group as one error at its Go position (or at the
// first file when the position is unknown).
func (g *group) diagnostic(base string) diag.Diagnostic {
	file, line := g.pos.File, g.pos.Line
	if file == "" {
		file, line = g.crdFile, 0
	}
	subject := g.crd
	if g.version != "" {
		subject += " " + g.version
	}
	subject += " " + g.where
	msg := fmt.Sprintf("in %s (%s): %s", strings.Join(g.files, ", "), g.variants, g.message)
	switch {
	case g.upgrade && g.onCreate && !g.onUpdate:
		msg += " (rejected on a fresh install, but accepted as an upgrade of the committed manifest)"
	case g.upgrade && g.onUpdate && !g.onCreate:
		msg += " (accepted on a fresh install, but rejected as an upgrade of the committed manifest)"
	}
	d := diag.Errorf(tree.Rel(base, file), line, subject, "%s", msg)
	if g.pos.Marker != "" {
		d.Subject = g.pos.Marker + ": " + subject
	}
	return d
}

func annotations(obj map[string]any) map[string]any {
	meta, _ := obj["metadata"].(map[string]any)
	ann, _ := meta["annotations"].(map[string]any)
	return ann
}
