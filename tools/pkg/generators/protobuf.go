package generators

import (
	"fmt"
	"os"
	"slices"

	"github.com/spf13/pflag"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/generator"
	"github.com/gatedcrd/gatedcrd/tools/pkg/protobuf"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// protoOptional is the environment variable with which the reference
// skips protobuf (it needs protoc there; here nothing outside the binary).
const protoOptional = "PROTO_OPTIONAL"

// Protobuf writes generated.proto and generated.pb.go, and the protobuf
// struct tags of the Go types, for the API groups whose .codegen.yaml
// turns protobuf on (it is off by default), as k8s.io/code-generator's
// go-to-protobuf does with protoc and protoc-gen-gogo, in process
// (package protobuf).
type Protobuf struct {
	HeaderFile string
}

// Name implements generator.Generator.
func (g *Protobuf) Name() string { return "go-to-protobuf" }

// AddFlags registers the --go-to-protobuf: flags.
func (g *Protobuf) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&g.HeaderFile, "go-to-protobuf:header-file-path", "", "file whose text heads each generated file; none when empty")
}

// enabled lists the packages protobuf is on for (groups whose section
// sets disabled: false, less their disabledVersions, which name the
// GroupVersion's version, such as "1.0") by the section's header file.
func (g *Protobuf) enabled(ctx *generator.Context) (map[string][]protobuf.Package, []string, int) {
	byHeader := map[string][]protobuf.Package{}
	var headers []string
	n := 0
	for _, grp := range ctx.Discovery.Groups {
		c := grp.Config.Protobuf
		if !c.DisabledSet || c.Disabled {
			continue
		}
		// The section sets every option: the flag's header applies to no
		// group (protobuf is on only through a section), as with the
		// reference.
		header := c.HeaderFilePath
		for _, v := range grp.Versions {
			if slices.Contains(c.DisabledVersions, v.Version) {
				continue
			}
			if _, ok := byHeader[header]; !ok {
				headers = append(headers, header)
			}
			byHeader[header] = append(byHeader[header], protobuf.Package{Dir: v.Dir, ImportPath: v.ImportPath})
			n++
		}
	}
	return byHeader, headers, n
}

// Generate implements generator.Generator.
func (g *Protobuf) Generate(ctx *generator.Context) error {
	byHeader, headers, n := g.enabled(ctx)
	if n == 0 {
		return nil
	}
	if v := os.Getenv(protoOptional); v != "" {
		ctx.Problems.Add(diag.Warningf("", 0, "", "%s is set (%q): go-to-protobuf skipped for %d package(s), as the reference does; gatedcrd needs no protoc, so unset it to generate or verify them", protoOptional, v, n))
		return nil
	}
	return ctx.Cached(g.Name(), fmt.Sprintf("%#v", byHeader), headers, func(t *tree.Tree) error {
		return g.generate(ctx, t, byHeader, headers)
	})
}

// generate records the files of every enabled package in t, one
// go-to-protobuf run per header file.
func (g *Protobuf) generate(ctx *generator.Context, t *tree.Tree, byHeader map[string][]protobuf.Package, headers []string) error {
	for _, h := range headers {
		var header []byte
		if h != "" {
			b, err := os.ReadFile(h)
			if err != nil {
				return fmt.Errorf("header file: %w", err)
			}
			header = b
		}
		files, err := protobuf.Generate(byHeader[h], protobuf.Options{Header: header, ModuleDir: ctx.Discovery.ModuleDir})
		if err != nil {
			return err
		}
		for path, data := range files {
			t.Put(path, data)
		}
		ctx.Logf("go-to-protobuf: %d package(s), %d file(s)", len(byHeader[h]), len(files))
	}
	return nil
}
