package main

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// stageColumns are the stats stages shown as columns, in pipeline order.
// A column may collect several stage names.
var stageColumns = []struct {
	Title string
	Names []string
}{
	{"discovery", []string{"discovery"}},
	{"load", []string{"load"}},
	{"strict-markers", []string{"strict-markers"}},
	{"empty-partial-schemas", []string{"empty-partial-schemas"}},
	{"schemapatch", []string{"schemapatch"}},
	{"crd-manifest-merge", []string{"crd-manifest-merge"}},
	{"commit/verify", []string{"commit", "verify", "commit/verify"}},
}

// target is one performance goal.
type target struct {
	Name  string
	Limit float64
	Unit  string
	Match func(runSpec) bool
	Value func(result) (float64, bool)
}

const mb = 1 << 20

var targets = []target{
	{"update wall time", 10, "s", func(s runSpec) bool { return s.Update }, wallSeconds},
	{"update peak RSS", 400, "MB", func(s runSpec) bool { return s.Update }, rssMB},
	{"verify wall time", 8, "s", func(s runSpec) bool { return s.Verify }, wallSeconds},
	{"single group-version wall time", 2, "s", func(s runSpec) bool { return s.Single }, wallSeconds},
}

func wallSeconds(r result) (float64, bool) { return r.Wall.Seconds(), true }
func rssMB(r result) (float64, bool)       { return float64(r.RSS) / mb, r.RSSKnown }

const none = "–"

func renderReport(bin, tree string, results []result, notes []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "codegen `%s` on `%s` (%s, %s)\n\n", bin, tree, machine(), time.Now().UTC().Format("2006-01-02"))

	extra := extraStages(results)
	header := []string{"run", "exit", "wall s", "peak RSS MB"}
	for _, c := range stageColumns {
		header = append(header, c.Title+" s")
	}
	for _, e := range extra {
		header = append(header, e+" s")
	}
	header = append(header, "packages loaded", "CRDs / partial manifests", "schemas generated", "merges / tuples", "files written / unchanged / removed")
	row(&b, header)
	sep := make([]string, len(header))
	for i := range sep {
		sep[i] = "---:"
	}
	sep[0] = "---"
	row(&b, sep)
	for _, r := range results {
		cells := []string{r.Spec.Name, exitCell(r), fmt.Sprintf("%.2f", r.Wall.Seconds()), rssCell(r)}
		for _, c := range stageColumns {
			cells = append(cells, secondsCell(r.Stats, c.Names...))
		}
		for _, e := range extra {
			cells = append(cells, secondsCell(r.Stats, e))
		}
		s := r.Stats
		if s == nil {
			s = &stats{}
		}
		cells = append(cells,
			intCell(s.PackagesLoaded),
			intCell(s.CRDs)+" / "+intCell(s.PartialManifests),
			intCell(s.SchemasGenerated),
			intCell(s.MergesComputed)+" / "+intCell(s.Tuples),
			intCell(s.FilesWritten)+" / "+intCell(s.FilesUnchanged)+" / "+intCell(s.FilesRemoved))
		row(&b, cells)
	}

	b.WriteString("\n")
	row(&b, []string{"target", "run", "limit", "measured", "result"})
	row(&b, []string{"---", "---", "---:", "---:", "---"})
	for _, t := range targets {
		for _, r := range results {
			if !t.Match(r.Spec) {
				continue
			}
			v, known := t.Value(r)
			measured, verdict := none, "MISS"
			if known {
				measured = fmt.Sprintf("%.2f %s", v, t.Unit)
			}
			switch {
			case !r.ok():
				verdict = "MISS (run failed)"
			case !known:
				verdict = "MISS (not measured)"
			case v <= t.Limit:
				verdict = "PASS"
			}
			row(&b, []string{t.Name, r.Spec.Name, fmt.Sprintf("≤ %g %s", t.Limit, t.Unit), measured, verdict})
		}
	}

	var problems []string
	for _, r := range results {
		switch {
		case r.Err != nil:
			problems = append(problems, fmt.Sprintf("%s: %v", r.Spec.Name, r.Err))
		case r.ExitCode != 0:
			problems = append(problems, fmt.Sprintf("%s: exit status %d", r.Spec.Name, r.ExitCode))
		}
		if r.StatsErr != nil && r.Err == nil {
			problems = append(problems, fmt.Sprintf("%s: no stats: %v", r.Spec.Name, r.StatsErr))
		}
	}
	if len(notes)+len(problems) > 0 {
		b.WriteString("\n")
		for _, n := range append(notes, problems...) {
			fmt.Fprintf(&b, "- %s\n", n)
		}
	}
	return b.String()
}

// extraStages lists stage names that no fixed column shows, in order of
// first appearance, so a new stage is never silently dropped.
func extraStages(results []result) []string {
	known := map[string]bool{}
	for _, c := range stageColumns {
		for _, n := range c.Names {
			known[n] = true
		}
	}
	var out []string
	for _, r := range results {
		if r.Stats == nil {
			continue
		}
		for _, st := range r.Stats.Stages {
			if !known[st.Name] && !slices.Contains(out, st.Name) {
				out = append(out, st.Name)
			}
		}
	}
	return out
}

func row(b *strings.Builder, cells []string) {
	b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
}

func exitCell(r result) string {
	if r.Err != nil {
		return "error"
	}
	return fmt.Sprint(r.ExitCode)
}

func rssCell(r result) string {
	if !r.RSSKnown {
		return none
	}
	return fmt.Sprintf("%.0f", float64(r.RSS)/mb)
}

func secondsCell(s *stats, names ...string) string {
	v, ok := s.stageSeconds(names...)
	if !ok {
		return none
	}
	return fmt.Sprintf("%.2f", v)
}

func intCell(p *int) string {
	if p == nil {
		return none
	}
	return fmt.Sprint(*p)
}
