package gatelifecycle

import (
	"bytes"
	"path/filepath"
	"strings"

	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// Write puts the pages (by file name, from Render) into dir of the tree
// and removes the pages of gates that are gone: .md files of dir that
// start with Header. Other files of dir are left alone.
func Write(t *tree.Tree, dir string, pages map[string][]byte) {
	for name, data := range pages {
		t.WriteFile(filepath.Join(dir, name), data)
	}
	entries, _ := t.ReadDir(dir) // a missing directory has no stale pages
	for _, e := range entries {
		if e.IsDir || !strings.HasSuffix(e.Name, ".md") || pages[e.Name] != nil {
			continue
		}
		p := filepath.Join(dir, e.Name)
		if data, err := t.ReadFile(p); err == nil && bytes.HasPrefix(data, []byte(Header)) {
			t.Remove(p)
		}
	}
}
