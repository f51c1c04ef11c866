package referenceera

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"

	"github.com/gatedcrd/gatedcrd/internal/refera"
)

// A Sign tells from openshift/api's tools/ whether one change is in the
// reference it carries. Files are relative to tools/.
type Sign struct {
	Change refera.Change
	// Files are the files the sign reads (for documentation and tests).
	Files []string
	// In reports whether the change is in the reference in tools; ok is
	// false when the files it reads are missing.
	In func(tools string) (in, ok bool)
}

const (
	manifestMerge = "codegen/pkg/manifestmerge"
	partialSchema = "codegen/pkg/emptypartialschemas/generator.go"
)

// Signs are the signs of every refera.Change, in its order. Where the
// code before a change is known and will not come back, a sign looks for
// it (its absence means the change is in); otherwise for the change.
var Signs = []Sign{
	{refera.StableMergeOrder, []string{manifestMerge + "/generator.go"}, func(tools string) (bool, bool) {
		// The reference sorted the partial manifests with sort.Slice.
		has, ok := contains(filepath.Join(tools, manifestMerge, "generator.go"), "sort.Slice(partialManifestFiles")
		return !has, ok
	}},
	{refera.TypeMarkersAcrossPackages, []string{partialSchema}, func(tools string) (bool, bool) {
		// Stage 1 ran gengo on one group-version: through gengo v1's
		// arguments, then (from 2025-10-23) gengo v2's Execute.
		data, err := os.ReadFile(filepath.Join(tools, partialSchema))
		if err != nil {
			return false, false
		}
		text := string(data)
		return !strings.Contains(text, `"k8s.io/gengo/args"`) && !strings.Contains(text, "gengo.Execute("), true
	}},
	{refera.SeparateEnums, []string{"go.mod"}, func(tools string) (bool, bool) {
		// The fix is in the controller-tools fork of 2026-01-20.
		t, ok := controllerToolsTime(filepath.Join(tools, "go.mod"))
		return ok && !t.Before(time.Date(2026, 1, 20, 14, 19, 14, 0, time.UTC)), ok
	}},
	{refera.GatedCRDsInOneFile, []string{manifestMerge + "/*.go"}, func(tools string) (bool, bool) {
		return anyContains(filepath.Join(tools, manifestMerge), `"release.openshift.io/feature-gate"`)
	}},
	{refera.VersionAware, []string{manifestMerge + "/*.go"}, func(tools string) (bool, bool) {
		return anyContains(filepath.Join(tools, manifestMerge), "release.openshift.io/major-version")
	}},
	{refera.AtomicValidations, []string{manifestMerge + "/crd-schema.json"}, func(tools string) (bool, bool) {
		// x-kubernetes-validations was a list keyed by rule.
		has, ok := contains(filepath.Join(tools, manifestMerge, "crd-schema.json"), `"x-kubernetes-patch-merge-key": "rule"`)
		return !has, ok
	}},
}

// fromTools tells the era from the reference in dir/tools when dir is
// openshift/api's module root with its tools/ module: the era of the
// newest change before the first one its signs say is not in.
func fromTools(dir string) (Choice, bool) {
	tools := filepath.Join(dir, "tools")
	if !isReferenceModule(filepath.Join(tools, "go.mod")) {
		return Choice{}, false
	}
	era := refera.Era202509
	var in []string
	for _, s := range Signs {
		has, ok := s.In(tools)
		if !ok || !has {
			why := "not that of " + s.Change.Date
			if !ok {
				why = "and cannot tell that of " + s.Change.Date + " (" + strings.Join(s.Files, ", ") + " missing)"
			}
			return Choice{Era: era, Reason: toolsReason(tools, in, why)}, true
		}
		era = refera.Era(s.Change.Date)
		in = append(in, s.Change.Date)
	}
	return Choice{Era: era, Reason: toolsReason(tools, in, "")}, true
}

func toolsReason(tools string, in []string, why string) string {
	var parts []string
	if len(in) > 0 {
		parts = append(parts, "has the changes of "+strings.Join(in, ", "))
	}
	if why != "" {
		parts = append(parts, why)
	}
	if len(parts) == 0 {
		parts = append(parts, "has every change")
	}
	return "the reference in " + tools + string(filepath.Separator) + " " + strings.Join(parts, ", ")
}

// isReferenceModule reports whether file is the go.mod of the reference.
func isReferenceModule(file string) bool {
	data, err := os.ReadFile(file)
	if err != nil {
		return false
	}
	return modfile.ModulePath(data) == ToolsModule
}

func contains(file, text string) (has, ok bool) {
	data, err := os.ReadFile(file)
	if err != nil {
		return false, false
	}
	return strings.Contains(string(data), text), true
}

// anyContains reports whether a .go file of dir (not its tests) holds text.
func anyContains(dir, text string) (has, ok bool) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(files) == 0 {
		return false, false
	}
	slices.Sort(files)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		if has, _ := contains(f, text); has {
			return true, true
		}
	}
	return false, true
}

// controllerToolsTime is the date of the controller-tools the reference
// builds with: the pseudo-version of its replacement (openshift's fork),
// else of its requirement.
func controllerToolsTime(file string) (time.Time, bool) {
	data, err := os.ReadFile(file)
	if err != nil {
		return time.Time{}, false
	}
	mf, err := parseGoMod(file, data)
	if err != nil {
		return time.Time{}, false
	}
	const path = "sigs.k8s.io/controller-tools"
	version := ""
	for _, r := range mf.Require {
		if r.Mod.Path == path {
			version = r.Mod.Version
		}
	}
	for _, r := range mf.Replace {
		if r.Old.Path == path && r.New.Version != "" {
			version = r.New.Version
		}
	}
	t, err := module.PseudoVersionTime(version)
	if err != nil {
		return time.Time{}, false
	}
	return t, true
}

// String names the change and the files its sign reads.
func (s Sign) String() string {
	return fmt.Sprintf("%s: %s", s.Change.Date, strings.Join(s.Files, ", "))
}

// parseGoMod parses a go.mod file with its replace directives (which
// ParseLax drops), leniently when a newer go wrote a statement this one
// does not know.
func parseGoMod(file string, data []byte) (*modfile.File, error) {
	if mf, err := modfile.Parse(file, data, nil); err == nil {
		return mf, nil
	}
	return modfile.ParseLax(file, data, nil)
}
