package schemapatch

import (
	"bytes"
	"path/filepath"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/internal/workers"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// Stage 3 output below the version directories.
//
// Stage 2 skips stage 3's merged manifests (they carry
// manifest.MergedAnnotation), but only parsing a file proves that it is
// one, and on a generated tree those files are about half of the YAML
// below the version directories. When stage 3 runs in the same process
// (Input.PresumeMerged), Run does not parse a file of a version's
// manifest.MergedManifestsDirName whose bytes begin as every stage 3
// output does; it presumes the file is stage 3 output and lists it in
// Result.Presumed. Stage 3 then rewrites that directory, and
// Result.Settle checks the presumption: a file stage 3 wrote with the
// very same bytes is stage 3 output. Only the others (stale, broken or
// hand-made files) are parsed, and what Run would have reported about
// them is reported then.

// mergedHead is how every manifest stage 3 writes begins: serialised with
// sorted keys, and with annotations, as its merged annotation is one.
const mergedHead = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  annotations:\n"

// mergedLine is the merged annotation as stage 3 serialises it.
var mergedLine = []byte("    " + manifest.MergedAnnotation + ": \"" + mergedValue + "\"")

// looksMerged reports whether data, the file at path, looks like stage 3
// output: it is in the output directory of one of versionDirs, begins
// with mergedHead, has the merged annotation in the annotations block
// that follows, and holds one document (a file of several gets its error
// from Run right away).
func looksMerged(path string, data []byte, versionDirs map[string]bool) bool {
	dir := filepath.Dir(path)
	if filepath.Base(dir) != manifest.MergedManifestsDirName || !versionDirs[filepath.Dir(dir)] {
		return false
	}
	rest, ok := bytes.CutPrefix(data, []byte(mergedHead))
	if !ok {
		return false
	}
	for bytes.HasPrefix(rest, []byte("    ")) {
		var line []byte
		line, rest, _ = bytes.Cut(rest, []byte("\n"))
		if bytes.Equal(line, mergedLine) {
			return manifest.CountDocuments(data) == 1
		}
	}
	return false
}

// Settle checks the files Run presumed to be stage 3 output
// (Result.Presumed) once stage 3 ran, and reports what Run would have
// reported about those that are not, relative to baseDir, to problems.
// stage3 tells whether stage 3 wrote or removed a path in this run and
// the bytes it wrote (nil for a removal); nil stands for a stage 3 that
// did not run. A file stage 3 wrote with the bytes Run saw is stage 3
// output. A file that turns out to be a manifest Run would have patched
// (its bytes begin as stage 3 output, but a later key replaces its
// metadata or annotations) is fine when stage 3 replaced or removed it,
// as it replaces whatever stage 2 writes there; otherwise it is an error,
// as it is too late to patch it.
func (r *Result) Settle(baseDir string, problems *diag.List, stage3 func(path string) (data []byte, touched bool)) {
	type check struct {
		file    *manifest.File
		touched bool
	}
	var checks []check
	for _, f := range r.Presumed {
		var c check
		if stage3 != nil {
			var data []byte
			if data, c.touched = stage3(f.Path); c.touched && bytes.Equal(data, f.Data) {
				continue
			}
		}
		c.file = f
		checks = append(checks, c)
	}
	memo := r.memo
	r.Presumed, r.memo = nil, nil
	found := make([][]diag.Diagnostic, len(checks))
	workers.Each(len(checks), func(i int) {
		c := checks[i]
		rel := tree.Rel(baseDir, c.file.Path)
		// readManifest only reads the object, and it is dropped here.
		m, ds := readManifest(rel, memo.ViewFile(c.file.Path, c.file.Data), nil)
		if m != nil && !c.touched {
			ds = append(ds, diag.Errorf(rel, 0, "", "begins as a merged manifest of stage 3 (%s: %q) but, read as a whole, is a CRD manifest stage 2 patches (a later key replaces its metadata or annotations) in a directory stage 3 does not write; remove the file", manifest.MergedAnnotation, mergedValue))
		}
		found[i] = ds
	})
	for _, ds := range found {
		problems.Add(ds...)
	}
}
