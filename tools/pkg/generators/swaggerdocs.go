package generators

import (
	"strings"

	"github.com/spf13/pflag"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/generator"
	"github.com/gatedcrd/gatedcrd/tools/pkg/swaggerdocs"
)

// The comment policies of swaggerdocs: what a struct or field without a
// doc comment does under --verify.
const (
	CommentPolicyIgnore  = "Ignore"
	CommentPolicyWarn    = "Warn"
	CommentPolicyEnforce = "Enforce"
)

// SwaggerDocs writes each package's SwaggerDoc methods.
type SwaggerDocs struct {
	OutputFile, CommentPolicy string
}

// Name implements generator.Generator.
func (g *SwaggerDocs) Name() string { return "swaggerdocs" }

// AddFlags registers the --swagger: flags.
func (g *SwaggerDocs) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&g.OutputFile, "swagger:output-file-name", swaggerdocs.DefaultOutputFile, "name of each package's swagger doc file")
	fs.StringVar(&g.CommentPolicy, "swagger:comment-policy", CommentPolicyEnforce, "what a struct or field without a doc comment does under --verify: Ignore, Warn (a warning) or Enforce (an error)")
}

// Generate implements generator.Generator. As with the reference, the
// comment policy applies under --verify; a generation reports the missing
// comments as warnings whatever the policy, except Ignore.
func (g *SwaggerDocs) Generate(ctx *generator.Context) error {
	for _, grp := range ctx.Discovery.Groups {
		out, policy := g.OutputFile, g.CommentPolicy
		if c := grp.Config.SwaggerDocs; c.Present {
			if c.Disabled {
				continue
			}
			out, policy = orDefault(c.OutputFile, swaggerdocs.DefaultOutputFile), orDefault(c.CommentPolicy, CommentPolicyEnforce)
		}
		switch policy {
		case CommentPolicyIgnore, CommentPolicyWarn, CommentPolicyEnforce:
		default:
			ctx.Problems.Add(diag.Errorf(grp.ConfigFile, 0, "swaggerdocs.commentPolicy", "unknown comment policy %q; use Ignore, Warn or Enforce", policy))
			continue
		}
		for _, v := range grp.Versions {
			res, err := swaggerdocs.Generate(ctx.Tree, swaggerdocs.Package{Dir: v.Dir, Name: v.PackageName}, out)
			if err != nil {
				ctx.Problems.AddError(err)
				continue
			}
			if res.Missing == 0 || policy == CommentPolicyIgnore {
				continue
			}
			sev := diag.Warningf
			if ctx.Verify && policy == CommentPolicyEnforce {
				sev = diag.Errorf
			}
			ctx.Problems.Add(sev(v.Dir, 0, "", "%d struct(s) or field(s) without a doc comment (swaggerdocs comment policy %s):\n%s", res.Missing, policy, strings.TrimRight(res.MissingReport, "\n")))
		}
	}
	return nil
}
