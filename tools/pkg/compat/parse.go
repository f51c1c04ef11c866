package compat

import (
	"crypto/sha256"
	"fmt"
	"sync"

	yamlv3 "go.yaml.in/yaml/v3"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"
)

// parseCache decodes each distinct file content once for both trees: most
// files are the same in both, and most CRDs never need more than their
// metadata (equal content needs no comparison).
type parseCache struct {
	mu       sync.Mutex
	byDigest map[[sha256.Size]byte]*parsedFile
}

func newParseCache() *parseCache {
	return &parseCache{byDigest: map[[sha256.Size]byte]*parsedFile{}}
}

// parsedFile is one file content, decoded in two steps.
type parsedFile struct {
	data   []byte
	digest [sha256.Size]byte

	metaOnce    sync.Once
	name        string
	annotations map[string]string
	metaErr     error

	fullOnce sync.Once
	crd      *apiextensionsv1.CustomResourceDefinition
	fullErr  error
}

func (c *parseCache) get(data []byte) *parsedFile {
	d := sha256.Sum256(data)
	c.mu.Lock()
	defer c.mu.Unlock()
	f := c.byDigest[d]
	if f == nil {
		f = &parsedFile{data: data, digest: d}
		c.byDigest[d] = f
	}
	return f
}

// meta decodes kind, name and annotations only.
func (f *parsedFile) meta() error {
	f.metaOnce.Do(func() {
		var head struct {
			Kind     string `yaml:"kind"`
			Metadata struct {
				Name        string            `yaml:"name"`
				Annotations map[string]string `yaml:"annotations"`
			} `yaml:"metadata"`
		}
		if err := yamlv3.Unmarshal(f.data, &head); err != nil {
			f.metaErr = fmt.Errorf("not a CustomResourceDefinition: %v", err)
			return
		}
		if head.Kind != "CustomResourceDefinition" || head.Metadata.Name == "" {
			f.metaErr = fmt.Errorf("not a CustomResourceDefinition with a name")
			return
		}
		f.name, f.annotations = head.Metadata.Name, head.Metadata.Annotations
	})
	return f.metaErr
}

// full decodes the whole CRD.
func (f *parsedFile) full() (*apiextensionsv1.CustomResourceDefinition, error) {
	f.fullOnce.Do(func() {
		crd := &apiextensionsv1.CustomResourceDefinition{}
		if err := yaml.Unmarshal(f.data, crd); err != nil {
			f.fullErr = fmt.Errorf("not a CustomResourceDefinition: %v", err)
			return
		}
		f.crd = crd
	})
	return f.crd, f.fullErr
}
