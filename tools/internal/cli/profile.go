package cli

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"

	"github.com/spf13/cobra"

	"github.com/gatedcrd/gatedcrd/internal/clicontract"
)

// addProfiling adds --cpuprofile and --memprofile to root and wraps the
// command of root and of every sub-command, so that a profile covers the
// whole command, whatever it is and however it ends. It must be called
// after the sub-commands are added.
func addProfiling(root *cobra.Command, stderr io.Writer) {
	var cpu, mem string
	pf := root.PersistentFlags()
	pf.StringVar(&cpu, "cpuprofile", "", "write a CPU profile of the run to this file (for go tool pprof)")
	pf.StringVar(&mem, "memprofile", "", "write a heap profile to this file when the run ends: every allocation of the run, and what is still reachable (for go tool pprof)")
	for _, c := range append([]*cobra.Command{root}, root.Commands()...) {
		if c.RunE == nil {
			continue
		}
		inner := c.RunE
		c.RunE = func(cmd *cobra.Command, args []string) error {
			return profiled(cpu, mem, stderr, func() error { return inner(cmd, args) })
		}
	}
}

// profiled runs fn, with the CPU profiler on when cpu is not empty, and
// writes a heap profile to mem afterwards when mem is not empty. A profile
// that cannot be written is an I/O error (exit 4); when fn failed too, its
// exit status wins and the profile's error is only printed.
func profiled(cpu, mem string, stderr io.Writer, fn func() error) error {
	if cpu != "" {
		f, err := os.Create(cpu)
		if err != nil {
			return profileError("--cpuprofile", err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return profileError("--cpuprofile", err)
		}
		defer func() {
			pprof.StopCPUProfile()
			f.Close()
		}()
	}
	err := fn()
	if mem != "" {
		if werr := writeHeapProfile(mem); werr != nil {
			if err == nil {
				return profileError("--memprofile", werr)
			}
			fmt.Fprintf(stderr, "error: --memprofile: %v\n", werr)
		}
	}
	return err
}

// writeHeapProfile writes the heap profile after a collection, so that its
// in-use figures are what the run still holds, as go test -memprofile does.
func writeHeapProfile(path string) error {
	runtime.GC()
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func profileError(flag string, err error) error {
	return &clicontract.Error{Code: ExitIO, Msg: fmt.Sprintf("error: %s: %v", flag, err)}
}
