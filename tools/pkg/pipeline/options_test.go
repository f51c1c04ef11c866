package pipeline_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
	"github.com/gatedcrd/gatedcrd/tools/pkg/pipeline"
)

// TestOptionNames: messages about an option's value name the option as
// the caller says (codegen: its flag), else after its Options field.
func TestOptionNames(t *testing.T) {
	dir := testtree.Copy(t, "../../internal/corpus/testdata/base")
	for _, tc := range []struct {
		names         pipeline.OptionNames
		groups, kubeV string
	}{
		{pipeline.OptionNames{}, "GroupVersions: ", "KubeVersion: "},
		{pipeline.OptionNames{GroupVersions: "--gv", KubeVersion: "--kv"}, "--gv: ", "--kv: "},
	} {
		r := pipeline.New(pipeline.Options{BaseDir: dir, GroupVersions: []string{"nothing/v1"}, OptionNames: tc.names})
		if _, err := r.Discover(); !errors.Is(err, pipeline.ErrInput) {
			t.Fatalf("an unmatched group-version: %v, want ErrInput", err)
		}
		want := tc.groups + "nothing/v1 match(es) no API group-version"
		if got := r.Problems.Items(); len(got) != 1 || !strings.HasPrefix(got[0].Message, want) {
			t.Errorf("problems %v, want one beginning %q", got, want)
		}

		r = pipeline.New(pipeline.Options{BaseDir: dir, KubeVersion: "one", OptionNames: tc.names})
		var kv *pipeline.KubeVersionError
		if _, err := r.Discover(); !errors.As(err, &kv) || !strings.HasPrefix(kv.Msg, tc.kubeV+`"one" is not a Kubernetes release`) {
			t.Errorf("a malformed release: %v, want a KubeVersionError beginning %q", err, tc.kubeV)
		}
	}
}
