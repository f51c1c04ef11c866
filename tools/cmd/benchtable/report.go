package main

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// stageColumn is a column of per-stage seconds; it may collect several
// stage names.
type stageColumn struct {
	Title string
	Names []string
}

// stageColumns are the stats stages shown as columns, in pipeline order,
// when some run reports them.
var stageColumns = []stageColumn{
	{"discovery", []string{"discovery"}},
	{"load", []string{"load"}},
	{"strict-markers", []string{"strict-markers"}},
	{"empty-partial-schemas", []string{"empty-partial-schemas"}},
	{"schemapatch", []string{"schemapatch"}},
	{"crd-manifest-merge", []string{"crd-manifest-merge"}},
	{"crd-validation", []string{"crd-validation"}},
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

// targets are issue 19's, for a tree the size of openshift/api on 2 cores.
var targets = []target{
	{"update wall time", 2, "s", isUpdate, wallSeconds},
	{"update peak RSS", 300, "MB", isUpdate, rssMB},
	{"verify wall time", 2, "s", isVerify, wallSeconds},
	{"verify peak RSS", 300, "MB", isVerify, rssMB},
	{"single group-version wall time", 0.5, "s", func(s runSpec) bool { return s.Single }, wallSeconds},
	{"CRD validation stage", 0.5, "s", func(s runSpec) bool { return s.Update || s.Verify }, validationSeconds},
}

func isUpdate(s runSpec) bool { return s.Update }
func isVerify(s runSpec) bool { return s.Verify }

func wallSeconds(r result) (float64, bool) { return r.Wall.Seconds(), true }
func rssMB(r result) (float64, bool)       { return float64(r.RSS) / mb, r.RSSKnown }
func validationSeconds(r result) (float64, bool) {
	return r.Stats.stageSeconds("crd-validation")
}

const none = "–"

// environment describes a measurement for the report's first line.
type environment struct {
	Bin, Tree          string
	Args               []string
	Runs               int
	LoadStart, LoadEnd string
}

// renderReport renders one row per run (the best of its repetitions), the
// target table and notes; runs[i] holds the repetitions of the i-th run.
func renderReport(env environment, runs [][]result, notes []string) string {
	var b strings.Builder
	cmd := "`" + env.Bin + "`"
	if len(env.Args) > 0 {
		cmd += " with `" + strings.Join(env.Args, " ") + "`"
	}
	fmt.Fprintf(&b, "codegen %s on `%s` (%s, %s); ", cmd, env.Tree, machine(), time.Now().UTC().Format("2006-01-02 15:04 MST"))
	if env.Runs > 1 {
		fmt.Fprintf(&b, "the fastest of %d repetitions of each run; ", env.Runs)
	}
	fmt.Fprintf(&b, "load average %s at the start, %s at the end\n\n", orNone(env.LoadStart), orNone(env.LoadEnd))

	results := make([]result, len(runs))
	for i, rs := range runs {
		results[i] = best(rs)
	}
	stages := shownStages(results)
	header := []string{"run", "exit", "wall s", "CPU s", "peak RSS MB", "load"}
	if env.Runs > 1 {
		header = append(header, "wall s, every repetition")
	}
	for _, st := range stages {
		header = append(header, st.Title+" s")
	}
	header = append(header, "packages loaded", "CRDs / partial manifests", "gate sets", "schemas generated", "merges / tuples", "files written / unchanged / removed")
	row(&b, header)
	sep := make([]string, len(header))
	for i := range sep {
		sep[i] = "---:"
	}
	sep[0] = "---"
	row(&b, sep)
	for i, r := range results {
		cells := []string{r.Spec.Name, exitCell(r), fmt.Sprintf("%.2f", r.Wall.Seconds()), cpuCell(r), rssCell(r), orNone(r.Load)}
		if env.Runs > 1 {
			var walls []string
			for _, rep := range runs[i] {
				walls = append(walls, fmt.Sprintf("%.2f", rep.Wall.Seconds()))
			}
			cells = append(cells, strings.Join(walls, " / "))
		}
		for _, st := range stages {
			cells = append(cells, secondsCell(r.Stats, st.Names...))
		}
		s := r.Stats
		if s == nil {
			s = &stats{}
		}
		cells = append(cells,
			intCell(s.PackagesLoaded),
			intCell(s.CRDs)+" / "+intCell(s.PartialManifests),
			intCell(s.GateSets),
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

	if busy(env.LoadStart) || busy(env.LoadEnd) {
		notes = append(notes, fmt.Sprintf("The load average exceeded the %d CPUs: other work shared the machine, so wall times are inflated; CPU s is the steadier number.", runtime.NumCPU()))
	}
	var problems []string
	for _, rs := range runs {
		for _, r := range rs {
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
	}
	if len(notes)+len(problems) > 0 {
		b.WriteString("\n")
		for _, n := range append(notes, problems...) {
			fmt.Fprintf(&b, "- %s\n", n)
		}
	}
	return b.String()
}

// shownStages returns the fixed stage columns some run reports (all of
// them when no run has stats), then a column for each stage name no fixed
// column knows, in order of first appearance, so a new stage is never
// silently dropped and a stage that no longer exists takes no room.
func shownStages(results []result) []stageColumn {
	reported := map[string]bool{}
	anyStats := false
	for _, r := range results {
		if r.Stats == nil {
			continue
		}
		anyStats = true
		for _, st := range r.Stats.Stages {
			reported[st.Name] = true
		}
	}
	known := map[string]bool{}
	var out []stageColumn
	for _, c := range stageColumns {
		shown := !anyStats
		for _, n := range c.Names {
			known[n] = true
			shown = shown || reported[n]
		}
		if shown {
			out = append(out, c)
		}
	}
	for _, r := range results {
		if r.Stats == nil {
			continue
		}
		for _, st := range r.Stats.Stages {
			if !known[st.Name] {
				known[st.Name] = true
				out = append(out, stageColumn{st.Name, []string{st.Name}})
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

// busy reports whether a load average is above the number of CPUs.
func busy(load string) bool {
	v, err := strconv.ParseFloat(load, 64)
	return err == nil && v > float64(runtime.NumCPU())
}

func orNone(s string) string {
	if s == "" {
		return none
	}
	return s
}

func cpuCell(r result) string {
	if r.ExitCode < 0 {
		return none
	}
	return fmt.Sprintf("%.2f", r.CPU.Seconds())
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
