package compat

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"sync"

	yamlv3 "go.yaml.in/yaml/v3"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"
)

// parseCache decodes each distinct content once for both trees. A file is
// read in two parts: its head (kind and metadata), needed for every file to
// know its CRD and tuples, and its body (spec and status), which is all the
// checks look at and is decoded only for the CRDs that differ. Most files
// are the same in both trees, and files of different feature sets often
// differ only in their annotations, so bodies are shared by content.
type parseCache struct {
	mu     sync.Mutex
	files  map[[sha256.Size]byte]*parsedFile
	bodies map[[sha256.Size]byte]*parsedBody
}

func newParseCache() *parseCache {
	return &parseCache{files: map[[sha256.Size]byte]*parsedFile{}, bodies: map[[sha256.Size]byte]*parsedBody{}}
}

// parsedFile is one file content.
type parsedFile struct {
	data []byte
	body *parsedBody

	metaOnce    sync.Once
	name        string
	annotations map[string]string
	metaErr     error
}

// parsedBody is the part of a file from its top-level spec key on.
type parsedBody struct {
	data   []byte
	digest [sha256.Size]byte

	once sync.Once
	crd  *apiextensionsv1.CustomResourceDefinition
	err  error
}

// bodyStart returns where the top-level spec key starts; generated files
// sort their keys, so apiVersion, kind and metadata come before it. It is
// 0 when there is no such line (the whole file is then the body).
func bodyStart(data []byte) int {
	if bytes.HasPrefix(data, []byte("spec:")) {
		return 0
	}
	if i := bytes.Index(data, []byte("\nspec:")); i >= 0 {
		return i + 1
	}
	return 0
}

func (c *parseCache) get(data []byte) *parsedFile {
	d := sha256.Sum256(data)
	c.mu.Lock()
	defer c.mu.Unlock()
	if f := c.files[d]; f != nil {
		return f
	}
	body := data[bodyStart(data):]
	bd := sha256.Sum256(body)
	b := c.bodies[bd]
	if b == nil {
		b = &parsedBody{data: body, digest: bd}
		c.bodies[bd] = b
	}
	f := &parsedFile{data: data, body: b}
	c.files[d] = f
	return f
}

// meta decodes kind, name and annotations: from the head when it has them,
// else from the whole file.
func (f *parsedFile) meta() error {
	f.metaOnce.Do(func() {
		type head struct {
			Kind     string `yaml:"kind"`
			Metadata struct {
				Name        string            `yaml:"name"`
				Annotations map[string]string `yaml:"annotations"`
			} `yaml:"metadata"`
		}
		var h head
		if i := bodyStart(f.data); i > 0 {
			if err := yamlv3.Unmarshal(f.data[:i], &h); err != nil || h.Metadata.Name == "" {
				h = head{}
			}
		}
		if h.Metadata.Name == "" {
			if err := yamlv3.Unmarshal(f.data, &h); err != nil {
				f.metaErr = fmt.Errorf("not a CustomResourceDefinition: %v", err)
				return
			}
		}
		if h.Kind != "CustomResourceDefinition" || h.Metadata.Name == "" {
			f.metaErr = fmt.Errorf("not a CustomResourceDefinition with a name")
			return
		}
		f.name, f.annotations = h.Metadata.Name, h.Metadata.Annotations
	})
	return f.metaErr
}

// full decodes spec and status (the object's metadata stays empty: no
// check reads it).
func (b *parsedBody) full() (*apiextensionsv1.CustomResourceDefinition, error) {
	b.once.Do(func() {
		crd := &apiextensionsv1.CustomResourceDefinition{}
		if err := yaml.Unmarshal(b.data, crd); err != nil {
			b.err = fmt.Errorf("not a CustomResourceDefinition: %v", err)
			return
		}
		b.crd = crd
	})
	return b.crd, b.err
}
