package manifest

import (
	"os"
	"path/filepath"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"

	"sigs.k8s.io/yaml"

	"github.com/gatedcrd/gatedcrd/internal/realtrees"
)

// benchManifest is the largest reference CRD manifest, parsed.
func benchManifest(b *testing.B) map[string]any {
	b.Helper()
	root := os.Getenv("GATEDCRD_BENCH_MANIFEST")
	if dir, ok := realtrees.ReferenceDataDir(); root == "" && ok {
		matches, _ := filepath.Glob(filepath.Join(dir, "*", "*", "*.yaml"))
		var size int64
		for _, p := range matches {
			if st, err := os.Stat(p); err == nil && st.Size() > size {
				root, size = p, st.Size()
			}
		}
	}
	if root == "" {
		b.Skip("no manifest to benchmark (set GATEDCRD_BENCH_MANIFEST or " + realtrees.ReferenceDataEnv + ")")
	}
	data, err := os.ReadFile(root)
	if err != nil {
		b.Fatal(err)
	}
	m, err := Parse(data)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	return m
}

// BenchmarkMarshal measures Marshal against the sigs.k8s.io/yaml detour it
// replaces (Detour).
func BenchmarkMarshal(b *testing.B) {
	m := benchManifest(b)
	b.Run("Marshal", func(b *testing.B) {
		for b.Loop() {
			if _, err := Marshal(m); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Subtrees/first", func(b *testing.B) {
		for b.Loop() {
			if _, err := NewSubtrees().Marshal(m); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Subtrees/one-description-changed", func(b *testing.B) {
		// As in a codegen watch cycle after a doc-comment edit: one
		// description differs from the rendering before.
		s := NewSubtrees()
		edited := runtime.DeepCopyJSONValue(m).(map[string]any)
		if !changeDeepestDescription(edited) {
			b.Skip("no description to change")
		}
		docs := []map[string]any{m, edited}
		for i := 0; b.Loop(); i++ {
			if _, err := s.Marshal(docs[i%2]); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Detour", func(b *testing.B) {
		for b.Loop() {
			if _, err := yaml.Marshal(m); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkParse measures Parse against the sigs.k8s.io/yaml round trip it
// replaces (Detour).
func BenchmarkParse(b *testing.B) {
	m := benchManifest(b)
	data, err := Marshal(m)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("Parse", func(b *testing.B) {
		for b.Loop() {
			if _, err := Parse(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Detour", func(b *testing.B) {
		for b.Loop() {
			var out map[string]any
			if err := yaml.Unmarshal(data, &out); err != nil {
				b.Fatal(err)
			}
		}
	})
}
