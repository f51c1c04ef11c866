package payload

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/gatedcrd/gatedcrd/features/featuregate"
)

const enabledCell = `<span style="background-color: #519450">Enabled</span> `

// markdownColumn is one column of features.md: one manifest, titled.
type markdownColumn struct {
	header   string
	manifest Manifest
}

// markdownColumns orders the manifests by feature set, profile and first
// version (the order of Directory.Manifests) and titles them
// "<FeatureSet> on <Profile>". When a (feature set, profile) is split over
// several version files, each of its columns gets " (<range>)" appended, so
// that no file hides another; unsplit columns keep the plain title.
func markdownColumns(d *Directory) []markdownColumn {
	split := map[featuregate.Tuple]int{}
	for _, m := range d.Manifests {
		split[columnKey(m)]++
	}
	manifests := slices.Clone(d.Manifests)
	slices.SortStableFunc(manifests, func(a, b Manifest) int {
		return cmp.Or(
			cmp.Compare(a.FeatureSet, b.FeatureSet),
			cmp.Compare(a.ClusterProfile, b.ClusterProfile),
			cmp.Compare(firstVersion(a), firstVersion(b)))
	})
	columns := make([]markdownColumn, len(manifests))
	for i, m := range manifests {
		header := fmt.Sprintf("%s on %s", m.FeatureSet, m.ClusterProfile)
		if split[columnKey(m)] > 1 {
			header += fmt.Sprintf(" (%s)", VersionRange(m.Versions))
		}
		columns[i] = markdownColumn{header: header, manifest: m}
	}
	return columns
}

// columnKey is the (feature set, profile) of a manifest: a tuple whose
// version is left zero, standing for all of them.
func columnKey(m Manifest) featuregate.Tuple {
	return featuregate.Tuple{ClusterProfile: m.ClusterProfile, FeatureSet: m.FeatureSet}
}

// RenderFeaturesMarkdown renders the features.md table of a payload directory.
//
// The first column is the gate; then one column per manifest (see above for
// titles and order). A row is written per gate named anywhere in the
// directory; rows are ordered by the number of columns in which the gate is
// enabled, then by name. The exact cell spacing, kept for compatibility with
// existing files, is:
//
//	| FeatureGate | <title> | <title>  |
//	| ------ | --- | ---  |
//	| <Gate>| | <span ...>Enabled</span>  |
//
// There is no title line and the output ends with the last row's newline.
func RenderFeaturesMarkdown(d *Directory, opts ...MarkdownOption) []byte {
	var o markdownOptions
	for _, opt := range opts {
		opt(&o)
	}
	columns := markdownColumns(d)
	type row struct {
		gate    featuregate.FeatureGateName
		enabled []bool
		count   int
	}
	var rows []row
	for _, gate := range d.Gates() {
		r := row{gate: gate, enabled: make([]bool, len(columns))}
		for i, c := range columns {
			if c.manifest.IsEnabled(gate) {
				r.enabled[i] = true
				r.count++
			}
		}
		rows = append(rows, r)
	}
	slices.SortFunc(rows, func(a, b row) int {
		return cmp.Or(cmp.Compare(a.count, b.count), cmp.Compare(a.gate, b.gate))
	})

	var b strings.Builder
	b.WriteString("| FeatureGate ")
	for _, c := range columns {
		fmt.Fprintf(&b, "| %s ", c.header)
	}
	b.WriteString(" |\n")
	b.WriteString("| ------ ")
	for range columns {
		b.WriteString("| --- ")
	}
	b.WriteString(" |\n")
	for _, r := range rows {
		if o.gateDocs != "" {
			fmt.Fprintf(&b, "| [%s](%s/%s.md)", r.gate, o.gateDocs, r.gate)
		} else {
			fmt.Fprintf(&b, "| %s", r.gate)
		}
		for _, on := range r.enabled {
			b.WriteString("| ")
			if on {
				b.WriteString(enabledCell)
			}
		}
		b.WriteString(" |\n")
	}
	return []byte(b.String())
}

// MarkdownOption changes the rendering of features.md.
type MarkdownOption func(*markdownOptions)

type markdownOptions struct{ gateDocs string }

// WithGateDocs links every gate name to its lifecycle page <dir>/<Gate>.md
// (relative to features.md; see featureGateDocs in .gatedcrd.yaml). Without
// it the gate column is plain text, as the reference renders it.
func WithGateDocs(dir string) MarkdownOption {
	return func(o *markdownOptions) { o.gateDocs = dir }
}

// WriteFeaturesMarkdown renders features.md for d and replaces path
// atomically.
func WriteFeaturesMarkdown(d *Directory, path string, opts ...MarkdownOption) error {
	return WriteFileAtomic(path, RenderFeaturesMarkdown(d, opts...))
}

// VerifyFeaturesMarkdown compares path with the rendering of d without
// writing: nil when equal, a *StaleError when the file differs or is missing,
// another error when it cannot be read.
func VerifyFeaturesMarkdown(d *Directory, path string, opts ...MarkdownOption) error {
	have, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &StaleError{Differences: []Difference{{Path: path, Kind: Missing}}}
	}
	if err != nil {
		return err
	}
	if diff := compareContent(path, have, RenderFeaturesMarkdown(d, opts...)); diff != nil {
		return &StaleError{Differences: []Difference{*diff}}
	}
	return nil
}

// firstVersion tolerates hand-built manifests without versions.
func firstVersion(m Manifest) int {
	if len(m.Versions) == 0 {
		return 0
	}
	return m.Versions[0]
}
