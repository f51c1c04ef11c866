package protobuf

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"go/format"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/bufbuild/protocompile"
	"github.com/bufbuild/protocompile/linker"
	gogoproto "github.com/gogo/protobuf/proto"
	gogodescriptor "github.com/gogo/protobuf/protoc-gen-gogo/descriptor"
	gogogenerator "github.com/gogo/protobuf/protoc-gen-gogo/generator"
	gogoplugin "github.com/gogo/protobuf/protoc-gen-gogo/plugin"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/imports"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
	"k8s.io/gengo/v2/generator"

	// The gogo plugin set protoc-gen-gogo runs (marshal, unmarshal, size,
	// stringer, ...) registers itself with the generator package from this
	// package's imports.
	_ "github.com/gogo/protobuf/vanity/command"

	// Registers gogo.proto's descriptor, the fallback when the module has
	// no copy of the file.
	_ "github.com/gogo/protobuf/gogoproto"
)

const gogoProtoImport = "github.com/gogo/protobuf/gogoproto/gogo.proto"

// The gogo generator and its plugins are process-wide singletons.
var gogoMu sync.Mutex

// compileAndGenerate compiles the IDL (named protoName, as protoc would see
// it relative to the GOPATH-style import root) and runs protoc-gen-gogo on
// it, returning the content protoc would have written as generated.pb.go.
func (r *run) compileAndGenerate(c *generator.Context, protoName string, idl []byte) ([]byte, error) {
	compiler := protocompile.Compiler{
		Resolver: protocompile.WithStandardImports(protocompile.ResolverFunc(func(name string) (protocompile.SearchResult, error) {
			return r.findProto(c, protoName, idl, name)
		})),
		SourceInfoMode: protocompile.SourceInfoStandard,
	}
	compiled, err := compiler.Compile(context.Background(), protoName)
	if err != nil {
		return nil, fmt.Errorf("compiling %s: %w", protoName, err)
	}

	// All files, dependencies before dependents, as protoc hands them to a
	// plugin.
	var files []*gogodescriptor.FileDescriptorProto
	seen := map[string]bool{}
	var visit func(fd protoreflect.FileDescriptor) error
	visit = func(fd protoreflect.FileDescriptor) error {
		if seen[fd.Path()] {
			return nil
		}
		seen[fd.Path()] = true
		imps := fd.Imports()
		for i := 0; i < imps.Len(); i++ {
			if err := visit(imps.Get(i).FileDescriptor); err != nil {
				return err
			}
		}
		var fdp *descriptorpb.FileDescriptorProto
		if res, ok := fd.(linker.Result); ok {
			fdp = res.FileDescriptorProto()
		} else {
			fdp = protodesc.ToFileDescriptorProto(fd)
		}
		b, err := proto.Marshal(fdp)
		if err != nil {
			return fmt.Errorf("encoding descriptor of %s: %w", fd.Path(), err)
		}
		g := &gogodescriptor.FileDescriptorProto{}
		if err := gogoproto.Unmarshal(b, g); err != nil {
			return fmt.Errorf("decoding descriptor of %s: %w", fd.Path(), err)
		}
		files = append(files, g)
		return nil
	}
	if err := visit(compiled[0]); err != nil {
		return nil, err
	}

	// protoc-gen-gogo as k8s.io/code-generator builds it switches to
	// source-relative output paths whenever an input name has a directory.
	req := &gogoplugin.CodeGeneratorRequest{
		FileToGenerate: []string{protoName},
		ProtoFile:      files,
	}
	if strings.Contains(protoName, "/") {
		req.Parameter = gogoproto.String("paths=source_relative")
	}
	content, err := runGogo(req, strings.TrimSuffix(protoName, ".proto")+".pb.go")
	if err != nil {
		return nil, err
	}
	return content, nil
}

// runGogo runs the protoc-gen-gogo generator in process, following the
// steps of gogo's vanity command, and returns the named output file.
func runGogo(req *gogoplugin.CodeGeneratorRequest, want string) (out []byte, err error) {
	gogoMu.Lock()
	defer gogoMu.Unlock()
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("protoc-gen-gogo panicked: %v\n%s", p, debug.Stack())
		}
	}()
	g := gogogenerator.New()
	g.Request = req
	g.CommandLineParameters(g.Request.GetParameter())
	g.WrapTypes()
	g.SetPackageNames()
	g.BuildTypeNameMap()
	g.GenerateAllFiles()
	if g.Response.Error != nil {
		return nil, fmt.Errorf("protoc-gen-gogo: %s", g.Response.GetError())
	}
	var names []string
	for _, f := range g.Response.File {
		if f.GetName() != want {
			names = append(names, f.GetName())
			continue
		}
		formatted, err := format.Source([]byte(f.GetContent()))
		if err != nil {
			return nil, fmt.Errorf("protoc-gen-gogo output for %s does not format: %w", want, err)
		}
		return formatted, nil
	}
	return nil, fmt.Errorf("protoc-gen-gogo produced no %s (got %v)", want, names)
}

// findProto resolves a .proto file: the IDL being compiled from memory,
// then Options.ProtoPaths, then the directory of the Go package named by the
// import's directory (from the loaded universe, or `go list` in the module,
// which honours vendor/ and the module cache), then for gogo.proto the copy
// compiled into the gogo library.
func (r *run) findProto(c *generator.Context, protoName string, idl []byte, name string) (protocompile.SearchResult, error) {
	if name == protoName {
		return protocompile.SearchResult{Source: bytes.NewReader(idl)}, nil
	}
	for _, d := range r.opts.ProtoPaths {
		if b, err := os.ReadFile(filepath.Join(d, filepath.FromSlash(name))); err == nil {
			return protocompile.SearchResult{Source: bytes.NewReader(b)}, nil
		}
	}
	if strings.HasPrefix(name, "google/protobuf/") {
		// Left to the compiler's bundled well-known files.
		return protocompile.SearchResult{}, fs.ErrNotExist
	}
	if dir, err := r.goPackageDir(c, path.Dir(name)); err == nil && dir != "" {
		if b, err := os.ReadFile(filepath.Join(dir, path.Base(name))); err == nil {
			return protocompile.SearchResult{Source: bytes.NewReader(b)}, nil
		}
	}
	if name == gogoProtoImport {
		fdp, err := builtinGogoProto()
		if err != nil {
			return protocompile.SearchResult{}, err
		}
		return protocompile.SearchResult{Proto: fdp}, nil
	}
	return protocompile.SearchResult{}, fmt.Errorf("%s: %w", name, fs.ErrNotExist)
}

// goPackageDir finds the directory of a Go package as seen from the module.
func (r *run) goPackageDir(c *generator.Context, importPath string) (string, error) {
	if u, ok := c.Universe[importPath]; ok && u.Dir != "" {
		return u.Dir, nil
	}
	if d, ok := r.goDirs[importPath]; ok {
		return d, nil
	}
	pkgs, err := packages.Load(&packages.Config{
		Mode: packages.NeedName | packages.NeedFiles,
		Dir:  r.moduleDir,
		Env:  r.opts.Env,
	}, importPath)
	dir := ""
	if err == nil && len(pkgs) == 1 {
		p := pkgs[0]
		switch {
		case len(p.GoFiles) > 0:
			dir = filepath.Dir(p.GoFiles[0])
		case len(p.OtherFiles) > 0:
			dir = filepath.Dir(p.OtherFiles[0])
		case p.Module != nil && p.Module.Dir != "":
			dir = filepath.Join(p.Module.Dir, strings.TrimPrefix(strings.TrimPrefix(importPath, p.Module.Path), "/"))
		}
	}
	r.goDirs[importPath] = dir
	return dir, err
}

// builtinGogoProto is gogo.proto as compiled into the gogo library (the
// same v1.3.2 source), under the import path go-to-protobuf uses.
func builtinGogoProto() (*descriptorpb.FileDescriptorProto, error) {
	gz := gogoproto.FileDescriptor("gogo.proto")
	if len(gz) == 0 {
		return nil, errors.New("gogo.proto not found in the module and not registered by the gogo library")
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, fmt.Errorf("reading gogo library's gogo.proto: %w", err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("reading gogo library's gogo.proto: %w", err)
	}
	fdp := &descriptorpb.FileDescriptorProto{}
	if err := proto.Unmarshal(raw, fdp); err != nil {
		return nil, fmt.Errorf("decoding gogo library's gogo.proto: %w", err)
	}
	fdp.Name = proto.String(gogoProtoImport)
	for i, dep := range fdp.Dependency {
		if dep == "descriptor.proto" {
			fdp.Dependency[i] = "google/protobuf/descriptor.proto"
		}
	}
	return fdp, nil
}

// formatGenerated applies what the reference runs on generated.pb.go after
// rewriting it: goimports, then gofmt -s.
func formatGenerated(filename string, src []byte) ([]byte, error) {
	out, err := imports.Process(filename, src, &imports.Options{
		Comments:  true,
		TabIndent: true,
		TabWidth:  8,
		Fragment:  true,
	})
	if err != nil {
		return nil, fmt.Errorf("goimports: %w", err)
	}
	return gofmtSimplify(filename, out)
}
