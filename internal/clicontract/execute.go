package clicontract

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"
)

// Execute runs cmd, the root of a command tree, with args and returns its
// exit status, printing its error the contract's way: an *Error's message
// as it is, any other error (cobra's parse errors) as a usage error
// followed by where to read the usage. --help prints on stdout and exits
// 0. cmd should silence cobra's own error and usage printing.
func Execute(cmd *cobra.Command, args []string, stdout, stderr io.Writer) int {
	cmd.SetArgs(NormalizeArgs(args, func(name string) bool { return longFlag(cmd, args, name) }))
	cmd.SetOut(stdout)
	cmd.SetErr(stderr)
	cmd.SilenceErrors = true
	cmd.SilenceUsage = true
	ran, err := cmd.ExecuteC()
	if err == nil {
		return ExitOK
	}
	var e *Error
	if !errors.As(err, &e) {
		fmt.Fprintln(stderr, ErrorLine(err.Error()))
		fmt.Fprintln(stderr, UsageHint(ran.CommandPath()))
		return ExitUsage
	}
	if e.Msg != "" {
		fmt.Fprintln(stderr, e.Msg)
	}
	return e.Code
}

// longFlag reports whether name is a long flag of the sub-command args
// select, or of cmd.
func longFlag(cmd *cobra.Command, args []string, name string) bool {
	target := cmd
	if found, _, err := cmd.Find(args); err == nil && found != nil {
		target = found
	}
	for _, c := range []*cobra.Command{target, cmd} {
		if c.Flags().Lookup(name) != nil || c.PersistentFlags().Lookup(name) != nil {
			return true
		}
	}
	return false
}
