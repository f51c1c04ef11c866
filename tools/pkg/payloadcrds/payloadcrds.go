package payloadcrds

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sort"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/internal/repoconfig"
	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifestmerge"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// mergedDir holds the final CRD manifests of a version directory.
const mergedDir = manifestmerge.OutputDirName

// Input is what Run needs.
type Input struct {
	// Discovery must cover the whole tree: globs are checked against every
	// generated file.
	Discovery *discovery.Result
	Tree      *tree.Tree
	Config    repoconfig.PayloadCRDs
	// ConfigFile locates the glob lists in problems.
	ConfigFile string
}

// Result says what Run arranged in the tree.
type Result struct {
	// Dir is the absolute payload CRD directory.
	Dir string
	// Copied maps each copy to its source, absolute paths.
	Copied map[string]string
	// Untracked are files of Dir that no selected file names; Run removes
	// them.
	Untracked []string
}

// Run writes the payload directory into the tree: every included file,
// flat by base name, and the removal of everything else there. It returns
// nil and problems when the configuration does not account for every
// generated file.
func Run(in Input) (*Result, []diag.Diagnostic) {
	if !in.Config.Configured {
		return nil, nil
	}
	base := in.Discovery.BaseDir
	generated, problems := generatedFiles(in)
	selected, more := selectFiles(in, generated)
	problems = append(problems, more...)
	if len(problems) > 0 {
		return nil, problems
	}
	res := &Result{Dir: filepath.Join(base, filepath.FromSlash(in.Config.Directory)), Copied: map[string]string{}}
	for _, rel := range selected {
		src := filepath.Join(base, filepath.FromSlash(rel))
		data, err := in.Tree.ReadFile(src)
		if err != nil {
			problems = append(problems, diag.Errorf(src, 0, "", "cannot be read: %v", err))
			continue
		}
		dst := filepath.Join(res.Dir, path.Base(rel))
		in.Tree.WriteFile(dst, data)
		res.Copied[dst] = src
	}
	entries, err := in.Tree.ReadDir(res.Dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		problems = append(problems, diag.Errorf(res.Dir, 0, "", "cannot be read: %v", err))
	}
	for _, e := range entries {
		p := filepath.Join(res.Dir, e.Name)
		if _, ok := res.Copied[p]; ok {
			continue
		}
		if e.IsDir {
			in.Tree.RemoveAll(p)
		} else {
			in.Tree.Remove(p)
		}
		res.Untracked = append(res.Untracked, p)
	}
	if len(problems) > 0 {
		return nil, problems
	}
	return res, nil
}

// generatedFiles lists every generated CRD manifest of every discovered
// version, as '/'-separated paths relative to the base directory, sorted.
func generatedFiles(in Input) ([]string, []diag.Diagnostic) {
	var out []string
	var problems []diag.Diagnostic
	for _, v := range in.Discovery.Versions() {
		dir := filepath.Join(v.Dir, mergedDir)
		paths, err := manifestmerge.OutputFiles(in.Tree, v)
		if err != nil {
			problems = append(problems, diag.Errorf(dir, 0, "", "cannot be read: %v", err))
			continue
		}
		for _, path := range paths {
			rel, err := filepath.Rel(in.Discovery.BaseDir, path)
			if err != nil {
				problems = append(problems, diag.Errorf(dir, 0, "", "is not below the base directory"))
				continue
			}
			out = append(out, filepath.ToSlash(rel))
		}
	}
	sort.Strings(out)
	return out, problems
}

// selectFiles applies the glob lists. An included file is selected even
// when an exclude glob matches it too, so that a broad exclude can
// acknowledge "everything else of this directory".
func selectFiles(in Input, generated []string) ([]string, []diag.Diagnostic) {
	var problems []diag.Diagnostic
	cfgFile := in.ConfigFile
	hits := map[repoconfig.Pattern]int{}
	match := func(patterns []repoconfig.Pattern, rel string) bool {
		found := false
		for _, p := range patterns {
			if ok, _ := path.Match(p.Glob, rel); ok {
				hits[p]++
				found = true
			}
		}
		return found
	}
	var selected []string
	byBase := map[string]string{}
	for _, rel := range generated {
		included := match(in.Config.Include, rel)
		excluded := match(in.Config.Exclude, rel)
		switch {
		case included:
			b := path.Base(rel)
			if other, dup := byBase[b]; dup {
				problems = append(problems, diag.Errorf(filepath.Join(in.Discovery.BaseDir, filepath.FromSlash(rel)), 0, "",
					"is selected for the payload, but so is %s, and both would be copied to %s/%s; exclude one of them in %s", other, in.Config.Directory, b, filepath.Base(cfgFile)))
				continue
			}
			byBase[b] = rel
			selected = append(selected, rel)
		case !excluded:
			problems = append(problems, diag.Errorf(filepath.Join(in.Discovery.BaseDir, filepath.FromSlash(rel)), 0, "",
				"this generated CRD manifest is neither copied to the payload nor excluded; add the line \"  - %s\" under payloadCRDs.include (to ship it) or payloadCRDs.exclude in %s", rel, filepath.Base(cfgFile)))
		}
	}
	for _, list := range []struct {
		key      string
		patterns []repoconfig.Pattern
	}{{"payloadCRDs.include", in.Config.Include}, {"payloadCRDs.exclude", in.Config.Exclude}} {
		for _, p := range list.patterns {
			if hits[p] == 0 {
				problems = append(problems, diag.Errorf(cfgFile, p.Line, list.key,
					"%q matches no generated CRD manifest (the %s/*.yaml files of the API versions found below the base directory); fix or remove it", p.Glob, mergedDir))
			}
		}
	}
	return selected, problems
}

// Untracked renders the --verify message for a file of the payload
// directory that no glob selects.
func Untracked(rel, configFile string) string {
	return fmt.Sprintf("%s is untracked: no generated CRD manifest selected by payloadCRDs.include has this name; add its source to payloadCRDs.include in %s, or let codegen payload-crds remove it", rel, configFile)
}
