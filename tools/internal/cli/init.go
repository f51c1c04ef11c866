package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gatedcrd/gatedcrd/internal/clicontract"
	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/internal/repoconfig"
	"github.com/gatedcrd/gatedcrd/tools/pkg/baseline"
	"github.com/gatedcrd/gatedcrd/tools/pkg/compatlevel"
	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
	"github.com/gatedcrd/gatedcrd/tools/pkg/pipeline"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// initCommand opts a repository in to every check gatedcrd makes beyond
// the reference, in one step that leaves it passing: it writes
// .gatedcrd.yaml with what it finds today and a strict baseline of
// today's strict findings.
func initCommand(opts *options) *cobra.Command {
	return &cobra.Command{
		Use:   "init",
		Short: "Opt in to every check: write " + repoconfig.FileName + " (Kubernetes release from go.mod, the reference era, strict markers, ...) and " + baseline.FileName + " with today's findings",
		Long: `init writes ` + repoconfig.FileName + ` at --base-dir so that the checks gatedcrd makes
beyond the reference become errors, and a strict baseline that accepts
today's strict-marker findings, so that the tree passes as it is. A check
that would fail today (CRD validation at the inferred Kubernetes release,
required annotations, compatibility levels that no exception can cover)
is written commented out, with the number of findings to fix first.
It refuses to overwrite an existing ` + repoconfig.FileName + `.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runInit(opts)
		},
	}
}

// initFacts is what init found in the tree.
type initFacts struct {
	strictFindings int
	era            string
	eraFrom        string
	kubeMinor      string
	kubeReason     string
	// notOptedIn counts today's findings per check (pipeline.NotOptedIn).
	notOptedIn map[string]int
	// exceptions are the GA types whose level only an exception allows;
	// compatibleOK says every compatibility finding is such a type.
	exceptions   []string
	compatibleOK bool
}

func runInit(opts *options) error {
	file := filepath.Join(opts.baseDir, repoconfig.FileName)
	if _, err := os.Stat(file); !errors.Is(err, fs.ErrNotExist) {
		return &clicontract.Error{Code: ExitInput, Msg: fmt.Sprintf("error: %s already exists; edit it instead (README: \"Opting in to more checks\")", file)}
	}
	facts := &initFacts{}
	opts.writeBaseline, opts.strict, opts.strictSet, opts.verify = true, true, true, true
	opts.afterBaseline = func(r *pipeline.Run, strictFindings int) error {
		facts.strictFindings = strictFindings
		facts.notOptedIn = r.NotOptedIn
		facts.kubeMinor, facts.kubeReason = r.KubeTarget.Minor, r.RelativeText(r.KubeTarget.Reason)
		if era, why := r.Era(); era != "" {
			facts.era, facts.eraFrom = string(era), r.RelativeText(why)
		}
		return nil
	}
	if err := run(opts, pipeline.AllStages); err != nil {
		return err
	}
	if err := facts.compatibility(opts.baseDir); err != nil {
		return err
	}
	if err := tree.WriteFileAtomic(file, []byte(facts.render())); err != nil {
		return &clicontract.Error{Code: ExitIO, Msg: fmt.Sprintf("error: writing %s: %v", file, err)}
	}
	progress(opts, "codegen init: wrote %s; commit it with %s", file, baseline.FileName)
	return nil
}

// compatibility runs the compatibility level rules as warnings and keeps
// the GA types that need an exception.
func (f *initFacts) compatibility(base string) error {
	disc, _, err := discovery.Discover(base, nil)
	if err != nil {
		return &clicontract.Error{Code: ExitInput, Msg: fmt.Sprintf("error: %v", err)}
	}
	res, problems := compatlevel.Run(compatlevel.Input{Discovery: disc, Tree: tree.New()})
	f.compatibleOK = res != nil
	for _, d := range problems {
		if d.Severity != diag.Warning || !strings.Contains(d.Message, "compatibility.exceptions") {
			f.compatibleOK = false
			continue
		}
		dir := filepath.ToSlash(tree.Rel(disc.BaseDir, filepath.Dir(d.File)))
		f.exceptions = append(f.exceptions, dir+"."+strings.TrimPrefix(d.Subject, "type "))
	}
	slices.Sort(f.exceptions)
	f.exceptions = slices.Compact(f.exceptions)
	return nil
}

// render writes the configuration: every check on, except those that
// would fail today, which are there commented out.
func (f *initFacts) render() string {
	var b strings.Builder
	b.WriteString(`# gatedcrd configuration, written by "codegen init". Each key opts in to a
# check gatedcrd makes beyond the reference: its findings become errors.
# Without this file they are warnings (README: "Opting in to more checks").

# Unknown or misspelled markers and unknown FeatureGate names are errors;
`)
	fmt.Fprintf(&b, "# %s accepts the %d found when this file was written.\nstrictMarkers: true\n", baseline.FileName, f.strictFindings)
	if f.era != "" {
		fmt.Fprintf(&b, "\n# The era of the reference whose output this tree holds (detected:\n# %s).\nreferenceEra: %q\n", f.eraFrom, f.era)
	}
	b.WriteString("\n# The CRDs are validated as this Kubernetes release's API server does\n")
	fmt.Fprintf(&b, "# (%s).\n", f.kubeReason)
	f.section(&b, pipeline.CheckKubeVersion, fmt.Sprintf("kubeVersion: %q\n", f.kubeMinor))
	b.WriteString("\n# Every CRD of an API group ending in .openshift.io names its API approval.\n")
	f.section(&b, pipeline.CheckRequiredAnnotations, "requiredAnnotations:\n  groupSuffix: "+repoconfig.DefaultGroupSuffix+"\n  annotations: ["+repoconfig.DefaultApprovalAnnotation+"]\n")
	b.WriteString("\n# Compatibility levels follow the version: GA 1, beta 2, alpha 4.\n")
	compat := "compatibility:\n"
	if len(f.exceptions) > 0 {
		compat += "  # GA types that keep a historic level.\n  exceptions:\n"
		for _, e := range f.exceptions {
			compat += "  - " + e + "\n"
		}
	} else {
		compat += "  enabled: false\n"
	}
	if f.compatibleOK {
		b.WriteString(compat)
	} else {
		b.WriteString("# Some types break the rules in ways no exception covers (codegen\n# compatibility lists them); fix them, then remove the '#':\n")
		b.WriteString(commentOut(compat))
	}
	return b.String()
}

// section writes a check's configuration, commented out with the number
// of today's findings when there are any.
func (f *initFacts) section(b *strings.Builder, check, text string) {
	n := f.notOptedIn[check]
	if n == 0 {
		b.WriteString(text)
		return
	}
	fmt.Fprintf(b, "# %d finding(s) today; fix them, then remove the '#':\n", n)
	b.WriteString(commentOut(text))
}

func commentOut(text string) string {
	lines := strings.SplitAfter(text, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = "# " + l
		}
	}
	return strings.Join(lines, "")
}
