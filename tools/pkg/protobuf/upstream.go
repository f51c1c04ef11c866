package protobuf

import (
	"fmt"
	"go/ast"
	"reflect"
	"sync"
	"unsafe"

	gtp "k8s.io/code-generator/cmd/go-to-protobuf/protobuf"
	"k8s.io/gengo/v2/generator"
	"k8s.io/gengo/v2/types"
)

// The go-to-protobuf library keeps its per-package state in an unexported
// struct (protobufPackage) that only its Run entry point constructs. Run exits
// the process on every error and shells out to protoc, goimports and gofmt, so
// it cannot be used here. Everything else Run does is reachable: the namer,
// the rewrite functions and the gengo generator are exported, and the package
// struct's methods and fields that matter are exported names on an
// unexported type (callable through interfaces, readable and settable through
// reflection).
//
// The one missing piece is the constructor. It is pulled in with a single
// go:linkname below; its result is a *protobufPackage, which is a plain
// pointer in the calling convention, so it is declared as unsafe.Pointer and
// turned back into a properly typed value with reflect.NewAt. The type itself
// is discovered from the exported namer's packages field, and its shape is
// checked once before first use so that an incompatible upstream release
// produces an error rather than memory corruption.

//go:linkname upstreamNewPackage k8s.io/code-generator/cmd/go-to-protobuf/protobuf.newProtobufPackage
func upstreamNewPackage(packagePath, packageDir, packageName string, generateAll bool, omitFieldTypes map[types.Name]struct{}) unsafe.Pointer

// pkgMethods are the exported methods of the upstream package type used here.
type pkgMethods interface {
	generator.Target
	ExtractGeneratedType(*ast.TypeSpec) bool
	OptionalTypeName(name string) bool
}

var (
	bridgeOnce sync.Once
	bridgeErr  error
	pkgStruct  reflect.Type // upstream protobufPackage
)

// checkBridge verifies that the upstream package type has the shape this
// file relies on.
func checkBridge() error {
	bridgeOnce.Do(func() {
		nt := reflect.TypeOf(gtp.NewProtobufNamer())
		if nt.Kind() != reflect.Pointer || nt.Elem().Kind() != reflect.Struct {
			bridgeErr = fmt.Errorf("go-to-protobuf namer has unexpected type %v", nt)
			return
		}
		f, ok := nt.Elem().FieldByName("packages")
		if !ok || f.Type.Kind() != reflect.Slice || f.Type.Elem().Kind() != reflect.Pointer || f.Type.Elem().Elem().Kind() != reflect.Struct {
			bridgeErr = fmt.Errorf("go-to-protobuf namer has no packages slice of struct pointers")
			return
		}
		st := f.Type.Elem().Elem()
		if st.Name() != "protobufPackage" {
			bridgeErr = fmt.Errorf("go-to-protobuf package type is %s, expected protobufPackage", st.Name())
			return
		}
		want := map[string]reflect.Type{
			"SimpleTarget": reflect.TypeOf(generator.SimpleTarget{}),
			"OmitGogo":     reflect.TypeOf(false),
			"StructTags":   reflect.TypeOf(map[string]map[string]string(nil)),
		}
		for name, typ := range want {
			sf, ok := st.FieldByName(name)
			if !ok || sf.Type != typ {
				bridgeErr = fmt.Errorf("go-to-protobuf package type has no field %s of type %v", name, typ)
				return
			}
		}
		if !reflect.PointerTo(st).Implements(reflect.TypeOf((*pkgMethods)(nil)).Elem()) {
			bridgeErr = fmt.Errorf("go-to-protobuf package type lacks the expected methods")
			return
		}
		addM, ok := nt.MethodByName("Add")
		if !ok || addM.Type.NumIn() != 2 || addM.Type.In(1) != reflect.PointerTo(st) {
			bridgeErr = fmt.Errorf("go-to-protobuf namer has no Add(*protobufPackage) method")
			return
		}
		pkgStruct = st
	})
	return bridgeErr
}

// upstreamPackage is one go-to-protobuf package, seen through the bridge.
type upstreamPackage struct {
	v       reflect.Value // *protobufPackage
	methods pkgMethods
}

func newUpstreamPackage(path, dir, protoName string, generateAll bool, omit map[types.Name]struct{}) (*upstreamPackage, error) {
	if err := checkBridge(); err != nil {
		return nil, err
	}
	p := upstreamNewPackage(path, dir, protoName, generateAll, omit)
	if p == nil {
		return nil, fmt.Errorf("go-to-protobuf returned no package for %s", path)
	}
	v := reflect.NewAt(pkgStruct, p)
	return &upstreamPackage{v: v, methods: v.Interface().(pkgMethods)}, nil
}

func (p *upstreamPackage) simpleTarget() *generator.SimpleTarget {
	return p.v.Elem().FieldByName("SimpleTarget").Addr().Interface().(*generator.SimpleTarget)
}

func (p *upstreamPackage) setOmitGogo(b bool) { p.v.Elem().FieldByName("OmitGogo").SetBool(b) }

func (p *upstreamPackage) structTags() map[string]map[string]string {
	return p.v.Elem().FieldByName("StructTags").Interface().(map[string]map[string]string)
}

// addTo registers the package with a namer made by NewProtobufNamer.
func (p *upstreamPackage) addTo(namer any) {
	reflect.ValueOf(namer).MethodByName("Add").Call([]reflect.Value{p.v})
}
