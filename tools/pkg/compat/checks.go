package compat

import (
	"sort"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/crdify/pkg/config"
	"sigs.k8s.io/crdify/pkg/runner"
	"sigs.k8s.io/crdify/pkg/validations"
	"sigs.k8s.io/crdify/pkg/validations/crd/existingfieldremoval"
	"sigs.k8s.io/crdify/pkg/validations/property"
)

// Names of the checks compat adds to crdify's.
const (
	// CheckCEL flags x-kubernetes-validations rules added to or changed on
	// a field that existed before (a crdify comparator registered next to
	// crdify's own).
	CheckCEL = "xValidations"
	// CheckCRDRemoval flags a CRD no longer installed in a tuple that had
	// it.
	CheckCRDRemoval = "crdRemoval"
	// checkUnhandled is crdify's name for changes no check handled.
	checkUnhandled = "unhandled"
)

// crdifyConfig is how compat configures crdify: every check enforced as an
// error except description edits (noise for compatibility) and changes no
// check understands (reported as warnings); adding enum values is allowed.
var crdifyConfig = config.Config{
	UnhandledEnforcement: config.EnforcementPolicyWarn,
	Conversion:           config.ConversionPolicyNone,
	Validations: []config.ValidationConfig{
		{Name: "description", Enforcement: config.EnforcementPolicyNone},
		{Name: "enum", Enforcement: config.EnforcementPolicyError, Configuration: map[string]any{"additionPolicy": string(property.AdditionPolicyAllow)}},
	},
}

// registry is crdify's default registry plus compat's own checks. It
// delegates instead of registering into crdify's package-level registry.
type registry struct {
	base validations.Registry
	own  map[string]validations.Factory
}

func newRegistry() *registry {
	r := &registry{base: runner.DefaultRegistry(), own: map[string]validations.Factory{}}
	r.Register(CheckCEL, func(map[string]any) (validations.Validation, error) { return &celCheck{}, nil })
	return r
}

func (r *registry) Register(name string, f validations.Factory) { r.own[name] = f }

func (r *registry) Registered() []string {
	names := append([]string(nil), r.base.Registered()...)
	for n := range r.own {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func (r *registry) Validation(name string, cfg map[string]any) (validations.Validation, error) {
	if f, ok := r.own[name]; ok {
		return f(cfg)
	}
	return r.base.Validation(name, cfg)
}

// KnownChecks are the check names a finding (and so an accepted finding)
// can carry, sorted.
func KnownChecks() []string {
	names := append(newRegistry().Registered(), CheckCRDRemoval, checkUnhandled)
	sort.Strings(names)
	return names
}

// newRunner builds crdify's runner with compat's configuration.
func newRunner() (*runner.Runner, error) {
	cfg := crdifyConfig
	if err := config.ValidateConfig(&cfg); err != nil {
		return nil, err
	}
	return runner.New(&cfg, newRegistry())
}

// Difference is one message of a comparison of two CRDs.
type Difference struct {
	Check   string
	Version string // CRD version, "a -> b" for served-version pairs, "" for the whole CRD
	Path    string
	Message string
	Warning bool
	// New says the difference concerns a CRD or version that the old CRD
	// does not have: it is reported as new, never as breaking.
	New bool
	// Removal says the difference is a field removed: compat then tells a
	// field deleted from the types from one behind a FeatureGate.
	Removal bool
	// NewField says the difference judges a field the old CRD lacks (not
	// a change to one it has). For a tuple that did not install the CRD,
	// when the old tree installs it elsewhere, only such differences count,
	// and only those made against every old variant: a field some tuple
	// already had is not new.
	NewField bool
}

// A Comparer compares the CRD a tuple installed in the old tree with the
// one it installs in the new tree. old is nil when the tuple did not
// install the CRD (Options.CheckNew). groupDirs are the group directories
// holding the CRD's files (slash paths relative to the tree's root), for
// per-group configuration. A Comparer is used by one goroutine.
type Comparer interface {
	Compare(name string, groupDirs []string, old, cur *apiextensionsv1.CustomResourceDefinition) []Difference
}

// crdifyComparer is compat's own comparison: crdify and the CEL check.
type crdifyComparer struct{ runner *runner.Runner }

func (c crdifyComparer) Compare(_ string, _ []string, old, cur *apiextensionsv1.CustomResourceDefinition) []Difference {
	if old == nil {
		return nil
	}
	return compare(c.runner, old, cur)
}

// NewCrdifyComparer returns a Comparer running crdify's runner r (as
// configured by the caller) on each pair, with the same post-processing
// as compat: the old CRD's storage version taken as stored, removal
// echoes dropped, messages sorted. Served-version findings naming a
// version the old CRD lacks are marked New.
func NewCrdifyComparer(r *runner.Runner) Comparer { return servedNew{crdifyComparer{r}} }

// servedNew marks served-version findings about a version new in the CRD.
type servedNew struct{ inner Comparer }

func (s servedNew) Compare(name string, dirs []string, old, cur *apiextensionsv1.CustomResourceDefinition) []Difference {
	fs := s.inner.Compare(name, dirs, old, cur)
	if old == nil {
		return fs
	}
	had := map[string]bool{}
	for _, v := range old.Spec.Versions {
		had[v.Name] = true
	}
	for i, f := range fs {
		a, b, pair := strings.Cut(f.Version, " -> ")
		if pair && (!had[a] || !had[b]) {
			fs[i].New = true
		}
	}
	return fs
}

// compare runs crdify on two CRDs. The old CRD's stored versions are taken
// to be its storage version, which is what a cluster running it has.
func compare(r *runner.Runner, oldCRD, newCRD *apiextensionsv1.CustomResourceDefinition) []Difference {
	old := oldCRD.DeepCopy()
	old.Status.StoredVersions = nil
	for _, v := range old.Spec.Versions {
		if v.Storage {
			old.Status.StoredVersions = append(old.Status.StoredVersions, v.Name)
		}
	}
	res := r.Run(old, newCRD.DeepCopy())
	var out []Difference
	for _, cr := range res.CRDValidation {
		out = append(out, crdFindings(cr)...)
	}
	out = append(out, versionFindings(res.SameVersionValidation)...)
	served := versionFindings(res.ServedVersionValidation)
	if len(served) > 0 {
		// crdify leaves out the served-version issues the old CRD had
		// already by comparing messages, and some of its messages list a
		// set in random order: subtract them again, normalized.
		had := map[string]bool{}
		for _, f := range versionFindings(r.Run(&apiextensionsv1.CustomResourceDefinition{}, old.DeepCopy()).ServedVersionValidation) {
			had[findingKey(f)] = true
		}
		for _, f := range served {
			if !had[findingKey(f)] {
				out = append(out, f)
			}
		}
	}
	out = dropRemovalEchoes(out)
	for i := range out {
		out[i].Removal = out[i].Check == checkFieldRemoval
	}
	sortRaw(out)
	return out
}

// versionFindings turns per-version (or per-pair) results into findings,
// with set-valued messages sorted.
func versionFindings(byVersion map[string]map[string][]validations.ComparisonResult) []Difference {
	var out []Difference
	for version, byPath := range byVersion {
		for p, results := range byPath {
			for _, cr := range results {
				for _, m := range cr.Errors {
					out = append(out, Difference{Check: cr.Name, Version: version, Path: p, Message: normalize(cr.Name, m)})
				}
				for _, m := range cr.Warnings {
					out = append(out, Difference{Check: cr.Name, Version: version, Path: p, Message: normalize(cr.Name, m), Warning: true})
				}
			}
		}
	}
	return out
}

// normalize makes a crdify message deterministic: unhandled-change diffs
// condensed, required-field lists sorted.
func normalize(check, m string) string {
	if check == checkRequired {
		return sortedList(m)
	}
	return shorten(check, m)
}

// dropRemovalEchoes drops what crdify's property checks say about a field
// its field-removal check reports: they compare the old field with an
// empty schema ("type changed: object -> ”"), which repeats the removal.
func dropRemovalEchoes(fs []Difference) []Difference {
	removed := map[string]bool{}
	for _, f := range fs {
		if f.Check == checkFieldRemoval {
			removed[f.Version+" "+f.Path] = true
		}
	}
	out := fs[:0]
	for _, f := range fs {
		if f.Check != checkFieldRemoval && removed[f.Version+" "+f.Path] {
			continue
		}
		out = append(out, f)
	}
	return out
}

// crdFindings turns a whole-CRD result into findings; a removed field
// message ("removed field : v1.^.spec.x") is split into version and path.
func crdFindings(cr validations.ComparisonResult) []Difference {
	var out []Difference
	add := func(m string, warning bool) {
		f := Difference{Check: cr.Name, Path: "^", Message: m, Warning: warning}
		if prefix := existingfieldremoval.ErrRemovedExistingField.Error() + " : "; strings.HasPrefix(m, prefix) {
			if version, p, ok := strings.Cut(strings.TrimPrefix(m, prefix), "."); ok {
				f.Version, f.Path, f.Message = version, p, existingfieldremoval.ErrRemovedExistingField.Error()
			}
		}
		out = append(out, f)
	}
	for _, m := range cr.Errors {
		add(m, false)
	}
	for _, m := range cr.Warnings {
		add(m, true)
	}
	return out
}

// checkRequired is crdify's check of new required fields.
const checkRequired = "required"

// sortedList sorts the names of crdify's "...: [b a]" message, which
// comes from a set and so in random order.
func sortedList(m string) string {
	i, j := strings.LastIndex(m, "["), strings.LastIndex(m, "]")
	if i < 0 || j < i {
		return m
	}
	names := strings.Fields(m[i+1 : j])
	sort.Strings(names)
	return m[:i+1] + strings.Join(names, " ") + m[j:]
}

// shorten condenses crdify's unhandled-change message, a go-cmp diff, to
// its changed lines.
func shorten(check, m string) string {
	if check != checkUnhandled {
		return m
	}
	var lines []string
	for _, l := range strings.Split(m, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "-") || strings.HasPrefix(t, "+") {
			lines = append(lines, strings.Join(strings.Fields(t), " "))
		}
	}
	if len(lines) == 0 {
		return m
	}
	return "changes no check handles: " + strings.Join(lines, "; ")
}

func sortRaw(fs []Difference) {
	sort.Slice(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.Check != b.Check {
			return a.Check < b.Check
		}
		if a.Version != b.Version {
			return a.Version < b.Version
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.Message < b.Message
	})
}

// crdPresence is the finding of a CRD that a tuple no longer installs.
func crdRemoval() Difference {
	return Difference{Check: CheckCRDRemoval, Path: "^", Message: "the CRD is no longer installed"}
}

// CRD is the object a Comparer compares.
type CRD = apiextensionsv1.CustomResourceDefinition
