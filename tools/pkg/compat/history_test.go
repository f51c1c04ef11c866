package compat

import (
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/gatedcrd/gatedcrd/features/featuregate"
	"github.com/gatedcrd/gatedcrd/tools/internal/crdhistory"
)

// The tests' trees are crdhistory's, under the short names they use.

const (
	payloadDir = crdhistory.PayloadDir
	widgets    = crdhistory.Widgets
	outDir     = crdhistory.OutDir
	gatedDir   = crdhistory.GatedDir
)

type snapshot = crdhistory.Snapshot

type history struct{ *crdhistory.History }

func newHistory(t *testing.T) *history {
	h := crdhistory.New(t)
	return &history{h}
}

func (h *history) git(args ...string) string { h.T.Helper(); return h.Git(args...) }

func (h *history) commit(fs snapshot) string { h.T.Helper(); return h.Commit(fs) }

// compare runs compat between base and the work tree.
func (h *history) compare(base string) *Report {
	h.T.Helper()
	rep, err := Run(Options{
		Old:        GitSource{Dir: h.Dir, Rev: base},
		New:        DirSource{Root: h.Dir},
		PayloadDir: payloadDir,
		Accepted:   CodegenYAMLAcceptances(h.Dir),
	})
	if err != nil {
		h.T.Fatal(err)
	}
	return rep
}

func payload(t *testing.T, gates map[string][]featuregate.FeatureSetName) snapshot {
	t.Helper()
	return crdhistory.Payload(t, gates)
}

var (
	preview = crdhistory.Preview
	devOnly = crdhistory.DevOnly
	stable  = crdhistory.Stable
)

func str() apiextensionsv1.JSONSchemaProps { return crdhistory.Str() }

func enum(values ...string) apiextensionsv1.JSONSchemaProps { return crdhistory.Enum(values...) }

func object(props map[string]apiextensionsv1.JSONSchemaProps, required ...string) apiextensionsv1.JSONSchemaProps {
	return crdhistory.Object(props, required...)
}

func withRule(s apiextensionsv1.JSONSchemaProps, rule string) apiextensionsv1.JSONSchemaProps {
	return crdhistory.WithRule(s, rule)
}

func crdFile(t *testing.T, featureSets string, spec apiextensionsv1.JSONSchemaProps) string {
	t.Helper()
	return crdhistory.CRDFile(t, featureSets, spec)
}

func gated(gates ...string) snapshot { return crdhistory.Gated(gates...) }

func merge(trees ...snapshot) snapshot { return crdhistory.Merge(trees...) }
