package cli

// Exit statuses. They are part of the command's interface: scripts and CI
// tell "stale" from "broken" by them (see docs/cli.md).
const (
	// ExitOK means success, including "nothing to do".
	ExitOK = 0
	// ExitStale means --verify found files that would change.
	ExitStale = 1
	// ExitUsage means the command line was wrong.
	ExitUsage = 2
	// ExitInput means the input tree has errors (markers, manifests,
	// configuration, Go types); nothing was written.
	ExitInput = 3
	// ExitIO means reading or writing files failed.
	ExitIO = 4
)

// exitError carries an exit status through cobra's error return.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }
