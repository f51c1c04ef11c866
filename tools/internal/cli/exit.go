package cli

import "github.com/gatedcrd/gatedcrd/internal/clicontract"

// Exit statuses: the contract's (internal/clicontract, docs/cli.md), under
// the names codegen's tests and corpus use.
const (
	ExitOK    = clicontract.ExitOK
	ExitStale = clicontract.ExitFailed
	ExitUsage = clicontract.ExitUsage
	ExitInput = clicontract.ExitInput
	ExitIO    = clicontract.ExitIO
)
