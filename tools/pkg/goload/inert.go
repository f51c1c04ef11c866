package goload

import (
	"os"
	"slices"

	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/gatedcrd/gatedcrd/internal/workers"
	"github.com/gatedcrd/gatedcrd/tools/pkg/genfiles"
)

// leaveOutInert removes from the compiled files of every package reachable
// from roots the generated files that no stage needs (genfiles.Unneeded),
// before anything parses them: controller-tools parses and type-checks a
// package's compiled files, and such files are most of k8s.io/api/core/v1,
// which every group-version referring to a core type loads. Only the
// files genfiles.Candidate names are read, on every core; known is as
// for leaveOutInertIn.
func leaveOutInert(roots []*loader.Package, overlay map[string][]byte, known map[string]bool) {
	var pkgs []*loader.Package
	eachPackage(roots, func(p *loader.Package) { pkgs = append(pkgs, p) })
	leaveOutInertIn(pkgs, overlay, known)
}

// leaveOutInertIn is leaveOutInert for the packages pkgs. known, when not
// nil, holds the verdict on each file read before, by absolute path, for
// a caller that forgets the verdicts of the files that change (Session):
// a known file is not read again, and the verdicts on the files read are
// added. That spares a watch cycle after an edit of openshift/api's
// config/v1 scanning its 300 KB swagger_doc_generated.go again.
func leaveOutInertIn(pkgs []*loader.Package, overlay map[string][]byte, known map[string]bool) {
	type candidate struct {
		pkg   *loader.Package
		name  string
		inert bool
		known bool // inert is a verdict: known before, or read now
	}
	var cands []*candidate
	for _, p := range pkgs {
		for _, name := range p.CompiledGoFiles {
			if genfiles.Candidate(name) {
				c := &candidate{pkg: p, name: name}
				c.inert, c.known = known[name]
				cands = append(cands, c)
			}
		}
	}
	workers.Each(len(cands), func(i int) {
		c := cands[i]
		if c.known {
			return
		}
		src, ok := overlay[c.name]
		if !ok {
			var err error
			if src, err = os.ReadFile(c.name); err != nil {
				return // parsing it reports the error
			}
		}
		c.inert, c.known = genfiles.Unneeded(c.name, src), true
	})
	inert := map[*loader.Package]map[string]bool{}
	for _, c := range cands {
		if known != nil && c.known {
			known[c.name] = c.inert
		}
		if c.inert {
			if inert[c.pkg] == nil {
				inert[c.pkg] = map[string]bool{}
			}
			inert[c.pkg][c.name] = true
		}
	}
	for p, names := range inert {
		// A new slice: go/packages may share the old one with GoFiles.
		p.CompiledGoFiles = slices.DeleteFunc(slices.Clone(p.CompiledGoFiles), func(n string) bool { return names[n] })
	}
}
