package openapiv3

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/gatedcrd/gatedcrd/features/crdvariant"
	"github.com/gatedcrd/gatedcrd/features/featuregate"
)

// VariantCRDs reads the merged CRD manifests (*.yaml) of every directory in
// dirs, in order, and returns those whose variant annotations cover the
// tuple t (features/crdvariant): the variant's CRDs. A CRD selected by two
// files is an error, since the stage writes exactly one file per CRD and
// tuple. Errors name the file.
func VariantCRDs(dirs []string, t featuregate.TupleGates) ([]*apiextensionsv1.CustomResourceDefinition, error) {
	var out []*apiextensionsv1.CustomResourceDefinition
	from := map[string]string{}
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		var names []string
		for _, e := range entries {
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".yaml") {
				names = append(names, e.Name())
			}
		}
		sort.Strings(names)
		for _, name := range names {
			file := filepath.Join(dir, name)
			data, err := os.ReadFile(file)
			if err != nil {
				return nil, err
			}
			crd, err := ParseCRD(data)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", file, err)
			}
			variants, err := crdvariant.Decode(crd.Annotations)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", file, err)
			}
			if !variants.Covers(t) {
				continue
			}
			if other, dup := from[crd.Name]; dup {
				return nil, fmt.Errorf("%s: CRD %s is also selected from %s; the merge stage writes one file per CRD and variant: regenerate", file, crd.Name, other)
			}
			from[crd.Name] = file
			out = append(out, crd)
		}
	}
	return out, nil
}
