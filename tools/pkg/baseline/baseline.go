package baseline

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"

	yamlv3 "go.yaml.in/yaml/v3"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/internal/yamlfile"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// FileName is the baseline file below --base-dir.
const FileName = ".codegen-baseline.yaml"

// header explains the file to whoever opens it.
const header = `# Strict-mode findings this tree accepts, written by codegen strict-baseline.
# Strict runs fail on every finding not listed here and warn about entries
# that no longer match anything. Entries name a file (relative to --base-dir)
# and the marker or key text; line numbers are not part of them. Fix a
# finding, then run codegen strict-baseline again to drop its entry.
`

// Entry is one accepted finding.
type Entry struct {
	// File is the file of the finding, slash-separated and relative to
	// the base directory.
	File string `yaml:"file"`
	// Marker is the marker line or configuration key the finding is about.
	Marker string `yaml:"marker"`
	// Count is how many findings of File and Marker are accepted; 0 means 1.
	Count int `yaml:"count,omitempty"`
	// Message is the finding's message when the entry was written; it is
	// for readers only and never compared.
	Message string `yaml:"message,omitempty"`
}

type document struct {
	Findings []Entry `yaml:"findings"`
}

type key struct{ file, marker string }

// Baseline is a read baseline file that tracks which entries were used.
type Baseline struct {
	// Path is the file it was read from.
	Path    string
	entries []Entry
	left    map[key]int
}

// Read reads the baseline at path. A missing file yields nil and no error.
// Unknown keys and entries without file or marker are errors with the
// file and line, every one of them reported.
func Read(path string) (*Baseline, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, diag.Errorf(path, 0, "", "cannot be read: %v", err)
	}
	r := yamlfile.NewReader(path)
	b := &Baseline{Path: path, left: map[key]int{}}
	root, _ := r.Parse(data)
	if root != nil {
		r.Each("", root, map[string]func(yamlfile.Field){
			"findings": func(f yamlfile.Field) {
				items, _ := r.List("findings", f.Value, "entries with file and marker")
				for i, item := range items {
					if e, ok := readEntry(r, fmt.Sprintf("findings[%d]", i), item); ok {
						b.entries = append(b.entries, e)
						b.left[key{e.File, e.Marker}] += max(e.Count, 1)
					}
				}
			},
		})
	}
	if err := r.Err(); err != nil {
		return nil, err
	}
	return b, nil
}

// readEntry reads the entry item, named section in problems.
func readEntry(r *yamlfile.Reader, section string, item *yamlv3.Node) (Entry, bool) {
	var e Entry
	before := r.Len()
	fields := r.Fields(section, item, "file", "marker", "count", "message")
	if fields == nil {
		return e, false
	}
	for name, dst := range map[string]*string{"file": &e.File, "marker": &e.Marker, "message": &e.Message} {
		if f, ok := fields[name]; ok {
			*dst, _ = r.String(section+"."+name, f.Value)
		}
	}
	if f, ok := fields["count"]; ok {
		e.Count, _ = r.Int(section+".count", f.Value)
	}
	if r.Len() != before {
		return e, false
	}
	if e.File == "" || e.Marker == "" || e.Count < 0 {
		r.Addf(item.Line, section, "needs file and marker, and a count that is not negative")
		return e, false
	}
	return e, true
}

// Accept reports whether the baseline accepts one more finding about
// marker in file (relative, slash-separated), and counts it as used.
func (b *Baseline) Accept(file, marker string) bool {
	if b == nil {
		return false
	}
	k := key{file, marker}
	if b.left[k] <= 0 {
		return false
	}
	b.left[k]--
	return true
}

// Stale returns the entries, or the part of their count, that accepted
// nothing, in file order.
func (b *Baseline) Stale() []Entry {
	if b == nil {
		return nil
	}
	var out []Entry
	seen := map[key]bool{}
	for _, e := range b.entries {
		k := key{e.File, e.Marker}
		if n := b.left[k]; n > 0 && !seen[k] {
			seen[k] = true
			out = append(out, Entry{File: e.File, Marker: e.Marker, Count: n, Message: e.Message})
		}
	}
	return out
}

// Finding is a strict-mode finding to record.
type Finding struct {
	File, Marker, Message string
}

// Entries turns findings into sorted entries, one per file and marker.
func Entries(findings []Finding) []Entry {
	index := map[key]int{}
	var out []Entry
	for _, f := range findings {
		k := key{f.File, f.Marker}
		if i, ok := index[k]; ok {
			out[i].Count++
			continue
		}
		index[k] = len(out)
		out = append(out, Entry{File: f.File, Marker: f.Marker, Count: 1, Message: f.Message})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].File != out[j].File {
			return out[i].File < out[j].File
		}
		return out[i].Marker < out[j].Marker
	})
	for i := range out {
		if out[i].Count == 1 {
			out[i].Count = 0
		}
	}
	return out
}

// Render returns the content of a baseline file listing entries.
func Render(entries []Entry) ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString(header)
	enc := yamlv3.NewEncoder(&buf)
	enc.SetIndent(2)
	if entries == nil {
		entries = []Entry{}
	}
	if err := enc.Encode(document{Findings: entries}); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Write writes a baseline file listing entries to path, atomically.
func Write(path string, entries []Entry) error {
	data, err := Render(entries)
	if err != nil {
		return err
	}
	return tree.WriteFileAtomic(path, data)
}
