// Package referenceera tells which era of the reference generator
// (openshift/api's codegen, features/refera.Era) a repository follows,
// from the repository itself, before its payload FeatureGate files are
// looked at:
//
//  1. a pin of the reference: a requirement of
//     github.com/openshift/api/tools in one of the repository's go.mod files
//     (operator repositories keep it in hack/tools/go.mod); a
//     pseudo-version carries the date of its commit, which names the era;
//  2. in openshift/api itself, the reference it carries in tools/: each
//     change of the reference that alters output (refera.Changes) is told
//     by a sign in tools/ (Signs) — a module zip has no tools/, a checkout
//     has.
//
// Neither found, the caller falls back to the payload format
// (payload.DetectEra). The repository configuration's referenceEra
// overrides all of it; that is the caller's business too.
package referenceera

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/mod/module"

	"github.com/gatedcrd/gatedcrd/internal/refera"
)

// ToolsModule is the module path of the reference generator.
const ToolsModule = "github.com/openshift/api/tools"

// Choice is the era told from the repository and why.
type Choice struct {
	Era refera.Era
	// Reason says where it came from, for the run's first lines:
	// "github.com/openshift/api/tools v0.0.0-20250915151906-94481d71bb6f in
	// hack/tools/go.mod", "the reference in tools/ of openshift/api: ...".
	Reason string
}

// String renders the choice for a progress line.
func (c Choice) String() string { return string(c.Era) + " (" + c.Reason + ")" }

// candidates are the go.mod files looked at in every directory from the
// base directory up to the repository root, nearest first.
var candidates = []string{"go.mod", "hack/tools/go.mod", "tools/go.mod", "hack/go.mod"}

// FromRepository tells the era from the repository baseDir belongs to:
// its pin of the reference, else the reference in openshift/api's tools/.
// ok is false when neither tells; then notes may say why a pin found was
// of no use (a version without a date, a local replacement).
func FromRepository(baseDir string) (c Choice, notes []string, ok bool) {
	abs, err := filepath.Abs(baseDir)
	if err != nil {
		return Choice{}, nil, false
	}
	dirs := upToRoot(abs)
	seen := map[string]bool{}
	files := func(yield func(string) bool) {
		for _, d := range dirs {
			for _, c := range candidates {
				if f := filepath.Join(d, c); !seen[f] {
					seen[f] = true
					if !yield(f) {
						return
					}
				}
			}
		}
		if root := dirs[len(dirs)-1]; isRepositoryRoot(root) {
			for _, f := range goModsBelow(root) {
				if !seen[f] && !yield(f) {
					return
				}
			}
		}
	}
	for file := range files {
		choice, note, found := pinIn(file)
		if note != "" {
			notes = append(notes, note)
		}
		if found {
			return choice, notes, true
		}
	}
	for _, d := range dirs {
		if choice, found := fromTools(d); found {
			return choice, notes, true
		}
	}
	return Choice{}, notes, false
}

// upToRoot lists dir and its parents up to the repository root (the first
// directory holding .git), or to the file system's root when there is none.
func upToRoot(dir string) []string {
	var out []string
	for d := dir; ; {
		out = append(out, d)
		parent := filepath.Dir(d)
		if isRepositoryRoot(d) || parent == d {
			return out
		}
		d = parent
	}
}

func isRepositoryRoot(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, ".git"))
	return err == nil
}

// skipped are the directories goModsBelow does not enter: another
// project's modules (vendor, node_modules), fixtures and build output.
var skipped = map[string]bool{"vendor": true, "node_modules": true, "testdata": true, "_output": true, "third_party": true}

// maxDepth bounds goModsBelow: a repository keeps its tool modules near
// the top (hack/tools, tools).
const maxDepth = 3

// goModsBelow lists the go.mod files below root, down to maxDepth
// directories, in lexical order.
func goModsBelow(root string) []string {
	var out []string
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			if p != root && (strings.HasPrefix(d.Name(), ".") || skipped[d.Name()] || strings.Count(rel, string(filepath.Separator)) >= maxDepth) {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Name() == "go.mod" {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// pinIn reads the requirement of the reference in one go.mod file. A
// replacement of it by another version counts; one by a directory does
// not (note says so).
func pinIn(file string) (c Choice, note string, ok bool) {
	data, err := os.ReadFile(file)
	if err != nil {
		return Choice{}, "", false
	}
	mf, err := parseGoMod(file, data)
	if err != nil {
		return Choice{}, "", false
	}
	version := ""
	for _, r := range mf.Require {
		if r.Mod.Path == ToolsModule {
			version = r.Mod.Version
		}
	}
	for _, r := range mf.Replace {
		if r.Old.Path == ToolsModule && (r.Old.Version == "" || r.Old.Version == version) {
			if r.New.Version == "" {
				return Choice{}, fmt.Sprintf("%s replaces %s by the directory %s, whose date it does not tell", fromWorkingDir(file), ToolsModule, r.New.Path), false
			}
			version = r.New.Version
		}
	}
	if version == "" {
		return Choice{}, "", false
	}
	where := fmt.Sprintf("%s %s in %s", ToolsModule, version, fromWorkingDir(file))
	t, err := module.PseudoVersionTime(version)
	if err != nil {
		return Choice{}, where + " is no pseudo-version and tells no date", false
	}
	return dated(t, where), "", true
}

// dated is the era of the reference as of t.
func dated(t time.Time, where string) Choice {
	date := t.UTC().Format(time.DateOnly)
	era := refera.EraAt(date)
	if date < "2025-09-01" {
		return Choice{Era: era, Reason: where + ", of " + date + ", older than every era known: the oldest"}
	}
	return Choice{Era: era, Reason: where + ", of " + date}
}

// fromWorkingDir is file relative to the working directory when it can
// be, for messages.
func fromWorkingDir(file string) string {
	wd, err := os.Getwd()
	if err != nil {
		return file
	}
	if rel, err := filepath.Rel(wd, file); err == nil {
		return rel
	}
	return file
}
