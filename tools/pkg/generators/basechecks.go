package generators

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"
	"sigs.k8s.io/crdify/pkg/config"
	"sigs.k8s.io/crdify/pkg/runner"
	"sigs.k8s.io/crdify/pkg/validations/property"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/compat"
	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
	"github.com/gatedcrd/gatedcrd/tools/pkg/generator"
	"github.com/gatedcrd/gatedcrd/tools/pkg/schemacheck"
)

// DefaultComparisonBase is the git revision both checks compare with
// unless told otherwise, as with the reference.
const DefaultComparisonBase = "master"

// ErrBreaking is returned (wrapped) by the checks when the report has
// breaking findings.
var ErrBreaking = errors.New("breaking changes found")

// BaseError is a base revision or tree that cannot be read or compared:
// bad input, not a finding.
type BaseError struct{ Err error }

func (e *BaseError) Error() string { return e.Err.Error() }
func (e *BaseError) Unwrap() error { return e.Err }

// baseCheck is what crdify and schemacheck share: a comparison, variant
// by variant, of the CRDs of the discovered group-versions with the same
// tree at a git revision.
type baseCheck struct {
	// Base is the git revision of the old side.
	Base string
	// PayloadDir is the payload FeatureGate directory relative to the
	// base directory, slash-separated.
	PayloadDir string
	// Out receives the report; nil discards it.
	Out io.Writer
	// Report is the last run's report.
	Report *compat.Report
}

// run compares; comparerOf returns, per group, the comparer factory, or
// nil when the group has the check disabled.
func (b *baseCheck) run(ctx *generator.Context, tool string, checkNew bool, comparerOf func(*discovery.Group) (func() (compat.Comparer, error), error)) error {
	root := ctx.Discovery.BaseDir
	byDir := map[string]func() (compat.Comparer, error){}
	var versionDirs []string
	for _, g := range ctx.Discovery.Groups {
		f, err := comparerOf(g)
		if err != nil {
			return &BaseError{err}
		}
		if f == nil {
			ctx.Logf("%s: skipping %s: disabled in %s", tool, g.Name, rel(root, g.ConfigFile))
			continue
		}
		byDir[rel(root, g.Dir)] = f
		for _, v := range g.Versions {
			versionDirs = append(versionDirs, rel(root, v.Dir)+"/")
		}
	}
	ctx.Logf("%s: comparing every variant of %d group(s) with %s", tool, len(byDir), b.Base)
	rep, err := compat.Run(compat.Options{
		Old:        compat.GitSource{Dir: root, Rev: b.Base},
		New:        compat.DirSource{Root: root, Name: "the working tree"},
		PayloadDir: b.PayloadDir,
		Tool:       tool,
		CheckNew:   checkNew,
		Preview:    true,
		Include: func(p string) bool {
			for _, d := range versionDirs {
				if strings.HasPrefix(p, d) {
					return true
				}
			}
			return false
		},
		Comparer: func() (compat.Comparer, error) {
			return &byGroup{factories: byDir, made: map[string]compat.Comparer{}}, nil
		},
	})
	if err != nil {
		return &BaseError{err}
	}
	b.Report = rep
	if b.Out != nil {
		if err := rep.WriteText(b.Out); err != nil {
			return err
		}
	}
	if rep.Breaking() {
		return fmt.Errorf("%s: %d breaking change(s) against %s: %w", tool, rep.Summary.Breaking, b.Base, ErrBreaking)
	}
	return nil
}

// byGroup hands each CRD to the comparer of its group, made on first use
// (one byGroup per worker, so comparers are not shared).
type byGroup struct {
	factories map[string]func() (compat.Comparer, error)
	made      map[string]compat.Comparer
}

func (b *byGroup) Compare(name string, dirs []string, old, cur *compat.CRD) []compat.Difference {
	for _, d := range dirs {
		c, ok := b.made[d]
		if !ok {
			f := b.factories[d]
			if f != nil {
				var err error
				if c, err = f(); err != nil {
					return []compat.Difference{{Check: "configuration", Path: "^", Message: err.Error()}}
				}
			}
			b.made[d] = c
		}
		if c != nil {
			return c.Compare(name, dirs, old, cur)
		}
	}
	return nil
}

func rel(root, p string) string {
	r, err := filepath.Rel(root, p)
	if err != nil {
		return filepath.ToSlash(p)
	}
	return filepath.ToSlash(r)
}

// Crdify is `codegen crdify`: sigs.k8s.io/crdify's checks of each variant
// against the same variant at --crdify:comparison-base, configured as
// openshift/api configures them (changes no check handles warn, enum
// values may be added, description edits are ignored) or by the group's
// .codegen.yaml crdify.config.
type Crdify struct{ baseCheck }

// Name implements generator.Generator.
func (g *Crdify) Name() string { return "crdify" }

// AddFlags registers --crdify:comparison-base.
func (g *Crdify) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&g.Base, "crdify:comparison-base", DefaultComparisonBase, "git revision (branch, tag or commit) of the repository holding --base-dir that codegen crdify compares the CRDs with, variant by variant")
}

// DefaultCrdifyConfig is openshift/api's configuration of crdify.
func DefaultCrdifyConfig() config.Config {
	return config.Config{
		UnhandledEnforcement: config.EnforcementPolicyWarn,
		Conversion:           config.ConversionPolicyNone,
		Validations: []config.ValidationConfig{
			{Name: "enum", Enforcement: config.EnforcementPolicyError, Configuration: map[string]any{"additionPolicy": string(property.AdditionPolicyAllow)}},
			{Name: "description", Enforcement: config.EnforcementPolicyNone},
		},
	}
}

// Generate implements generator.Generator: it writes no file.
func (g *Crdify) Generate(ctx *generator.Context) error {
	return g.run(ctx, g.Name(), false, func(grp *discovery.Group) (func() (compat.Comparer, error), error) {
		c := grp.Config.Crdify
		if c.Disabled {
			return nil, nil
		}
		cfg := DefaultCrdifyConfig()
		if c.Config != nil {
			cfg = config.Config{}
			if err := json.Unmarshal(c.Config, &cfg); err != nil {
				return nil, diag.Errorf(rel(ctx.Discovery.BaseDir, grp.ConfigFile), c.ConfigLine, "crdify.config", "%v", err)
			}
		}
		if err := config.ValidateConfig(&cfg); err != nil {
			return nil, diag.Errorf(rel(ctx.Discovery.BaseDir, grp.ConfigFile), c.ConfigLine, "crdify.config", "%v", err)
		}
		// One check of the configuration now, so that a bad validation name
		// is an error before anything is compared.
		if _, err := runner.New(&cfg, runner.DefaultRegistry()); err != nil {
			return nil, diag.Errorf(rel(ctx.Discovery.BaseDir, grp.ConfigFile), c.ConfigLine, "crdify.config", "%v", err)
		}
		return func() (compat.Comparer, error) {
			r, err := runner.New(&cfg, runner.DefaultRegistry())
			if err != nil {
				return nil, err
			}
			return compat.NewCrdifyComparer(r), nil
		}, nil
	})
}

// SchemaCheck is `codegen schemacheck`: crd-schema-checker's comparators
// (package schemacheck) on each variant against the same variant at
// --schemacheck:comparison-base; a CRD new in a tuple is judged alone.
type SchemaCheck struct {
	baseCheck
	Enabled, Disabled []string
}

// Name implements generator.Generator.
func (g *SchemaCheck) Name() string { return "schemacheck" }

// AddFlags registers the --schemacheck: flags.
func (g *SchemaCheck) AddFlags(fs *pflag.FlagSet) {
	known := strings.Join(schemacheck.Known, ", ")
	fs.StringVar(&g.Base, "schemacheck:comparison-base", DefaultComparisonBase, "git revision (branch, tag or commit) of the repository holding --base-dir that codegen schemacheck compares the CRDs with, variant by variant")
	fs.StringSliceVar(&g.Enabled, "schemacheck:enabled-validators", nil, "comparators to run besides the default ones (ignored for a group whose .codegen.yaml has a schemacheck section); known: "+known)
	fs.StringSliceVar(&g.Disabled, "schemacheck:disabled-validators", nil, "comparators not to run (ignored for a group whose .codegen.yaml has a schemacheck section); known: "+known)
}

// Generate implements generator.Generator: it writes no file.
func (g *SchemaCheck) Generate(ctx *generator.Context) error {
	return g.run(ctx, g.Name(), true, func(grp *discovery.Group) (func() (compat.Comparer, error), error) {
		c := grp.Config.SchemaCheck
		enabled, disabled, where := g.Enabled, g.Disabled, "--schemacheck:enabled-validators/--schemacheck:disabled-validators"
		if c.Present {
			if c.Disabled {
				return nil, nil
			}
			enabled, disabled = c.EnabledValidators, c.DisabledValidators
			where = diag.Position{File: rel(ctx.Discovery.BaseDir, grp.ConfigFile), Line: c.Line}.String() + ": schemacheck"
		}
		names, err := schemacheck.Resolve(enabled, disabled)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", where, err)
		}
		return func() (compat.Comparer, error) { return schemacheck.New(names) }, nil
	})
}
