package cli

import (
	"errors"
	"fmt"

	"github.com/gatedcrd/gatedcrd/internal/clicontract"
	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
	"github.com/gatedcrd/gatedcrd/tools/pkg/pipeline"
)

// groupVersionsFlag restricts a run to some group-versions. The libraries
// say what is wrong with a flag's value, the messages here name the flag.
const groupVersionsFlag = "api-group-versions"

// optionNames names the pipeline's options after the flags that set them.
var optionNames = pipeline.OptionNames{GroupVersions: "--" + groupVersionsFlag, KubeVersion: "--" + clicontract.KubeVersionFlag}

// discover runs discovery for a command that does not run the pipeline,
// naming the flag in the error about entries of filter that match nothing.
func discover(opts *options, filter []string) (*discovery.Result, *diag.List, error) {
	disc, probs, err := discovery.Discover(opts.baseDir, filter)
	var unmatched *discovery.FilterError
	if errors.As(err, &unmatched) {
		err = fmt.Errorf("%s: %w", optionNames.GroupVersions, err)
	}
	return disc, probs, err
}
