package clicontract

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
)

// The names of the flags the commands share; each means the same in every
// command that has it (docs/cli.md).
const (
	// BaseDirFlag is the tree the command works on; the defaults of other
	// paths are below it.
	BaseDirFlag = "base-dir"
	// PayloadFlag is the directory of payload FeatureGate manifests, named
	// as openshift/api's codegen names it; a given path is relative to the
	// working directory, as there.
	PayloadFlag = "manifest-merge:payload-manifest-path"
	// PayloadAlias is the earlier name of PayloadFlag in apitest and
	// write-available-featuresets, kept for their scripts.
	PayloadAlias = "payload-dir"
	// KubeVersionFlag is the Kubernetes release(s) the command targets.
	KubeVersionFlag = "kube-version"
	// StrictFlag makes what gatedcrd accepts with a warning, where the
	// reference accepts it silently, an error.
	StrictFlag = "strict"
	// SkipFlag names a skip list of API tests (apitest's, which codegen
	// watch --suites passes on to it).
	SkipFlag = "skip"
	// SkipUsage is the help of SkipFlag.
	SkipUsage = "a YAML list of tests that cannot pass on some Kubernetes versions, and why (see docs/api-tests.md); they are reported as skipped"
	// VerboseFlag and QuietFlag set how much the command says on
	// standard error; -v and -q are their shorthands.
	VerboseFlag = "verbose"
	QuietFlag   = "quiet"
)

// Verbosity is the level of -v: 0 by default, 1 for -v alone, N for -v=N
// or -v N (the klog convention of codegen and the reference, whose
// scripts run "codegen -v 1"). "true" and "false" are 1 and 0, so that
// the boolean -v of earlier apitest releases keeps its meaning.
type Verbosity int

// Set parses a level.
func (v *Verbosity) Set(s string) error {
	switch s {
	case "true":
		*v = 1
		return nil
	case "false":
		*v = 0
		return nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return fmt.Errorf("%q is not a verbosity level (a number from 0)", s)
	}
	*v = Verbosity(n)
	return nil
}

func (v *Verbosity) String() string { return strconv.Itoa(int(*v)) }

// Type names the value in --help.
func (v *Verbosity) Type() string { return "level" }

// Output is what -v and -q asked for.
type Output struct {
	Verbosity Verbosity
	Quiet     bool
}

// AddOutputFlags adds -v/--verbose and -q/--quiet to fs; more says what
// -v shows in this command.
func AddOutputFlags(fs *pflag.FlagSet, o *Output, more string) {
	fs.VarP(&o.Verbosity, VerboseFlag, "v", "verbosity level: -v alone is 1, -v N or -v=N a level; "+more)
	fs.Lookup(VerboseFlag).NoOptDefVal = "1"
	fs.BoolVarP(&o.Quiet, QuietFlag, "q", false, "print only errors and results: no progress lines or warnings on standard error")
}

// Aliases maps the earlier names of shared flags to the contract's names:
// --v (klog's name) to --verbose, --payload-dir to the payload flag, and
// extra, per command (such as codegen's --strict-markers). Use it as the
// flag set's normalize function; the old names then keep working.
func Aliases(extra map[string]string) func(*pflag.FlagSet, string) pflag.NormalizedName {
	return func(_ *pflag.FlagSet, name string) pflag.NormalizedName {
		switch name {
		case "v":
			return VerboseFlag
		case PayloadAlias:
			return PayloadFlag
		}
		if to, ok := extra[name]; ok {
			return pflag.NormalizedName(to)
		}
		return pflag.NormalizedName(name)
	}
}

// NormalizeArgs rewrites the spellings that the commands accepted before
// they shared one flag parser into what pflag accepts:
//   - "-v N", "--v N" and "--verbose N" become "-v=N" (pflag takes the
//     value of a flag that has one for "-v" alone only after "="): the
//     next argument is the level unless it is a flag, as klog's -v took
//     it, so that "-v x" is still an invalid level, not a stray argument;
//   - "-name" and "-name=value" for a long flag (the single dash of Go's
//     flag package, which apitest and write-available-featuresets used)
//     become "--name".
//
// isLong reports whether a name is a long flag of the command. Arguments
// after "--" are left alone.
func NormalizeArgs(args []string, isLong func(string) bool) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		if isVerbose(a) && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
			out = append(out, a+"="+args[i+1])
			i++
			continue
		}
		if name, ok := singleDashLong(a); ok && isLong(name) {
			a = "-" + a
		}
		out = append(out, a)
	}
	return out
}

func isVerbose(arg string) bool {
	return arg == "-v" || arg == "--v" || arg == "--"+VerboseFlag
}

// singleDashLong returns the flag name of "-name" or "-name=value" when
// the name is longer than one letter (one letter is a shorthand).
func singleDashLong(arg string) (string, bool) {
	if len(arg) < 3 || arg[0] != '-' || arg[1] == '-' {
		return "", false
	}
	name, _, _ := strings.Cut(arg[1:], "=")
	return name, len(name) > 1
}
