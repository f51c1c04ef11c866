package cli

import (
	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/internal/repoconfig"
	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
)

// discoverConfigured runs discovery (keeping filter) and reads the
// repository configuration, the start of every housekeeping command; its
// error is the command's exit error.
func discoverConfigured(opts *options, filter []string) (*discovery.Result, repoconfig.Config, error) {
	disc, probs, err := discover(opts, filter)
	if err != nil {
		return nil, repoconfig.Config{}, discoveryError(opts, disc, probs, err)
	}
	cfg, err := repoconfig.Load(disc.BaseDir)
	if err != nil {
		return nil, repoconfig.Config{}, inputError(opts, relativeTo(disc.BaseDir, nil, err), nil)
	}
	return disc, cfg, nil
}

// discoveryError reports a failed discovery with paths relative to the
// base directory.
func discoveryError(opts *options, disc *discovery.Result, probs *diag.List, err error) error {
	base := opts.baseDir
	if disc != nil {
		base = disc.BaseDir
	}
	var items []diag.Diagnostic
	if probs != nil {
		items = probs.Items()
	}
	return inputError(opts, relativeTo(base, items, err), nil)
}
